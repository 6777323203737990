import type { Backend, WireRequest, WireResponse } from '../model/backend.js';
import { isSecretName, redactUrl } from '../core/redact.js';
import { targetAuthority } from '../model/proxy-route.js';
import { printable } from './render.js';

/** Headers whose values are credentials: `-v` shows them as `***`. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/**
 * `inner` with every wire exchange (each redirect hop, retry and auth round) shown on `out` as
 * curl -v shows it: `> ` the request line and headers as handed to the transport, `< ` the
 * status line and headers as received, each head ended by a bare `>` or `<` line. Credentials
 * are `***`: the values of {@link SECRET_HEADERS} and of credential-like names (`X-Api-Key`), and credential-like query values (as in the
 * error line and debug logs).
 *
 * @example
 * c.client.backend = verbose(backendFor('native', { tls: undefined, connection: undefined }), process.stderr);
 */
export function verbose(inner: Backend, out: { write(text: string): unknown }): Backend {
  return {
    name: inner.name,
    proxies: inner.proxies,
    async send(request) {
      if (request.proxy) out.write(`* via the proxy ${request.proxy.shown}\n`);
      out.write(requestHead(request));
      const response = await inner.send(request);
      out.write(responseHead(response));
      return response;
    },
    close: () => inner.close(),
  };
}

/** `> GET /path HTTP/1.1`, `> Host: ...` (added by the transport, unless set), the headers, `>`. */
export function requestHead(request: WireRequest): string {
  const names = Object.keys(request.headers);
  const host = names.some((name) => name.toLowerCase() === 'host') ? [] : [['Host', targetAuthority(request)] as const];
  const headers = [...host, ...names.map((name) => [name, request.headers[name]] as const)];
  return head('>', [`${request.method} ${shownTarget(request.target)} HTTP/1.1`, ...headerLines(headers)]);
}

/** `< HTTP/1.1 200 OK`, the headers as received, `<`. Every backend speaks HTTP/1.1. */
export function responseHead(response: WireResponse): string {
  const reason = response.message === '' ? '' : ` ${response.message}`;
  return head('<', [`HTTP/1.1 ${response.statusCode}${reason}`, ...headerLines(response.headers)]);
}

/** Each line after `mark` and a space, then `mark` alone; control characters shown as `\xNN`. */
function head(mark: string, lines: readonly string[]): string {
  return lines.map((line) => `${mark} ${printable(line)}\n`).join('') + `${mark}\n`;
}

function headerLines(headers: ReadonlyArray<readonly [string, string]>): string[] {
  return headers.map(([name, value]) => `${name}: ${SECRET_HEADERS.has(name.toLowerCase()) || isSecretName(name) ? '***' : value}`);
}

/** The `Host` header a transport sends: the port only when it is not the scheme's. */

/** The request target with credential-like query values hidden. */
function shownTarget(target: string): string {
  const origin = 'http://host';
  return redactUrl(origin + target).slice(origin.length);
}
