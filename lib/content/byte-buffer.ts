/** The size of each block an item is copied into. */
const BLOCK_BYTES = 64 * 1024;

/**
 * The bytes of one item being assembled (a line, an event's data), copied into fixed blocks of
 * 64 KiB: a line sent one byte per chunk costs its bytes, not an object per piece, and a line
 * that grows never holds a doubled copy of itself — an item refused at `cap` cost about `cap`.
 * An append beyond `cap` throws `tooLarge()` before anything is copied.
 * @internal
 */
export class ByteBuffer {
  /** Full blocks, in order. */
  private full: Uint8Array[] = [];
  /** The block being filled (kept for the next item while the item fits in one). */
  private block = new Uint8Array(0);
  /** Bytes used in `block`. */
  private used = 0;
  /** How many bytes are in. */
  length = 0;

  constructor(
    private readonly cap: number,
    private readonly tooLarge: () => Error,
  ) {}

  /** Appends `piece` (copied). */
  append(piece: Uint8Array): void {
    const needed = this.length + piece.length;
    if (needed > this.cap) throw this.tooLarge();
    for (let offset = 0; offset < piece.length;) {
      if (this.used === this.block.length) this.nextBlock();
      const count = Math.min(piece.length - offset, this.block.length - this.used);
      this.block.set(piece.subarray(offset, offset + count), this.used);
      this.used += count;
      offset += count;
    }
    this.length = needed;
  }

  /** Appends one byte. */
  appendByte(byte: number): void {
    this.append(ONE.fill(byte));
  }

  /** The bytes in, as a view valid until the next append, and empties the buffer. */
  take(): Uint8Array {
    let taken: Uint8Array;
    if (this.full.length === 0) {
      taken = this.block.subarray(0, this.used);
    } else {
      // a long item: joined once, when it is complete
      taken = new Uint8Array(this.length);
      let offset = 0;
      for (const block of this.full) {
        taken.set(block, offset);
        offset += block.length;
      }
      taken.set(this.block.subarray(0, this.used), offset);
      this.full = [];
      this.block = new Uint8Array(0);
    }
    this.used = 0;
    this.length = 0;
    return taken;
  }

  private nextBlock(): void {
    if (this.used > 0) this.full.push(this.block);
    this.block = new Uint8Array(BLOCK_BYTES);
    this.used = 0;
  }
}

const ONE = new Uint8Array(1);
