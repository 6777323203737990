import { bufferedBody, type Backend, type TransportOptions, type WireRequest, type WireResponse } from '../model/backend.js';
import { WITH_TRANSPORT, type TransportAware } from '../backends/backend-choice.js';
import { backendFor } from '../backends/registry.js';
import type { BackendName } from '../config/client-config.js';
import { targetAuthority } from '../model/proxy-route.js';

/** A request as handed to the transport, its body read whole (`undefined`: none). */
export interface SentRequest {
  readonly wire: WireRequest;
  readonly body: Uint8Array | undefined;
}

/**
 * The backend `inner` (a name, or a Backend such as `verbose(...)`) with each request handed to
 * `seen` before it goes out, its body read whole (for `--print HB`). With `offline` nothing is
 * sent: every request gets an empty `204` made here, and no connection is opened.
 *
 * @example
 * c.client.backend = capturing('undici', (sent) => console.log(sent.wire.method), false);
 */
export function capturing(inner: BackendName | Backend | undefined, seen: (sent: SentRequest) => void | Promise<void>, offline: boolean): Backend {
  return new CapturingBackend(inner, seen, offline, { tls: undefined, connection: undefined });
}

class CapturingBackend implements TransportAware {
  readonly name: string;
  #backend: Backend | undefined;

  constructor(
    private readonly inner: BackendName | Backend | undefined,
    private readonly seen: (sent: SentRequest) => void | Promise<void>,
    private readonly offline: boolean,
    private readonly transport: TransportOptions,
  ) {
    this.name = typeof inner === 'object' ? inner.name : (inner ?? 'native');
  }

  [WITH_TRANSPORT](transport: TransportOptions): Backend {
    return new CapturingBackend(this.inner, this.seen, this.offline, transport);
  }

  /** Made on first use (never offline), so that only the client's copy connects. */
  get #connecting(): Backend {
    if (this.#backend === undefined) {
      const inner = this.inner;
      this.#backend =
        typeof inner === 'object' && WITH_TRANSPORT in inner ? (inner as TransportAware)[WITH_TRANSPORT](this.transport) : backendFor(inner, this.transport);
    }
    return this.#backend;
  }

  get proxies(): boolean {
    return this.offline || this.#connecting.proxies === true;
  }

  async send(request: WireRequest): Promise<WireResponse> {
    const bytes = request.body === undefined ? undefined : (request.body.bytes ?? (await readWhole(request.body)));
    await this.seen({ wire: request, body: bytes });
    if (this.offline) return noContent();
    const body = bytes === undefined ? undefined : bufferedBody(bytes);
    return this.#connecting.send({ ...request, body });
  }

  async close(): Promise<void> {
    await this.#backend?.close();
  }
}

async function readWhole(body: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function noContent(): WireResponse {
  return { statusCode: 204, message: 'No Content', headers: [], body: (async function* () {})(), decoded: false, discard: () => undefined };
}

/**
 * The request head as httpie prints it: `POST /path?q=1 HTTP/1.1`, the headers as sent, `Host`
 * last (added by the transport unless set), then an empty line.
 *
 * @example
 * requestText(sent); // 'GET /users HTTP/1.1\nAccept: application/json\nHost: localhost:8080\n\n'
 */
export function requestText(wire: WireRequest): string {
  const names = Object.keys(wire.headers);
  const host = names.some((name) => name.toLowerCase() === 'host') ? '' : `Host: ${targetAuthority(wire)}\n`;
  return `${wire.method} ${wire.target} HTTP/1.1\n${names.map((name) => `${name}: ${wire.headers[name]}\n`).join('')}${host}\n`;
}
