/**
 * The content decoders every runtime with the Compression Streams API has
 * (`DecompressionStream`): browsers, Workers, Deno, Bun and Node ≥ 18. Node's entry replaces
 * them with node:zlib's (backends/node-decoders.ts), which also undo `br` and, where the
 * runtime has it, `zstd`.
 * @internal
 */
import type { Decoder } from './decoder.js';
import { isZlibHeader } from './decoder.js';

/** The format names `DecompressionStream` takes (`brotli` only where the runtime has it). */
type Format = 'gzip' | 'deflate' | 'deflate-raw' | 'brotli';

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

/** A `DecompressionStream` as the Compression Streams standard has it (node's types name fewer formats). */
interface DecompressionStreamLike {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
}

/** The runtime's `DecompressionStream` class, where it has one (looked up once). */
const WebDecompressionStream = (globalThis as { DecompressionStream?: new (format: Format) => DecompressionStreamLike }).DecompressionStream;

/** Whether this runtime's `DecompressionStream` takes `format` (`brotli` is recent, and absent from Node 20). */
export function decompressionStreamTakes(format: Format): boolean {
  if (WebDecompressionStream === undefined) return false;
  try {
    new WebDecompressionStream(format);
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
  if (WebDecompressionStream === undefined) return [];
  const decoders: Array<[string, Decoder]> = [
    ['gzip', webGunzip],
    ['x-gzip', webGunzip],
    ['deflate', webInflate],
  ];
  if (decompressionStreamTakes('brotli')) decoders.push(['br', webUnbrotli]);
  return decoders;
}

/**
 * `body` through a `DecompressionStream`: chunks are written as the decoded ones are read (the
 * stream's backpressure paces the source), the end is flushed (so a truncated body is an error,
 * not a short result), and an error of the source or of the decoder surfaces through iterating.
 */
async function* throughStream(body: AsyncIterable<Uint8Array>, format: Format): AsyncGenerator<Uint8Array> {
  const stream = new WebDecompressionStream!(format);
  const reader = stream.readable.getReader();
  const pumping: Pumping = { sourceError: undefined };
  void pump(body[Symbol.asyncIterator](), stream.writable.getWriter(), pumping);
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
  } catch (error) {
    throw pumping.sourceError !== undefined && error === pumping.sourceError.error ? error : asDecoderError(error, format);
  } finally {
    // the reader stopped early or failed: stop the decoder, and with it the source (pump returns it)
    reader.cancel().catch(ignore);
  }
}

interface Pumping {
  /** what the source threw, boxed (a source may throw `undefined`) */
  sourceError: { error: unknown } | undefined;
}

/** Writes the source into the decoder, then closes it; a failing source aborts the decoder with its own error. */
async function pump(source: AsyncIterator<Uint8Array>, writer: WritableStreamDefaultWriter<Uint8Array>, pumping: Pumping): Promise<void> {
  try {
    for (;;) {
      let next: IteratorResult<Uint8Array>;
      try {
        next = await source.next();
      } catch (error) {
        pumping.sourceError = { error };
        await writer.abort(error);
        return;
      }
      if (next.done) break;
      await writer.write(next.value);
    }
    await writer.close();
  } catch {
    // the decoder failed or its reader stopped: the source is read no further
    await source.return?.()?.catch(ignore);
  }
}

function ignore(): void {
  // the failure surfaces through reading
}

/**
 * A decoder's own failure as the zlib error the pipeline maps to `ParseError`: Node's
 * `DecompressionStream` gives zlib's code already, a browser's a bare `TypeError`.
 */
function asDecoderError(error: unknown, format: Format): unknown {
  const { name, code, message } = (error ?? {}) as { name?: unknown; code?: unknown; message?: unknown };
  if (name !== 'TypeError' || typeof code === 'string') return error;
  return Object.assign(new Error(`the ${format} data is corrupt: ${String(message)}`, { cause: error }), { code: 'Z_DATA_ERROR' });
}
