/**
 * Follows the frames of a zstd body (RFC 8878 §3.1) as its chunks pass, header by header, to
 * tell whether it ends where a frame ends: Node 22's zstd decoder ends a truncated body without
 * an error, a short result where gzip's is an error. Reads only frame and block headers, and
 * skips what they say is content.
 * @internal
 */
export class ZstdFrames {
  #phase: number = Phase.Magic;
  /** bytes of the header being read, and how many it has */
  readonly #header = new Uint8Array(4);
  #have = 0;
  /** content to pass over before the next header */
  #skip = 0;
  /** whether the current frame ends with a 4-byte checksum */
  #checksum = false;

  /** Takes the next chunk of the body; throws a zlib-like `Z_DATA_ERROR` at what is no zstd. */
  feed(chunk: Uint8Array): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.#skip > 0) {
        const passed = Math.min(this.#skip, chunk.length - at);
        this.#skip -= passed;
        at += passed;
        continue;
      }
      this.#header[this.#have++] = chunk[at++];
      if (this.#have === HEADER_LENGTH[this.#phase]) {
        this.#have = 0;
        this.#read();
      }
    }
  }

  /** Whether what was fed ends where a frame (or a skippable frame) ends. */
  get complete(): boolean {
    return this.#phase === Phase.Magic && this.#have === 0 && this.#skip === 0;
  }

  #read(): void {
    const h = this.#header;
    switch (this.#phase) {
      case Phase.Magic: {
        const magic = (h[0] | (h[1] << 8) | (h[2] << 16) | (h[3] << 24)) >>> 0;
        if (magic === ZSTD_MAGIC) this.#phase = Phase.FrameHeader;
        else if ((magic & 0xfffffff0) >>> 0 === SKIPPABLE_MAGIC) this.#phase = Phase.SkippableSize;
        else throw corrupt('no zstd frame starts here');
        return;
      }
      case Phase.SkippableSize:
        this.#skip = (h[0] | (h[1] << 8) | (h[2] << 16) | (h[3] << 24)) >>> 0;
        this.#phase = Phase.Magic;
        return;
      case Phase.FrameHeader: {
        const descriptor = h[0];
        if (descriptor & 0x08) throw corrupt('a reserved bit of the frame header is set');
        const singleSegment = (descriptor >> 5) & 1;
        this.#checksum = ((descriptor >> 2) & 1) === 1;
        // window descriptor, dictionary id, frame content size
        this.#skip = (singleSegment ? 0 : 1) + DICT_ID_BYTES[descriptor & 3] + (descriptor >> 6 === 0 ? singleSegment : CONTENT_SIZE_BYTES[descriptor >> 6]);
        this.#phase = Phase.Block;
        return;
      }
      default: {
        const header = h[0] | (h[1] << 8) | (h[2] << 16);
        const type = (header >> 1) & 3;
        if (type === 3) throw corrupt('a block of the reserved type');
        this.#skip = type === 1 ? 1 : header >>> 3; // an RLE block is one byte repeated
        if (header & 1) {
          // the last block: the checksum, then the next frame, if any
          if (this.#checksum) this.#skip += 4;
          this.#phase = Phase.Magic;
        }
      }
    }
  }
}

/** What the next header is (plain numbers: no enum in this codebase) */
const Phase = { Magic: 0, SkippableSize: 1, FrameHeader: 2, Block: 3 } as const;

const HEADER_LENGTH = [4, 4, 1, 3];
const ZSTD_MAGIC = 0xfd2fb528;
const SKIPPABLE_MAGIC = 0x184d2a50;
const DICT_ID_BYTES = [0, 1, 2, 4];
const CONTENT_SIZE_BYTES = [0, 2, 4, 8];

function corrupt(what: string): Error {
  return Object.assign(new Error(`the zstd data is corrupt: ${what}`), { code: 'Z_DATA_ERROR' });
}
