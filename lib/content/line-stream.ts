import { ResponseTooLargeError } from '../core/errors.js';
import { ByteBuffer } from './byte-buffer.js';
// Splitting works on bytes, not text: `\n` and `\r` never occur inside a multi-byte UTF-8
// character, so a line's bytes are decoded whole (a character split across chunks included) and
// limits count bytes exactly, as the server sent them.

/**
 * The most a decoder holds of one line or event unless told otherwise (16 MiB): a server that
 * never ends one (no line end, no blank line) cannot fill the memory.
 */
export const MAX_ITEM_BYTES = 16 * 2 ** 20;

/** {@link MAX_ITEM_BYTES} for a message: `16 MiB (16777216 bytes)`. */
export const MAX_ITEM_TEXT = `${MAX_ITEM_BYTES / 2 ** 20} MiB (${MAX_ITEM_BYTES} bytes)`;

const LF = 0x0a;
const CR = 0x0d;
// slack over the limit while a line is still open: its `\r` (lines()) and a leading BOM
const SLACK = 4;

/**
 * Splits chunks into lines of bytes, keeping only the open line between chunks, copied into one
 * growable buffer (however small the chunks): never more than one line plus one chunk. Shared
 * with event-stream.ts.
 * With `cr`, a lone `\r` ends a line too and `\r\n` is one line end (event streams); without,
 * lines end at `\n` and one `\r` before it is dropped. A leading UTF-8 BOM is dropped.
 * @internal
 */
export class LineSplitter {
  private readonly open: ByteBuffer;
  private first = true;
  private skipLF = false;

  constructor(
    private readonly cr: boolean,
    private readonly max: number,
    private readonly tooLarge: () => Error,
  ) {
    this.open = new ByteBuffer(max + SLACK, tooLarge);
  }

  /**
   * The lines this chunk completes; views (of it or of the open line's buffer), to use before
   * asking for the next line. Lazily: a
   * line that is too large throws only once the lines before it were taken.
   */
  *push(chunk: Uint8Array): Generator<Uint8Array, void, undefined> {
    let start = 0;
    if (this.skipLF && chunk.length > 0) {
      // a `\r` ended the last chunk: its `\n` belongs to the same line end
      this.skipLF = false;
      if (chunk[0] === LF) start = 1;
    }
    // next positions of each byte, cached: indexOf beats a byte loop, and caching keeps it linear
    let lf = -1;
    let cr = this.cr ? -1 : chunk.length;
    while (start < chunk.length) {
      if (lf < start) lf = find(chunk, LF, start);
      if (cr < start) cr = find(chunk, CR, start);
      const end = Math.min(lf, cr);
      if (end === chunk.length) break;
      yield this.finish(chunk.subarray(start, end));
      start = end + 1;
      if (end === cr) {
        if (start === chunk.length) this.skipLF = true;
        else if (chunk[start] === LF) start++;
      }
    }
    // copied into the open line's buffer: a view would keep the whole chunk alive, the lines before this one included
    if (start < chunk.length) this.open.append(chunk.subarray(start));
  }

  /** The last line, when the body does not end with a line end. */
  end(): Uint8Array | undefined {
    if (this.open.length === 0) return undefined;
    const line = this.finish(new Uint8Array(0));
    return line.length > 0 ? line : undefined;
  }

  private finish(tail: Uint8Array): Uint8Array {
    let line = tail;
    if (this.open.length > 0) {
      this.open.append(tail);
      line = this.open.take();
    }
    if (this.first) {
      this.first = false;
      if (line[0] === 0xef && line[1] === 0xbb && line[2] === 0xbf) line = line.subarray(3);
    }
    if (!this.cr && line[line.length - 1] === CR) line = line.subarray(0, -1);
    if (line.length > this.max) throw this.tooLarge();
    return line;
  }
}

/** What a decoder throws when a line or an event is too large (a message naming the limit and the URL). */
export interface StreamLimit {
  readonly tooLarge?: () => Error;
}

function find(chunk: Uint8Array, byte: number, from: number): number {
  const at = chunk.indexOf(byte, from);
  return at === -1 ? chunk.length : at;
}

/**
 * The body's lines as UTF-8 text, without their line ends. A line ends at `\n`; one `\r` right
 * before it is dropped too (so `\r\n` works), but a lone `\r` is kept as text: unlike an event
 * stream, a line-delimited body (NDJSON, logs) does not end lines with it. The last line counts
 * even without a line end (and loses a trailing `\r` like the others); an empty piece after the
 * final line end is not a line, empty lines before it are. A leading UTF-8 BOM is dropped;
 * malformed UTF-8 becomes U+FFFD. A line longer than `maxLineBytes` bytes (without its line end;
 * default {@link MAX_ITEM_BYTES}, 16 MiB) throws {@link ResponseTooLargeError}, at the latest one
 * chunk after the limit: memory stays bounded by one line plus one chunk. Stopping early
 * (`break`) stops reading the body.
 *
 * @example
 * for await (const line of lines(response.body, { maxLineBytes: 1 << 20 })) {
 *   if (line !== '') console.log(JSON.parse(line));
 * }
 */
export async function* lines(body: AsyncIterable<Uint8Array>, options: StreamLimit & { maxLineBytes?: number } = {}): AsyncIterable<string> {
  const max = options.maxLineBytes ?? MAX_ITEM_BYTES;
  const tooLarge = options.tooLarge ?? (() => new ResponseTooLargeError(`a line of the response body is longer than maxLineBytes (${max} bytes)`));
  const splitter = new LineSplitter(false, max, tooLarge);
  // ignoreBOM: each line is decoded on its own, only the body's first BOM may go (done above)
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  // for await closes the body (return()) on break, on throw and on a limit error
  for await (const chunk of body) {
    for (const line of splitter.push(chunk)) yield decoder.decode(line);
  }
  const last = splitter.end();
  if (last !== undefined) yield decoder.decode(last);
}
