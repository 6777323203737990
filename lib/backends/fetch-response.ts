import { ConfigError, HttpBuilderError, ParseError, RedirectError } from '../core/errors.js';
import type { WireResponse } from '../model/backend.js';
import { shortOfLength } from '../model/stream-end.js';
import { canDecode } from '../model/decompress.js';
import { hadRead, malformed } from './undici-errors.js';

// The fetch backend's response side: a fetch Response as the pipeline reads it, and fetch's
// failures as errors the pipeline maps. No `node:` import here, as in the rest of the backend.

/**
 * What the pipeline gets back: status, header pairs, and the body (as a stream, or read off it
 * in one piece). `httpVersion`: the version of the connection it came on, when known; `body`:
 * the response's body, or a stream over it (the global fetch's, with the read timeout kept).
 */
export function wireResponse(response: Response, httpVersion?: '1.1' | '2.0', body: ReadableStream<Uint8Array> | null = response.body): WireResponse {
  const headers = headerPairs(response.headers, httpVersion === '2.0');
  const stream = httpVersion === '2.0' ? lengthChecked(body, headers) : body;
  const reader = stream ? new BodyReader(stream) : undefined;
  // discard and readAll as own properties (a stage or a wrapping backend may copy the response with a spread)
  return {
    statusCode: response.status,
    message: response.statusText,
    headers,
    body: reader ?? EMPTY_BODY,
    decoded: decodedByFetch(headers),
    httpVersion,
    // cancelling the body aborts the fetch and closes its connection (no AbortController: one
    // per request costs undici's abort bookkeeping on every call, about 15% of its CPU here).
    // Bound methods, not arrows made per response: docs/performance.md, "Arrows made per request".
    discard: reader ? reader.cancel.bind(reader) : doNothing,
    readAll: reader ? reader.readAll.bind(reader) : readNothing,
  };
}

/**
 * Over HTTP/2, undici ends a body that RST_STREAM CANCEL or NO_ERROR cut as if whole: where the
 * server gave a content-length (of a body with no content-coding: fetch decodes), fewer bytes
 * fail the body as a reset HTTP/1.1 one does. (fetch gives a HEAD, 204 or 304 no body at all.)
 */
function lengthChecked(body: ReadableStream<Uint8Array> | null, headers: ReadonlyArray<readonly [string, string]>): ReadableStream<Uint8Array> | null {
  // (names in lower case, as fetch gives them; a coded body is measured before fetch decodes it)
  const length = headers.find(([name]) => name === 'content-length')?.[1];
  if (body === null || length === undefined || headers.some(([name]) => name === 'content-encoding')) return body;
  let owed = Number(length);
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        owed -= chunk.byteLength;
        controller.enqueue(chunk);
      },
      flush(controller) {
        if (owed > 0) controller.error(shortOfLength(owed));
      },
    }),
  );
}

function doNothing(): void {}

function readNothing(): Promise<Uint8Array> {
  return Promise.resolve(new Uint8Array(0));
}

/** The codings every fetch undoes (zstd: see {@link fetchInUse}). */
const FETCH_DECODES = new Set(['gzip', 'x-gzip', 'deflate', 'br']);
/** Whether the fetch in use undoes zstd too. */
let fetchDecodesZstd = false;
/** Whether the fetch in use undoes every coding it gets (a browser's or a Worker's: it offered only those). */
let fetchDecodesAll = false;

/**
 * Which fetch the backend runs on, for what it undoes: undici 7's undoes zstd wherever node's
 * zlib has zstd, which is where the pipeline has a zstd decoder too (model/decompress.ts); Node's
 * global fetch does from undici 7 on (Node 24), not Node 22's undici 6. A browser's or a Worker's
 * fetch chooses `Accept-Encoding` itself and undoes whatever it chose.
 */
export function fetchInUse(undiciPackage: boolean, decodesAll = false): void {
  const bundled = (globalThis as { process?: { versions?: { undici?: string } } }).process?.versions?.undici;
  fetchDecodesZstd = canDecode('zstd') && (undiciPackage || Number(bundled?.split('.')[0]) >= 7);
  fetchDecodesAll = decodesAll;
}

/**
 * Whether fetch decoded the body: it does only when it knows every coding listed. With an
 * `identity` or an empty entry among them (`gzip, identity`, `gzip,`) it hands the body over
 * as it came, and the pipeline must decode it, as for the other backends.
 */
function decodedByFetch(headers: ReadonlyArray<readonly [string, string]>): boolean {
  // fetch gives names in lower case, repeated ones joined
  for (const [name, value] of headers) {
    if (name === 'content-encoding') return value.split(',').every(undoneByFetch);
  }
  return true;
}

function undoneByFetch(listed: string): boolean {
  const coding = listed.trim().toLowerCase();
  return fetchDecodesAll || FETCH_DECODES.has(coding) || (coding === 'zstd' && fetchDecodesZstd);
}

/**
 * Header pairs (fetch gives them sorted, repeated ones joined; `Set-Cookie` stays apart). The
 * iterator's own fresh pairs, kept: `forEach` runs the same iterator underneath and then calls
 * back per header, about 0.8 µs more per response. Trailing spaces and tabs are not part of a
 * value (RFC 9110 §5.5): node's parser drops them, undici's keeps them, so they go here.
 */
function headerPairs(headers: Headers, http2: boolean): Array<readonly [string, string]> {
  const pairs = [...headers];
  for (const pair of pairs) {
    if (http2 && NOT_ASCII.test(pair[1])) pair[1] = fromH2(pair[1]);
    const last = pair[1].charCodeAt(pair[1].length - 1);
    if (last === 0x20 || last === 0x09) pair[1] = pair[1].replace(/[ \t]+$/, '');
  }
  return pairs;
}

const NOT_ASCII = /[\u0080-\u00ff]/;
const UTF8 = new TextDecoder();

/**
 * A header value that came over HTTP/2 as HTTP/1.1 gives it, a character per byte received.
 * undici makes node's value (a character per byte) into UTF-8 bytes and fetch reads those a
 * character per byte: decoding them as UTF-8 undoes that.
 */
function fromH2(value: string): string {
  return UTF8.decode(Uint8Array.from(value, (c) => c.charCodeAt(0)));
}

/**
 * The response body as the pipeline reads it. It keeps its reader so that giving up the body
 * cancels through it: once a reader holds the stream, `stream.cancel()` only rejects (locked),
 * and the connection would stay busy.
 */
class BodyReader implements AsyncIterable<Uint8Array> {
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;

  constructor(private readonly stream: ReadableStream<Uint8Array>) {}

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    const reader = (this.#reader = this.stream.getReader());
    try {
      for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
    } catch (error) {
      throw transportError(error);
    }
  }

  /**
   * Every chunk, in one piece. Read off the stream here rather than with `response.bytes()`:
   * undici's body mixin wraps the same reads in more promises and copies the result into a
   * fresh ArrayBuffer, about 7% of a small request's CPU (measured with interleaved profiles).
   */
  async readAll(): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    try {
      const reader = (this.#reader = this.stream.getReader());
      for (let next = await reader.read(); !next.done; next = await reader.read()) chunks.push(next.value);
    } catch (error) {
      throw transportError(error);
    }
    return chunks.length === 1 ? chunks[0] : concat(chunks);
  }

  cancel(): void {
    (this.#reader ?? this.stream).cancel().catch(() => {});
  }
}

/** The chunks in one array (no Buffer here: this backend imports no `node:` module). */
function concat(chunks: readonly Uint8Array[]): Uint8Array {
  let length = 0;
  for (const chunk of chunks) length += chunk.byteLength;
  const all = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return all;
}

const EMPTY_BODY: AsyncIterable<Uint8Array> = { [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: true, value: undefined }) }) };

/** A rejection with {@link transportError}: one function for every request, not a closure each. */
export function rejectTransportError(error: unknown): Promise<never> {
  return Promise.reject(transportError(error));
}

/**
 * fetch hides the real failure in `cause` (`TypeError: fetch failed`, cause ECONNREFUSED):
 * surface its code, and keep nothing of the request, so no header can leak through it.
 */
export function transportError(error: unknown): Error {
  if (error instanceof HttpBuilderError) return error;
  const outer = (error ?? {}) as { message?: unknown; name?: unknown; cause?: unknown };
  // the pipeline's own error from inside the upload stream (a length that does not hold, a
  // progress listener that threw), which fetch hands back as the cause of its TypeError
  if (outer.cause instanceof HttpBuilderError) return outer.cause;
  const inner = (outer.cause ?? outer) as { message?: unknown; code?: unknown; name?: unknown };
  const message = typeof inner.message === 'string' ? inner.message : 'fetch failed';
  // fetch refuses such a response before handing it back, so its status is not known
  if (/too many content-encodings/i.test(message)) return new ParseError(`Content-Encoding: ${message}`, { statusCode: 0, contentType: '', text: '' });
  if (message === 'unexpected redirect') {
    return new RedirectError(
      'the server redirected a streamed upload; the fetch backend cannot hand that 3xx over without holding the whole body (use another backend, or send the body as bytes)',
    );
  }
  if (message === 'bad port')
    return new ConfigError("the fetch backend cannot reach this port: fetch refuses the ports on its 'bad ports' list (use another port, or another backend)");
  const code = malformed(inner, message)
    ? 'UND_ERR_BAD_RESPONSE'
    : typeof inner.code === 'string'
      ? inner.code
      : outer.name === 'AbortError'
        ? 'ABORT_ERR'
        : 'UND_ERR_SOCKET';
  const plain = new Error(message === 'fetch failed' || message === 'terminated' ? `fetch failed: ${code}` : message);
  return Object.assign(plain, { code, name: outer.name === 'AbortError' ? 'AbortError' : 'Error' }, hadRead(inner) && { reusedConnection: true });
}
