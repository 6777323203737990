import type * as Undici from 'undici';
import { ConfigError } from '../core/errors.js';
import { clientClosed, inMemory, isStreamed, readWhole, utf8TextOf } from '../model/backend.js';
import type { Backend, TransportOptions, WireRequest, WireResponse } from '../model/backend.js';
import { shortOfLength } from '../model/stream-end.js';
import { importPeer } from './optional-peer.js';
import { challengeResponse, ProxyChallenge } from './proxy-challenge.js';
import { UndiciBody } from './undici-body.js';
import { hasDispatcher, undiciWithoutDispatcher } from './undici-check.js';
import { runtimeName } from '../core/runtime-name.js';
import { undiciError } from './undici-errors.js';
import { requestStarts } from './undici-timings.js';
import type { TimingsRecorder } from '../core/timings.js';
import { UndiciProxies } from './undici-proxy.js';
import { multiplexing, originKey, undiciAgentOptions, withConnector, type Versions } from './undici-limits.js';

type Dispatcher = Undici.Dispatcher;

/**
 * The `'undici'` backend: undici's dispatcher API (an `Agent` per client, one per connect
 * timeout, as undici takes that per Agent) with a response handler of its own, the leanest path
 * node has. Transport only, like the native backend: every header and the body arrive decided,
 * the response comes back as sent (reason phrase, raw header pairs, body undecoded). Where
 * `undici` has no Dispatcher (Bun's built-in one) it is a ConfigError naming the runtime.
 *
 * @param load How undici is imported (a test passes a module of its own).
 */
export async function createUndiciBackend(options: TransportOptions, load: () => Promise<unknown> = () => import('undici')): Promise<Backend> {
  const undici = await importPeer('undici', 'undici', load);
  // Bun's built-in undici (which Bun gives whatever node_modules holds) has no Dispatcher
  if (!hasDispatcher(undici)) throw undiciWithoutDispatcher(runtimeName());
  return new UndiciBackend(undici as typeof Undici, options);
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
    // undici's HTTP/2 writer never ends a stream whose body it knows to be empty unless that body
    // is in memory (the call hangs): a streamed one of length 0 (an empty Blob, a stream with
    // `Content-Length: 0`) is read to its end, then goes as an empty body in memory
    if (this.#options.http2 === true && isStreamed(request.body) && request.body.length === 0)
      return readWhole(request.body).then((body) => this.send({ ...request, body }));
    const headers = sendable(request.headers);
    if (headers instanceof ConfigError) return Promise.reject(headers);
    const dispatcher = request.proxy
      ? (this.#proxied ??= new UndiciProxies(this.#undici, this.#options.tls, this.#options.connection)).dispatcher(request.proxy, request)
      : this.#agent(request.connectTimeout ?? 0);
    const origin = request.secure ? `https://${request.hostname}:${request.port}` : `http://${request.hostname}:${request.port}`;
    const http2 = this.#options.http2 === true;
    return new Promise((resolve, reject) => {
      const handler = new ResponseHandler(
        resolve,
        reject,
        request.signal,
        http2 ? this.#versions.byOrigin.get.bind(this.#versions.byOrigin, originKey(request.secure, request.hostname, request.port)) : undefined,
        http2 && request.body !== undefined && request.body.length !== 0 && (request.method === 'GET' || request.method === 'HEAD')
          ? request.method
          : undefined,
        request.method === 'HEAD',
        request.timings,
      );
      dispatcher.dispatch(
        {
          origin,
          path: request.target,
          method: request.method,
          headers,
          // undici writes an async iterable as a stream (its types name only Readable)
          body: (http2 ? h2BodyOf(request) : bodyOf(request)) as Undici.Dispatcher.DispatchOptions['body'],
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
      const made = withConnector(this.#options.tls, options, this.#undici.buildConnector, this.#options.http2 ? this.#versions : undefined);
      this.#agents.set(connectTimeout, (agent = new this.#undici.Agent(made)));
      if (this.#options.http2) multiplexing(agent, made, this.#versions);
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
 * {@link bodyOf} with `client.http2`. undici's HTTP/2 writer asserts that bytes or text it is
 * given for any method but PUT, POST and PATCH have a length it never sets for them, and the
 * session then breaks: such a body goes as a one-chunk iterable instead (an array, which undici
 * does not serialise behind other requests as it does a stream). HTTP/1.1 sends it the same.
 */
function h2BodyOf(request: WireRequest): string | Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array> | null {
  const body = request.body;
  // an empty one is no body to undici
  if (body === undefined || !inMemory(body) || body.length === 0 || PAYLOAD_METHODS.has(request.method)) return bodyOf(request);
  return [body.bytes!];
}

/** The methods undici's HTTP/2 writer frames a body of bytes or text for. */
const PAYLOAD_METHODS: ReadonlySet<string> = new Set(['PUT', 'POST', 'PATCH']);

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

function bodyRefused(method: string): ConfigError {
  return new ConfigError(
    `the undici backend cannot send a body with ${method} over HTTP/2 (undici ends the request with its headers): use another backend or method, or HTTP/1.1`,
  );
}

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
  /** Over HTTP/2, the content-length still to come (undici ends a stream that RST_STREAM CANCEL or NO_ERROR cut as if whole); else undefined. */
  #owed: number | undefined;

  constructor(
    private readonly resolve: (response: WireResponse) => void,
    private readonly reject: (error: unknown) => void,
    private readonly signal: AbortSignal | undefined,
    /** With `client.http2`: the version of the origin's connection, once made. */
    private readonly versionOf: (() => '1.1' | '2.0' | undefined) | undefined,
    /** With `client.http2`: the method of a GET or HEAD that has a body (not an empty one). */
    private readonly bodyWith: string | undefined,
    /** The request is a HEAD: its content-length is not of this response's body. */
    private readonly head: boolean,
    /** The attempt's timings, stamped as undici goes. */
    private readonly timings: TimingsRecorder | undefined,
  ) {}

  onConnect(abort: (reason?: Error) => void): void {
    this.#abort = abort;
    requestStarts(this.timings);
    // undici's HTTP/2 writer ends a GET's or HEAD's stream with its headers, then fails writing
    // the body: refused here, on the connection it would go on, before anything is sent
    if (this.bodyWith !== undefined && this.versionOf!() === '2.0') return abort(bodyRefused(this.bodyWith));
    const signal = this.signal;
    if (signal === undefined) return;
    if (signal.aborted) abort(signal.reason as Error);
    else signal.addEventListener('abort', this, { once: true });
  }

  /** The signal's listener (an object with handleEvent: no closure per request). */
  handleEvent(): void {
    this.#abort?.(this.signal!.reason as Error);
  }

  /** The request, body included, is written. */
  onRequestSent(): void {
    if (this.timings) this.timings.upload = performance.now();
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean {
    // 1xx heads (an unsolicited 100 Continue) come here too: skip them, the real one follows
    if (statusCode < 200) return true;
    if (this.timings) this.timings.response = performance.now();
    const version = this.versionOf?.() ?? '1.1';
    // over HTTP/2 undici turns node's header strings (a character per byte) into UTF-8 bytes:
    // read back as UTF-8 they are those strings, as HTTP/1.1 gives them (raw UTF-8 included)
    const encoding = version === '2.0' ? 'utf8' : 'latin1';
    const headers: Array<readonly [string, string]> = [];
    for (let i = 0; i < rawHeaders.length; i += 2) headers.push([rawHeaders[i].toString(encoding), valueOf(rawHeaders[i + 1], encoding)]);
    // a body given up over HTTP/2 cancels its stream, which costs the connection nothing: never
    // drained (a stalled one would hold the stream, and undici's slot for the request, for ever)
    const body = (this.#body = new UndiciBody(resume, this.#abort!, version === '2.0' ? undefined : lengthOf(headers)));
    if (version === '2.0' && !this.head && statusCode !== 204 && statusCode !== 304) this.#owed = lengthOf(headers);
    this.#settled = true;
    this.resolve({
      statusCode,
      message: statusText,
      headers,
      body,
      decoded: false,
      httpVersion: version,
      // bound, not arrows made per response: docs/performance.md, "Arrows made per request"
      discard: body.discard.bind(body),
      readAll: body.readAll.bind(body),
    });
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.#owed !== undefined) this.#owed -= chunk.length;
    return this.#body!.push(chunk);
  }

  onComplete(): void {
    this.#unlink();
    if (this.#owed !== undefined && this.#owed > 0) this.#body?.fail(shortOfLength(this.#owed));
    else this.#body?.end();
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
function valueOf(raw: Buffer, encoding: 'latin1' | 'utf8'): string {
  const value = raw.toString(encoding);
  const last = value.charCodeAt(value.length - 1);
  return last === 0x20 || last === 0x09 ? value.replace(/[ \t]+$/, '') : value;
}

function lengthOf(headers: ReadonlyArray<readonly [string, string]>): number | undefined {
  for (const [name, value] of headers) if (name.length === 14 && name.toLowerCase() === 'content-length') return Number(value);
  return undefined;
}
