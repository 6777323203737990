/**
 * Reading a body through a `DecompressionStream` (web-decoders.ts loads it with the first encoded
 * body the transport did not decode).
 * @internal
 */

/** The format names `DecompressionStream` takes (`brotli` only where the runtime has it). */
export type Format = 'gzip' | 'deflate' | 'deflate-raw' | 'brotli';

/** A `DecompressionStream` as the Compression Streams standard has it (node's types name fewer formats). */
export interface DecompressionStreamLike {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
}

/**
 * `body` through `stream`, a `DecompressionStream` of `format`: chunks are written as the decoded ones are read (the
 * stream's backpressure paces the source), the end is flushed (so a truncated body is an error,
 * not a short result), and an error of the source or of the decoder surfaces through iterating.
 */
export async function* throughStream(stream: DecompressionStreamLike, body: AsyncIterable<Uint8Array>, format: Format): AsyncGenerator<Uint8Array> {
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
