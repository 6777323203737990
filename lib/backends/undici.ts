import type * as Undici from 'undici';
import { ConfigError } from '../core/errors.js';
import { clientClosed, inMemory, utf8TextOf, type Backend, type TransportOptions, type WireRequest, type WireResponse } from '../model/backend.js';
import { importPeer } from './optional-peer.js';
import { challengeResponse, ProxyChallenge } from './proxy-challenge.js';
import { UndiciBody } from './undici-body.js';
import { undiciError } from './undici-errors.js';
import { UndiciProxies } from './undici-proxy.js';
import { recordingVersions, undiciAgentOptions, type Versions } from './undici-limits.js';

type Dispatcher = Undici.Dispatcher;

/**
 * The `'undici'` backend: undici's dispatcher API (an `Agent` per client, one per connect
 * timeout, as undici takes that per Agent) with a response handler of its own, the leanest path
 * node has. Transport only, like the native backend: every header and the body arrive decided,
 * the response comes back as sent (reason phrase, raw header pairs, body undecoded).
 */
export async function createUndiciBackend(options: TransportOptions): Promise<Backend> {
  const undici = await importPeer('undici', 'undici', () => import('undici'));
  return new UndiciBackend(undici, options);
}

class UndiciBackend implements Backend {
  readonly name = 'undici';
  readonly proxies = true;
  readonly #undici: typeof Undici;
  readonly #options: TransportOptions;
  readonly #agents = new Map<number, Dispatcher>();
  #proxied: UndiciProxies | undefined;
  /** With `client.http2`: the version ALPN picked per origin. */
  readonly #versions: Versions = { byOrigin: new Map() };
  #closed = false;

  constructor(undici: typeof Undici, options: TransportOptions) {
    this.#undici = undici;
    this.#options = options;
  }

  send(request: WireRequest): Promise<WireResponse> {
    if (this.#closed) return Promise.reject(clientClosed());
    const headers = sendable(request.headers);
    if (headers instanceof ConfigError) return Promise.reject(headers);
    const dispatcher = request.proxy
      ? (this.#proxied ??= new UndiciProxies(this.#undici, this.#options.tls, this.#options.connection)).dispatcher(request.proxy, request)
      : this.#agent(request.connectTimeout ?? 0);
    const origin = request.secure ? `https://${request.hostname}:${request.port}` : `http://${request.hostname}:${request.port}`;
    return new Promise((resolve, reject) => {
      const handler = new ResponseHandler(
        resolve,
        reject,
        request.signal,
        this.#options.http2 ? this.#versions.byOrigin.get.bind(this.#versions.byOrigin, origin) : undefined,
      );
      dispatcher.dispatch(
        {
          origin,
          path: request.target,
          method: request.method,
          headers,
          // undici writes an async iterable as a stream (its types name only Readable)
          body: bodyOf(request) as Undici.Dispatcher.DispatchOptions['body'],
          headersTimeout: request.headersTimeout ?? 0,
          bodyTimeout: request.bodyTimeout ?? 0,
        },
        handler,
      );
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    await Promise.all([...this.#agents.values(), ...(this.#proxied ? [this.#proxied] : [])].map((agent) => agent.destroy()));
  }

  #agent(connectTimeout: number): Dispatcher {
    let agent = this.#agents.get(connectTimeout);
    if (!agent) {
      const options = undiciAgentOptions(this.#options, connectTimeout);
      const made = this.#options.http2 ? recordingVersions(options, this.#undici.buildConnector, this.#versions) : options;
      this.#agents.set(connectTimeout, (agent = new this.#undici.Agent(made)));
    }
    return agent;
  }
}

/** The body as undici takes it: text (it encodes as it writes), bytes, or the stream. */
function bodyOf(request: WireRequest): string | Uint8Array | AsyncIterable<Uint8Array> | null {
  const body = request.body;
  if (body === undefined) return null;
  if (!inMemory(body)) return body;
  return utf8TextOf(body) ?? body.bytes!;
}

/**
 * The headers as undici takes them: it frames a body itself (the pipeline's `Transfer-Encoding:
 * chunked` goes, undici writes chunked for a body of unknown length), and it throws deep inside
 * dispatch for the hop-by-hop headers it manages: named here (the error returned), before anything is sent. By
 * length first: most names are none of these, and a request without any is not copied.
 */
function sendable(headers: Readonly<Record<string, string>>): Readonly<Record<string, string>> | ConfigError {
  let framed = false;
  for (const name in headers) {
    if (!HOP_LENGTHS.has(name.length)) continue;
    const lower = name.toLowerCase();
    if (lower === 'transfer-encoding') framed = true;
    else if (lower === 'expect' || lower === 'upgrade' || lower === 'keep-alive') return refusedHeader(name, 'undici refuses it');
    else if (lower === 'connection' && !/^\s*(?:close|keep-alive)\s*$/i.test(headers[name]))
      return refusedHeader(name, "undici takes only 'close' or 'keep-alive'");
  }
  if (!framed) return headers;
  const kept: Record<string, string> = {};
  for (const name in headers) if (name.toLowerCase() !== 'transfer-encoding') kept[name] = headers[name];
  return kept;
}

const HOP_LENGTHS = new Set(['expect'.length, 'upgrade'.length, 'keep-alive'.length, 'transfer-encoding'.length]);

function refusedHeader(name: string, why: string): ConfigError {
  return new ConfigError(`the undici backend cannot send header '${name}' (${why}): leave it out, or use another backend`);
}

/**
 * undici's (older, still supported) handler API: resolves with the response once its head is
 * in, then feeds the body. One object per request, with methods on its prototype.
 */
class ResponseHandler {
  #abort: ((reason?: Error) => void) | undefined;
  #body: UndiciBody | undefined;
  #settled = false;

  constructor(
    private readonly resolve: (response: WireResponse) => void,
    private readonly reject: (error: unknown) => void,
    private readonly signal: AbortSignal | undefined,
    /** With `client.http2`: the version of the origin's connection, once made. */
    private readonly versionOf: (() => '1.1' | '2.0' | undefined) | undefined,
  ) {}

  onConnect(abort: (reason?: Error) => void): void {
    this.#abort = abort;
    const signal = this.signal;
    if (signal === undefined) return;
    if (signal.aborted) abort(signal.reason as Error);
    else signal.addEventListener('abort', this, { once: true });
  }

  /** The signal's listener (an object with handleEvent: no closure per request). */
  handleEvent(): void {
    this.#abort?.(this.signal!.reason as Error);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean {
    // 1xx heads (an unsolicited 100 Continue) come here too: skip them, the real one follows
    if (statusCode < 200) return true;
    const headers: Array<readonly [string, string]> = [];
    for (let i = 0; i < rawHeaders.length; i += 2) headers.push([rawHeaders[i].toString('latin1'), valueOf(rawHeaders[i + 1])]);
    const body = (this.#body = new UndiciBody(resume, this.#abort!, lengthOf(headers)));
    this.#settled = true;
    this.resolve({
      statusCode,
      message: statusText,
      headers,
      body,
      decoded: false,
      httpVersion: this.versionOf?.() ?? '1.1',
      // bound, not arrows made per response: docs/performance.md, "Arrows made per request"
      discard: body.discard.bind(body),
      readAll: body.readAll.bind(body),
    });
    return true;
  }

  onData(chunk: Buffer): boolean {
    return this.#body!.push(chunk);
  }

  onComplete(): void {
    this.#unlink();
    this.#body?.end();
  }

  onError(error: Error): void {
    this.#unlink();
    error = undiciError(error);
    if (this.#settled) this.#body?.fail(error);
    else {
      this.#settled = true;
      // a proxy's 407 that the absolute-form interceptor stopped (as for fetch): a response for the proxy stage
      if (error instanceof ProxyChallenge) this.resolve(challengeResponse(error));
      else this.reject(error);
    }
  }

  onUpgrade(_statusCode: number, _headers: unknown, socket: { destroy(): void }): void {
    socket.destroy();
    this.onError(Object.assign(new Error('the server switched protocols (101) without being asked to'), { code: 'ERR_UNEXPECTED_UPGRADE' }));
  }

  #unlink(): void {
    this.signal?.removeEventListener('abort', this);
  }
}

/**
 * A header value as node's parser gives it: undici keeps trailing spaces and tabs, which are not
 * part of a value (RFC 9110 §5.5).
 */
function valueOf(raw: Buffer): string {
  const value = raw.toString('latin1');
  const last = value.charCodeAt(value.length - 1);
  return last === 0x20 || last === 0x09 ? value.replace(/[ \t]+$/, '') : value;
}

function lengthOf(headers: ReadonlyArray<readonly [string, string]>): number | undefined {
  for (const [name, value] of headers) if (name.length === 14 && name.toLowerCase() === 'content-length') return Number(value);
  return undefined;
}
