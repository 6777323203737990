/**
 * The content decoders every runtime with the Compression Streams API has
 * (`DecompressionStream`): browsers, Workers, Deno, Bun and Node ≥ 18. Node's entry replaces
 * them with node:zlib's (backends/node-decoders.ts), which also undo `br` and, where the
 * runtime has it, `zstd`.
 * @internal
 */
import type { Decoder } from './decoder.js';
import { isZlibHeader } from './decoder.js';
import { loadOnce } from '../core/load-once.js';
import type { DecompressionStreamLike, Format } from './decompression-stream.js';

// the streaming itself loads with the first encoded response the transport did not decode
// (a browser's or a Worker's fetch decodes what it offered: a browser bundle never loads it)
const streaming = loadOnce(() => import('./decompression-stream.js'));

/** A gzip (or x-gzip) body. */
export function webGunzip(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  return throughStream(body, 'gzip');
}

/** A deflate body: zlib-wrapped as RFC 9110 says, or raw as some servers send it, told by the header bytes. */
export function webInflate(body: AsyncIterable<Uint8Array>, first: Uint8Array): AsyncIterable<Uint8Array> {
  return throughStream(body, isZlibHeader(first) ? 'deflate' : 'deflate-raw');
}

/** A br body, where `DecompressionStream` takes `'brotli'`. */
export function webUnbrotli(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  return throughStream(body, 'brotli');
}

/** The runtime's `DecompressionStream` class, where it has one (looked up when needed: on node, naming it loads the web streams). */
function webDecompressionStream(): (new (format: Format) => DecompressionStreamLike) | undefined {
  return (globalThis as { DecompressionStream?: new (format: Format) => DecompressionStreamLike }).DecompressionStream;
}

/** Whether this runtime's `DecompressionStream` takes `format` (`brotli` is recent, and absent from Node 20). */
export function decompressionStreamTakes(format: Format): boolean {
  return streamTakes(webDecompressionStream(), format);
}

/** Whether `Stream`, a `DecompressionStream` or `CompressionStream` class (`undefined` where the runtime has none), takes `format`: one is made to see. */
export function streamTakes(Stream: (new (format: Format) => unknown) | undefined, format: Format): boolean {
  if (Stream === undefined) return false;
  try {
    new Stream(format);
    return true;
  } catch {
    return false;
  }
}

/**
 * The web decoders this runtime has, coding → decoder, in `Accept-Encoding` order: none
 * without `DecompressionStream`, `br` only where it takes `'brotli'`.
 */
export function webDecoders(): Array<[string, Decoder]> {
  // gzip and deflate are in every DecompressionStream; not made here to check: workerd refuses
  // one made in global scope (module load), so brotli, probed below, is not offered there
  if (webDecompressionStream() === undefined) return [];
  const decoders: Array<[string, Decoder]> = [
    ['gzip', webGunzip],
    ['x-gzip', webGunzip],
    ['deflate', webInflate],
  ];
  if (decompressionStreamTakes('brotli')) decoders.push(['br', webUnbrotli]);
  return decoders;
}

/** `body` through a `DecompressionStream` of `format` (decompression-stream.ts). */
async function* throughStream(body: AsyncIterable<Uint8Array>, format: Format): AsyncGenerator<Uint8Array> {
  yield* (streaming.loaded ?? (await streaming())).throughStream(new (webDecompressionStream()!)(format), body, format);
}
