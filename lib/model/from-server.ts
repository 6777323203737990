import type { WireResponse } from './backend.js';
import { bodyStreams, type PipeWatch } from './body-stream.js';
import { asBuffer, concatBytes } from '../core/bytes.js';
import type { BodyBytes, BodyStream } from '../core/platform-types.js';
import { HttpBuilderError, NetworkError, ParseError, ResponseTooLargeError } from '../core/errors.js';
import { decodeText } from '../core/charset.js';
import { standardReason } from '../core/reason-phrase.js';
import { parseMediaType } from '../core/media-type.js';
import { contentCodings, decompress } from './decompress.js';
import { toTransportError } from './transport-error.js';
import { ResponseHeaders } from './response-headers.js';
import { parseSetCookie, type ResponseCookie } from './set-cookie.js';
import { prepended } from './prepended.js';
import { urlForMessage } from '../core/redact.js';
import { AttemptTimings, type Timings } from '../core/timings.js';
import type { RequestRecord } from './request-record.js';

const BODILESS_STATUS = new Set([204, 205, 304]);
/** More header lines than any real response needs: a flood is refused, not parsed. */
const MAX_HEADERS = 500;

/**
 * @internal What the reader of a detached body can do after it ends: send the call's request
 * again, as the call sent it (below the interceptors, whose changes `record` carries).
 */
export interface CallAgain {
  /** The exchange of `record` (the call's own, changed), with the call's settings: its result. */
  send(record: RequestRecord): Promise<unknown>;
  /** The caller's `execution.signal`: aborted, nothing more is sent. */
  readonly signal: AbortSignal | undefined;
  /** Aborted by close() of the client. */
  readonly closed: AbortSignal;
}

/**
 * The response as handlers and parsers see it. The body can be read once, as text, bytes or a
 * stream (text and bytes can be read again after either of them).
 *
 * @example
 * c.response.success(async (fromServer) => `${fromServer.statusCode} ${fromServer.headers.get('etag')}`);
 */
export class FromServer {
  /** Status code. */
  readonly statusCode: number;
  /** Reason phrase as sent by the server; over HTTP/2, which has none, the standard one for the status (`Not Found`). */
  readonly message: string;
  /** The HTTP version the response came in: `'1.1'`, or `'2.0'` when HTTP/2 was negotiated (`client.http2`). */
  readonly httpVersion: '1.1' | '2.0';
  /** Headers as received (`Content-Encoding: gzip` stays visible after decoding). */
  readonly headers: ResponseHeaders;
  /** Media type without parameters, lower case; `application/octet-stream` when absent. */
  readonly contentType: string;
  /** Charset from `Content-Type`, lower case; `utf-8` when absent. */
  readonly charset: string;
  /** The request URL. */
  readonly uri: string;
  /**
   * Where the response came from with `client.cache` on: `'hit'` (stored and fresh, no request
   * was sent), `'revalidated'` (stored, confirmed by a `304`), `'miss'` (from the server; always,
   * without a cache).
   */
  readonly cache: 'hit' | 'revalidated' | 'miss';
  /**
   * When each step of the attempt that got this response happened (got's shape): `end` and
   * `phases.download` once the body has been read to its end. See docs/observability.md.
   */
  readonly timings: Timings;
  readonly #timings: AttemptTimings;
  #hasBody: boolean;
  #body: AsyncIterable<Uint8Array>;
  /** the body decoded, before `maxResponseSize` counts it whole (a reader that outlives the call counts per item) */
  readonly #decoded: AsyncIterable<Uint8Array>;
  /** the body belongs to a reader that outlives the call ({@link detach}) */
  #detached = false;
  /** that reader stopped, and the connection was freed */
  #released = false;
  #onReleased: (() => void) | undefined;
  /** @internal What a failure while the reader reads is thrown as, when it is no transport error (the call's own reasons). */
  readerError: ((error: unknown) => unknown) | undefined;
  /** @internal Set by the call for that reader: its request sent again (a Stream that reconnects). */
  again: CallAgain | undefined;
  /** the wire body untouched (not decoded, not peeked): the transport may read it faster */
  #untouched: boolean;
  #bytes: Uint8Array | undefined;
  #taken = false;
  /** read to the end: nothing left to drain or close */
  #complete = false;
  readonly #wire: WireResponse;
  readonly #lengthKnown: boolean;
  /** `execution.maxResponseSize` */
  readonly #maxSize: number | undefined;
  #cookies: ResponseCookie[] | undefined;

  /** Made by the pipeline for each response; `maxSize` is `execution.maxResponseSize`. */
  constructor(wire: WireResponse, method: string, uri: string, maxSize?: number);
  /**
   * @internal `timings`: the attempt's (a response that came without one, from the cache, gets
   * its own). An overload of its own: AttemptTimings is the pipeline's, not in the declarations.
   */
  constructor(wire: WireResponse, method: string, uri: string, maxSize?: number, timings?: AttemptTimings);
  constructor(wire: WireResponse, method: string, uri: string, maxSize?: number, timings?: AttemptTimings) {
    // node's parser takes any three digits ('099'); RFC 9110 status codes are 100-599, and 6xx-9xx at most are extensions
    if (!(wire.statusCode >= 100 && wire.statusCode <= 999))
      throw new NetworkError(
        `the response of ${urlForMessage(uri)} has status ${wire.statusCode}, which is no HTTP status${wire.statusCode === undefined ? ' (a custom backend: WireResponse names it statusCode)' : ''}`,
        'other',
      );
    if (wire.headers.length > MAX_HEADERS)
      throw new ResponseTooLargeError(`the response of ${urlForMessage(uri)} has ${wire.headers.length} header lines; at most ${MAX_HEADERS} are accepted`);
    this.#wire = wire;
    this.#maxSize = maxSize;
    this.timings = this.#timings = (timings ?? new AttemptTimings()).responded();
    this.statusCode = wire.statusCode;
    this.httpVersion = wire.httpVersion ?? '1.1';
    // so that an HttpException over HTTP/2 still reads `Not Found`, as over HTTP/1.1
    this.message = this.httpVersion === '2.0' && wire.message === '' ? standardReason(wire.statusCode) : wire.message;
    this.headers = new ResponseHeaders(wire.headers);
    this.uri = uri;
    this.cache = wire.cache ?? 'miss';
    const mediaType = parseMediaType(this.headers.get('content-type') ?? '');
    this.contentType = mediaType.type === '' ? 'application/octet-stream' : mediaType.type;
    this.charset = mediaType.params.charset ?? 'utf-8';
    const length = this.headers.get('content-length');
    this.#hasBody = method !== 'HEAD' && !BODILESS_STATUS.has(wire.statusCode) && wire.statusCode >= 200 && length !== '0';
    if (!this.#hasBody) this.#timings.ended();
    const header = this.#hasBody ? this.headers.get('content-encoding') : null;
    const codings = header === null ? [] : contentCodings(header, wire.statusCode, wire.decoded === true);
    const encoded = codings.length > 0 && !wire.decoded;
    // a length with codings is the encoded one, whoever decodes: only reading tells if anything is left
    this.#lengthKnown = length !== null && codings.length === 0;
    const decoded = (this.#decoded = encoded ? decompress(wire.body, codings) : wire.body);
    if (maxSize === undefined || !this.#hasBody) {
      this.#untouched = !encoded;
      this.#body = decoded;
    } else {
      // in one piece only when the length is known to fit: else count as the (decoded) bytes come
      const fits = codings.length === 0 && length !== null && Number(length) <= maxSize;
      this.#untouched = fits;
      this.#body = fits ? decoded : limited(decoded, maxSize, uri, length === null || codings.length > 0 ? undefined : Number(length));
    }
  }

  /** `false` for HEAD, 204, 205, 304 and empty bodies. */
  get hasBody(): boolean {
    return this.#hasBody;
  }

  /** Parsed `Set-Cookie` headers. */
  get cookies(): readonly ResponseCookie[] {
    return (this.#cookies ??= this.headers.getAll('set-cookie').map(parseSetCookie));
  }

  // bytes() and text() chain with then() rather than being async: each async layer costs a
  // promise and a trip through the microtask queue on every request that reads a body

  /** The whole (decompressed) body as a Buffer (in the browser/Workers build, where there is no Buffer: a `Uint8Array`). */
  bytes(): Promise<BodyBytes> {
    return this.#read(FromServer.#asBytes, undefined);
  }

  /** The whole body as text, decoded with the response charset. */
  text(): Promise<string> {
    return this.#read(FromServer.#asText, undefined);
  }

  /**
   * @internal The body's text handed to `parse` in the same step (one promise for read, decode
   * and parse), with this response: a parser passes a function of its module, not a closure made per response.
   */
  parsedText<T>(parse: (text: string, fromServer: FromServer) => T): Promise<T> {
    return this.#read(FromServer.#asParsed<T>, parse);
  }

  static #asBytes(this: void, _fromServer: FromServer, bytes: Uint8Array): BodyBytes {
    return bytes as BodyBytes; // asBuffer made it a Buffer where the runtime has one
  }

  static #asText(this: void, fromServer: FromServer, bytes: Uint8Array): string {
    return fromServer.#decode(bytes);
  }

  static #asParsed<T>(this: void, fromServer: FromServer, bytes: Uint8Array, parse: (text: string, fromServer: FromServer) => T): T {
    return parse(fromServer.#decode(bytes), fromServer);
  }

  /**
   * The body read once (kept for later reads), then `finish(this, bytes, extra)`; what it throws
   * rejects as it is. `finish` is a static method and the steps after the read are methods
   * bound per call, not arrows made per call: docs/performance.md, "Arrows made per request".
   */
  #read<T, E>(finish: (fromServer: FromServer, bytes: Uint8Array, extra: E) => T, extra: E): Promise<T> {
    if (this.#bytes) return settled(finish, this, this.#bytes, extra);
    if (this.#taken) return Promise.reject(alreadyTaken());
    this.#taken = true;
    if (!this.#hasBody) return settled(finish, this, (this.#bytes = asBuffer(new Uint8Array(0))), extra);
    const read = this.#untouched && this.#wire.readAll ? this.#wire.readAll() : collect(this.#body);
    return read.then((this.#readWhole<T, E>).bind(this, finish, extra), this.#readFailed.bind(this));
  }

  #readWhole<T, E>(finish: (fromServer: FromServer, bytes: Uint8Array, extra: E) => T, extra: E, bytes: Uint8Array): T {
    this.#ended();
    return finish(this, (this.#bytes = asBuffer(bytes)), extra);
  }

  #readFailed(error: unknown): Promise<never> {
    return Promise.reject(this.#typed(error));
  }

  #decode(bytes: Uint8Array): string {
    try {
      return decodeText(bytes, this.charset);
    } catch (error) {
      throw new ParseError(
        `response charset '${this.charset}' is not supported`,
        { statusCode: this.statusCode, contentType: this.contentType, text: '' },
        { cause: error },
      );
    }
  }

  /**
   * The body as a stream, read once: a Node `Readable`; in the browser/Workers build (no
   * `node:stream` there), a web `ReadableStream<Uint8Array>` over the same bytes.
   */
  stream(): BodyStream {
    const streams = bodyStreams();
    if (this.#bytes) return streams.of([this.#bytes]) as BodyStream;
    this.#claim();
    const body = this.#body;
    const piped = this.#untouched && this.#hasBody ? streams.piped(body, this.#pipeWatch()) : undefined;
    return (piped ?? streams.of(this.#guarded())) as BodyStream;
  }

  /** What the piped fast path (a node wire body, nothing to decode) tells this response and asks of it. */
  #pipeWatch(): PipeWatch {
    return {
      ended: () => this.#ended(),
      complete: () => this.#complete,
      typed: (error) => this.#typed(error),
    };
  }

  /** @internal Whether only reading can tell if the body is empty (no length, or an encoded one). */
  mayBeEmpty(): boolean {
    return this.#hasBody && !this.#lengthKnown;
  }

  /** @internal Looks at the first chunk so an empty body counts as none (no parser runs on it). */
  async peekEmpty(): Promise<boolean> {
    const iterator = this.#body[Symbol.asyncIterator]();
    let first;
    try {
      do first = await iterator.next();
      while (!first.done && first.value.byteLength === 0);
    } catch (error) {
      throw this.#typed(error);
    }
    this.#untouched = false;
    if (first.done) {
      this.#hasBody = false;
      this.#ended();
      return true;
    }
    this.#body = prepended(first.value, iterator);
    return false;
  }

  /**
   * @internal Frees the connection unless the body was read to its end: drained when untouched,
   * closed when reading stopped part way (a decoding error, a parser that read only the start).
   * A `stream()` is read inside the handler or parser; once the exchange is over it is closed.
   */
  discard(): void {
    if (!this.#complete) this.#wire.discard();
    if (!this.#detached || this.#released) return;
    this.#released = true;
    this.#onReleased?.();
  }

  /**
   * @internal The body for a reader that outlives the call (`httpbuilder-ts/stream`): read as it
   * comes, never counted whole against `maxResponseSize` (the reader limits each line or event),
   * errors typed. When the reader stops (the end, an error, a `break`), the connection is freed;
   * until then the call leaves it alone ({@link detached}).
   */
  detach(): AsyncIterable<Uint8Array> {
    this.#claim();
    this.#detached = true;
    return this.#readByReader();
  }

  /** @internal `execution.maxResponseSize`, which a {@link detach}ed body's reader applies to each line or event. */
  get maxSize(): number | undefined {
    return this.#maxSize;
  }

  /** @internal Whether a reader that outlives the call owns the body (it frees the connection when it stops). */
  get detached(): boolean {
    return this.#detached;
  }

  /** @internal Runs `done` once the reader of a {@link detach}ed body stopped (at once when it has). */
  whenReleased(done: () => void): void {
    if (this.#released) return done();
    const before = this.#onReleased;
    this.#onReleased = before ? () => (before(), done()) : done;
  }

  async *#readByReader(): AsyncIterable<Uint8Array> {
    try {
      if (this.#hasBody) yield* this.#decoded;
      this.#ended();
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- the call's own reason, or the caller's own throw, as it was
      throw this.readerError?.(error) ?? this.#typed(error);
    } finally {
      this.discard();
    }
  }

  /** Read to the end: nothing left to drain, and the attempt's timings have their `end`. */
  #ended(): void {
    this.#complete = true;
    this.#timings.ended();
  }

  #claim(): void {
    if (this.#taken) throw alreadyTaken();
    this.#taken = true;
  }

  async *#guarded(): AsyncIterable<Uint8Array> {
    if (!this.#hasBody) return;
    try {
      yield* this.#body;
      this.#ended();
    } catch (error) {
      throw this.#typed(error);
    }
  }

  // errors while reading become typed: a reset mid-body is a NetworkError, bad gzip a ParseError
  #typed(error: unknown): HttpBuilderError {
    this.#timings.failed();
    return toTransportError(error, this.uri, { statusCode: this.statusCode, contentType: this.contentType });
  }
}

/** At most `max` bytes of `body`; beyond that (or a declared length beyond it) a ResponseTooLargeError, and reading stops. */
async function* limited(body: AsyncIterable<Uint8Array>, max: number, uri: string, declared: number | undefined): AsyncIterable<Uint8Array> {
  const tooLarge = () => new ResponseTooLargeError(`the response body of ${urlForMessage(uri)} is larger than execution.maxResponseSize (${max} bytes)`);
  if (declared !== undefined && declared > max) throw tooLarge();
  let total = 0;
  for await (const chunk of body) {
    total += chunk.byteLength;
    if (total > max) throw tooLarge();
    yield chunk;
  }
}

/** `finish(fromServer, bytes, extra)` as a promise, a throw as a rejection. */
function settled<T, E>(finish: (fromServer: FromServer, bytes: Uint8Array, extra: E) => T, fromServer: FromServer, bytes: Uint8Array, extra: E): Promise<T> {
  try {
    return Promise.resolve(finish(fromServer, bytes, extra));
  } catch (error) {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- pass on exactly what `finish` threw
    return Promise.reject(error);
  }
}

function alreadyTaken(): HttpBuilderError {
  return new HttpBuilderError('the response body was already read as a stream');
}

/** Every chunk of `body`, in one piece. */
async function collect(body: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return concatBytes(chunks);
}
