import type { Backend, TransportOptions, WireRequest, WireResponse } from '../model/backend.js';
import { redactReference } from '../core/redact.js';
import { isCredentialHeader, redactUrisInHeader } from '../core/header-redaction.js';
import { targetAuthority } from '../model/proxy-route.js';
import { printable, statusLine } from './render.js';
import { WITH_TRANSPORT, type TransportAware } from '../backends/backend-choice.js';
import { backendFor } from '../backends/registry.js';
import type { BackendName } from '../config/client-config.js';

/**
 * The backend named `choice` (native by default) with every wire exchange (each redirect hop, retry and auth round) shown on `out` as
 * curl -v shows it: `> ` the request line and headers as handed to the transport, `< ` the
 * status line and headers as received, each head ended by a bare `>` or `<` line. Credentials
 * are `***`: the values of credential headers ({@link isCredentialHeader}: `Authorization`,
 * `Cookie`, `X-Api-Key`, ...), and user info and credential-like query values in the request
 * line and in the URLs of `Location`, `Content-Location`, `Link` and the like (as in the error
 * line and debug logs: a redirect to a pre-signed URL shows no signature).
 *
 * As `client.backend` it is made with the client's transport settings (`execution.tls` with its
 * pins, `client.http2`, `client.publicOnly`: {@link WITH_TRANSPORT}), as the named backend would be.
 *
 * @example
 * c.client.backend = verbose('undici', process.stderr);
 */
export function verbose(choice: BackendName | undefined, out: { write(text: string): unknown }): Backend {
  return new VerboseBackend(choice, out, { tls: undefined, connection: undefined });
}

class VerboseBackend implements TransportAware {
  readonly name: string;
  #inner: Backend | undefined;

  constructor(
    private readonly choice: BackendName | undefined,
    private readonly out: { write(text: string): unknown },
    private readonly transport: TransportOptions,
  ) {
    this.name = choice ?? 'native';
  }

  [WITH_TRANSPORT](transport: TransportOptions): Backend {
    return new VerboseBackend(this.choice, this.out, transport);
  }

  /** Made on first use, so that the client's copy (WITH_TRANSPORT) is the only one that connects. */
  get #backend(): Backend {
    return (this.#inner ??= backendFor(this.choice, this.transport));
  }

  get proxies(): Backend['proxies'] {
    return this.#backend.proxies;
  }

  async send(request: WireRequest): Promise<WireResponse> {
    if (request.proxy) this.out.write(`* via the proxy ${request.proxy.shown}\n`);
    this.out.write(requestHead(request));
    const response = await this.#backend.send(request);
    this.out.write(responseHead(response));
    return response;
  }

  async close(): Promise<void> {
    await this.#inner?.close();
  }
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
