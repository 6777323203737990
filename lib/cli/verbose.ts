import type { Backend, WireRequest, WireResponse } from '../model/backend.js';
import { redactReference } from '../core/redact.js';
import { isCredentialHeader, redactUrisInHeader } from '../core/header-redaction.js';
import { targetAuthority } from '../model/proxy-route.js';
import { printable, statusLine } from './render.js';

/**
 * `inner` with every wire exchange (each redirect hop, retry and auth round) shown on `out` as
 * curl -v shows it: `> ` the request line and headers as handed to the transport, `< ` the
 * status line and headers as received, each head ended by a bare `>` or `<` line. Credentials
 * are `***`: the values of credential headers ({@link isCredentialHeader}: `Authorization`,
 * `Cookie`, `X-Api-Key`, ...), and user info and credential-like query values in the request
 * line and in the URLs of `Location`, `Content-Location`, `Link` and the like (as in the error
 * line and debug logs: a redirect to a pre-signed URL shows no signature).
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
  return head('>', [`${request.method} ${redactReference(request.target)} HTTP/1.1`, ...headerLines(headers)]);
}

/** `< HTTP/1.1 200 OK` (`< HTTP/2 200` over HTTP/2), the headers as received, `<`. */
export function responseHead(response: WireResponse): string {
  return head('<', [statusLine(response.httpVersion, response.statusCode, response.message), ...headerLines(response.headers)]);
}

/** Each line after `mark` and a space, then `mark` alone; control characters shown as `\xNN`. */
function head(mark: string, lines: readonly string[]): string {
  return lines.map((line) => `${mark} ${printable(line)}\n`).join('') + `${mark}\n`;
}

function headerLines(headers: ReadonlyArray<readonly [string, string]>): string[] {
  return headers.map(([name, value]) => `${name}: ${isCredentialHeader(name) ? '***' : redactUrisInHeader(name, value, redactReference)}`);
}
