import type { UriParts } from '../config/settings.js';
import { ConfigError } from '../errors.js';

/** Where a request goes, in the pieces a transport needs. */
export interface Target {
  readonly url: string;
  readonly secure: boolean;
  readonly hostname: string;
  readonly port: number;
  /** Path and query as they go on the request line. */
  readonly target: string;
}

const PATH_SAFE = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;
/** A URI scheme at the start: `http:`, `javascript:` ... */
export const SCHEME_PREFIX = /^[a-z][a-z0-9+.-]*:/i;

/** Builds the URL from resolved parts, rejecting anything that would change the origin or inject bytes. */
export function buildTarget(uri: UriParts): Target {
  const scheme = uri.scheme?.toLowerCase();
  if (scheme === undefined || uri.host === undefined || uri.host === '') {
    throw new ConfigError('request.uri has no scheme and host: set request.uri to an absolute URL such as https://example.com');
  }
  if (scheme !== 'http' && scheme !== 'https') throw new ConfigError(`uri.scheme '${scheme}' is not supported: use http or https`);
  const host = uri.host;
  if (/[\s/?#@\\]/.test(host) || CONTROL.test(host)) throw new ConfigError(`uri.host '${escape(host)}' is not a valid host name`);
  const secure = scheme === 'https';
  const port = uri.port === undefined ? (secure ? 443 : 80) : Number(uri.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535 || (uri.port !== undefined && !/^\d+$/.test(uri.port))) {
    throw new ConfigError(`uri.port '${escape(String(uri.port))}' is not a port number (1-65535)`);
  }
  const target = uri.raw === undefined ? encodePath(uri.path) + queryString(uri.query) : checkRaw(uri.raw);
  const authority = uri.port === undefined ? host : `${host}:${port}`;
  const fragment = uri.fragment === undefined ? '' : `#${encodeURI(uri.fragment)}`;
  return { url: `${scheme}://${authority}${target}${fragment}`, secure, hostname: host, port, target };
}

/** Percent-encodes what may not appear in a path (the origin check happened when the path was joined). */
function encodePath(path: string): string {
  if (CONTROL.test(path)) throw new ConfigError(`uri.path '${escape(path)}' contains a control character (CR, LF, NUL, ...)`);
  const absolute = path.startsWith('/') ? path : `/${path}`;
  if (PATH_SAFE.test(absolute)) return absolute;
  // encode what may not appear in a path, keeping existing %XX escapes
  return absolute.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu, (c) => encodeURIComponent(c));
}

/** `{ a: ['1', '2'] }` → `?a=1&a=2`; empty → `` (no bare `?`). Space is `%20`, `+ & = @ #` are escaped. */
function queryString(query: ReadonlyMap<string, readonly string[]>): string {
  if (query.size === 0) return '';
  const parts: string[] = [];
  for (const [name, values] of query) {
    const encodedName = encodeURIComponent(name);
    for (const value of values) parts.push(`${encodedName}=${encodeURIComponent(value)}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

function checkRaw(raw: string): string {
  if (/[\r\n\0 ]/.test(raw) || CONTROL.test(raw)) throw new ConfigError(`request.raw '${escape(raw)}' contains a space or a control character`);
  if (raw.startsWith('//') || !raw.startsWith('/')) {
    throw new ConfigError(`request.raw '${escape(raw)}' must start with a single '/' (it cannot change the origin)`);
  }
  return raw;
}

/** Shows control characters visibly so a message never carries a raw CR/LF. */
export function escape(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
