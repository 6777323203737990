import type { UriParts } from '../config/settings.js';
import { ConfigError } from '../core/errors.js';
import { hideUserInfoIn } from '../core/redact.js';
import { CONTROL, escape } from '../core/text.js';

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

/** Same scheme, host (case-insensitive) and port: what credentials, cookies set by the caller and request bodies may cross. */
export function sameOrigin(a: Pick<Target, 'secure' | 'hostname' | 'port'>, b: Pick<Target, 'secure' | 'hostname' | 'port'>): boolean {
  return a.secure === b.secure && a.port === b.port && a.hostname.toLowerCase() === b.hostname.toLowerCase();
}

/** A parsed URL (without credentials) held to the rules of a configured one. */
export function targetOfUrl(parsed: URL): Target {
  return buildTarget({
    scheme: parsed.protocol.slice(0, -1),
    host: parsed.hostname,
    port: parsed.port === '' ? undefined : parsed.port,
    path: parsed.pathname,
    query: new Map(),
    rawQuery: parsed.search === '' ? undefined : parsed.search.slice(1),
    fragment: undefined,
    raw: undefined,
  });
}

/** Builds the URL from resolved parts, rejecting anything that would change the origin or inject bytes. */
export function buildTarget(uri: UriParts): Target {
  const { prefix, secure, hostname, port } = originOf(uri);
  const query = uri.rawQuery === undefined ? queryString(uri.query) : uri.rawQuery === '' ? '' : `?${uri.rawQuery}`;
  const target = uri.raw === undefined ? encodePath(uri.path) + query : checkRaw(uri.raw);
  const fragment = uri.fragment === undefined ? '' : `#${percentEncode(uri.fragment, 'uri.fragment')}`;
  return { url: `${prefix}${target}${fragment}`, secure, hostname, port, target };
}

/** A checked origin: `scheme://authority` and its pieces. */
interface Origin {
  readonly prefix: string;
  readonly secure: boolean;
  readonly hostname: string;
  readonly port: number;
}

// The origin checked last, by the parts it came from: a client sends most of its requests to one
// origin, and checking it again costs regexes and strings on every request. Failures are not kept.
let lastOrigin:
  { readonly scheme: string | undefined; readonly host: string | undefined; readonly port: string | undefined; readonly origin: Origin } | undefined;

function originOf(uri: UriParts): Origin {
  const last = lastOrigin;
  if (last !== undefined && last.scheme === uri.scheme && last.host === uri.host && last.port === uri.port) return last.origin;
  const origin = checkedOrigin(uri);
  lastOrigin = { scheme: uri.scheme, host: uri.host, port: uri.port, origin };
  return origin;
}

function checkedOrigin(uri: UriParts): Origin {
  const scheme = uri.scheme?.toLowerCase();
  if (scheme === undefined || uri.host === undefined || uri.host === '') {
    throw new ConfigError('request.uri has no scheme and host: set request.uri to an absolute URL such as https://example.com');
  }
  if (scheme !== 'http' && scheme !== 'https') throw new ConfigError(`uri.scheme '${scheme}' is not supported: use http or https`);
  const hostname = checkHost(uri.host);
  const secure = scheme === 'https';
  const port = uri.port === undefined ? (secure ? 443 : 80) : Number(uri.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535 || (uri.port !== undefined && !/^\d+$/.test(uri.port))) {
    throw new ConfigError(`uri.port '${escape(String(uri.port))}' is not a port number (1-65535)`);
  }
  const authority = uri.port === undefined ? hostname : `${hostname}:${port}`;
  return { prefix: `${scheme}://${authority}`, secure, hostname, port };
}

const PLAIN_HOST = /^[A-Za-z0-9._-]+$/; // `_` too: docker and k8s service names have it
const NUMERIC_LAST_LABEL = /(?:^|\.)(?:\d+|0x[0-9a-f]*)\.?$/i;

/**
 * A host every backend reads the same way: plain names and IPv4 as they are; anything else
 * (IPv6 literals, international names) as WHATWG URL parsing has it (punycode, for one), or a
 * ConfigError when it is no host at all ('<', '[zz', 'h:9' smuggling a port).
 */
function checkHost(host: string): string {
  // a name whose last label is a number is an IPv4 address to URL parsers ('127.1' is 127.0.0.1,
  // '1.2.3.256' no address at all), and getaddrinfo reads it its own way: parse it like the rest
  if (PLAIN_HOST.test(host) && !NUMERIC_LAST_LABEL.test(host)) return host;
  const invalid = () => new ConfigError(`uri.host '${escape(hideUserInfoIn(host))}' is not a valid host name`);
  if (/[\s/?#@\\%]/.test(host) || CONTROL.test(host) || (!host.startsWith('[') && host.includes(':'))) throw invalid();
  let parsed: string;
  try {
    parsed = new URL(`http://${host}/`).hostname;
  } catch {
    throw invalid();
  }
  // WHATWG accepts some characters no backend agrees on (`^`, `<`): only letters, digits, '-', '_', '.' and IPv6 literals pass
  if (!PLAIN_HOST.test(parsed) && !/^\[[0-9a-f:.]+\]$/.test(parsed)) throw invalid();
  return parsed;
}

/** Percent-encodes what may not appear in a path (the origin check happened when the path was joined). */
function encodePath(path: string): string {
  if (CONTROL.test(path)) throw new ConfigError(`uri.path '${escape(hideUserInfoIn(path))}' contains a control character (CR, LF, NUL, ...)`);
  // a newcomer's `path = '/users?page=2'` would go out as /users%3Fpage=2: say where it belongs
  const mark = /[?#]/.exec(path)?.[0];
  if (mark === '?') {
    throw new ConfigError(
      `uri.path '${escape(hideUserInfoIn(path))}' contains '?': put the query in uri.query (c.request.uri.query = { page: '2' }), or send a literal '?' as %3F or through request.raw`,
    );
  }
  if (mark === '#')
    throw new ConfigError(`uri.path '${escape(hideUserInfoIn(path))}' contains '#': put the fragment in uri.fragment, or send a literal '#' as %23`);
  const absolute = path.startsWith('/') ? path : `/${path}`;
  return PATH_SAFE.test(absolute) ? absolute : percentEncode(absolute, 'uri.path');
}

// RFC 3986: what must be escaped in a path (pchar and '/'), and in a fragment (which adds '?')
const PATH_ESCAPE = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu;
const FRAGMENT_ESCAPE = /%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/?%]/gu;

/** Encodes what may not appear in a path or fragment, keeping existing %XX escapes. */
function percentEncode(text: string, part: 'uri.path' | 'uri.fragment'): string {
  return text.replace(part === 'uri.path' ? PATH_ESCAPE : FRAGMENT_ESCAPE, (c) => encodeComponent(c, part));
}

/** encodeURIComponent, with a lone surrogate (not encodable) reported as a ConfigError naming the part. */
function encodeComponent(text: string, part: string): string {
  try {
    return encodeURIComponent(text).replace(/'/g, '%27');
  } catch {
    throw new ConfigError(`${part} contains text that cannot be percent-encoded (a lone UTF-16 surrogate)`);
  }
}

/**
 * `{ a: ['1', '2'] }` → `?a=1&a=2`; empty → `` (no bare `?`). Space is `%20`, `+ & = @ #` are
 * escaped, and `'` too: WHATWG URL parsing (fetch's) escapes it, and the request-target must
 * not change between what is signed (Digest `uri`) and what is sent.
 */
function queryString(query: ReadonlyMap<string, readonly string[]>): string {
  if (query.size === 0) return '';
  const parts: string[] = [];
  for (const [name, values] of query) {
    const encodedName = encodeComponent(name, 'uri.query');
    for (const value of values) parts.push(`${encodedName}=${encodeComponent(value, 'uri.query')}`);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

function checkRaw(raw: string): string {
  // sent byte for byte, so only printable ASCII: anything else must come pre-encoded
  if (!/^[\x21-\x7e]*$/.test(raw))
    throw new ConfigError(`request.raw '${escape(hideUserInfoIn(raw))}' contains a space, a control character or non-ASCII text (percent-encode it)`);
  if (raw.startsWith('//') || !raw.startsWith('/')) {
    throw new ConfigError(`request.raw '${escape(hideUserInfoIn(raw))}' must start with a single '/' (it cannot change the origin)`);
  }
  return raw;
}
