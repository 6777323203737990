/**
 * Request compression (`c.request.compress`): the encoded body through gzip, deflate (the zlib
 * format, RFC 9110 §8.4.1.2) or br, with `Content-Encoding` to say so. The web default runs on
 * `CompressionStream`; node-platform.ts plugs in node:zlib's compressors (node-compression.ts),
 * which also make br. Loaded by nothing unless a request asks for compression.
 * @internal
 */
import { bufferedBody, inMemory, streamedBody } from '../model/backend.js';
import { concatBytes } from '../core/bytes.js';
import { isThenable, type MaybePromise } from '../core/maybe-promise.js';
import type { DecompressionStreamLike, Format } from '../model/decompression-stream.js';
import { streamTakes } from '../model/web-decoders.js';
import { loadOnce } from '../core/load-once.js';
import type { RequestRecord } from '../model/request-record.js';
import type { EncodedRequestBody } from './encoders.js';

/**
 * The codings `c.request.compress` names: `'deflate'` is the zlib format, as RFC 9110 means it.
 *
 * @example
 * const coding: RequestCoding = 'gzip';
 * c.request.compress = { encoding: coding, minSize: 0 };
 */
export type RequestCoding = 'gzip' | 'deflate' | 'br';

/** `c.request.compress` as checked: the coding, and the smallest body it applies to. */
export interface RequestCompression {
  readonly encoding: RequestCoding;
  /** Bytes; a body of known length below it goes as it is. */
  readonly minSize: number;
}

/** An encoded body with the coding it went through (`undefined`: as it was). */
export interface CompressedRequestBody extends EncodedRequestBody {
  readonly contentEncoding?: RequestCoding;
}

/** What compresses one coding on this runtime: a streamed body chunk by chunk, and one in memory in one piece. */
export interface Compressor {
  stream(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array>;
  bytes(source: Uint8Array): Promise<Uint8Array>;
}

/** The names `CompressionStream` takes for our codings ('deflate' is zlib-wrapped, as RFC 9110 means it; never 'deflate-raw'). */
const STREAM_FORMATS: Readonly<Record<RequestCoding, Format>> = { gzip: 'gzip', deflate: 'deflate', br: 'brotli' };

/** The runtime's `CompressionStream` class, where it has one (looked up when needed: on node, naming it loads the web streams). */
function webCompressionStream(): (new (format: Format) => DecompressionStreamLike) | undefined {
  return (globalThis as { CompressionStream?: new (format: Format) => DecompressionStreamLike }).CompressionStream;
}

// the pump is the one the decoders use: loaded with the first body compressed on the web
const streaming = loadOnce(() => import('../model/decompression-stream.js'));

/** @internal The `CompressionStream` compressor of `coding`. */
export function webCompressor(coding: RequestCoding): Compressor {
  const format = STREAM_FORMATS[coding];
  const stream = async function* (source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
    const { throughStream } = streaming.loaded ?? (await streaming());
    yield* throughStream(new (webCompressionStream()!)(format), source, format);
  };
  return { stream, bytes: (source) => collect(stream(bufferedBody(source))) };
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return concatBytes(chunks);
}

/**
 * @internal The compressors every runtime with `CompressionStream` has (browsers, Workers, Deno,
 * Bun, Node): gzip and deflate, which every one takes, and br where it takes 'brotli'.
 */
export function webCompressors(): Array<[RequestCoding, Compressor]> {
  const WebCompressionStream = webCompressionStream();
  if (WebCompressionStream === undefined) return [];
  const made: Array<[RequestCoding, Compressor]> = [
    ['gzip', webCompressor('gzip')],
    ['deflate', webCompressor('deflate')],
  ];
  if (streamTakes(WebCompressionStream, 'brotli')) made.push(['br', webCompressor('br')]);
  return made;
}

/** What node-platform.ts plugged in (node:zlib's): where it did, the web's are never looked at. */
const COMPRESSORS = new Map<RequestCoding, Compressor>();
let probed = false;

/**
 * This runtime's compressors: node:zlib's where node-platform.ts plugged them in (every coding
 * `CompressionStream` makes, br included), else the web's, found at first use rather than at
 * load (workerd refuses a stream made in global scope; on node, naming one loads the web streams).
 */
function compressors(): Map<RequestCoding, Compressor> {
  if (!probed) {
    probed = true;
    if (COMPRESSORS.size === 0) for (const [coding, compressor] of webCompressors()) COMPRESSORS.set(coding, compressor);
  }
  return COMPRESSORS;
}

/** @internal Plugs in a runtime's compressors (node:zlib's, from node-platform.ts), in place of the web ones. */
export function registerCompressors(given: Iterable<readonly [RequestCoding, Compressor]>): void {
  for (const [coding, compressor] of given) COMPRESSORS.set(coding, compressor);
}

/** @internal Whether this runtime can compress with `coding` (br: node:zlib, or a `CompressionStream` that takes 'brotli'). */
export function canCompress(coding: RequestCoding): boolean {
  return compressors().has(coding);
}

/**
 * `encoded` compressed as `options` says, once per call (retries, redirects and auth rounds
 * resend these bytes): a body in memory in one piece (its `Content-Length` the compressed one),
 * a stream as it is sent (chunked). Left as it is: a request whose own headers carry
 * `Content-Encoding` (the caller encoded it), an empty body, and one whose known length (a
 * body in memory, a Blob or file, a stream with the caller's `Content-Length`) is below `minSize`.
 */
export function compressEncoded(
  encoded: MaybePromise<EncodedRequestBody | undefined>,
  record: RequestRecord,
  options: RequestCompression,
): MaybePromise<CompressedRequestBody | undefined> {
  if (isThenable(encoded)) return Promise.resolve(encoded).then(compressed.bind(undefined, record, options));
  return compressed(record, options, encoded);
}

function compressed(
  record: RequestRecord,
  options: RequestCompression,
  encoded: EncodedRequestBody | undefined,
): MaybePromise<CompressedRequestBody | undefined> {
  if (encoded === undefined) return undefined;
  const { body } = encoded;
  let callerLength: number | undefined;
  for (const name in record.headers) {
    const lower = name.toLowerCase();
    if (lower === 'content-encoding') return encoded;
    if (lower === 'content-length' && /^\d{1,15}$/.test(record.headers[name])) callerLength = Number(record.headers[name]);
  }
  const length = body.length ?? callerLength;
  if (length === 0 || (length !== undefined && length < options.minSize)) return encoded;
  const compressor = compressors().get(options.encoding)!; // checked to be there when set (compress-options.ts)
  const contentEncoding = options.encoding;
  if (!inMemory(body)) return { contentType: encoded.contentType, contentEncoding, body: streamedBody(compressor.stream(body)) };
  return compressor.bytes(body.bytes!).then(inMemoryBody.bind(undefined, encoded.contentType, contentEncoding));
}

function inMemoryBody(contentType: string, contentEncoding: RequestCoding, bytes: Uint8Array): CompressedRequestBody {
  return { contentType, contentEncoding, body: bufferedBody(bytes) };
}
