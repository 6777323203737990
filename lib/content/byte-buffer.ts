/** Below this capacity a buffer is kept for the next item; a larger one (a rare long line) is let go. */
const KEEP_BYTES = 64 * 1024;

/**
 * The bytes of one item being assembled (a line, an event's data) in one growable array: each
 * piece appended is copied in, so a line sent one byte per chunk costs its bytes, not an object
 * per piece. The capacity doubles as needed and never exceeds `cap`: an append beyond it throws
 * `tooLarge()` before anything grows.
 * @internal
 */
export class ByteBuffer {
  private bytes = new Uint8Array(0);
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
    if (needed > this.bytes.length) {
      const grown = new Uint8Array(Math.min(this.cap, Math.max(needed, 2 * this.bytes.length, 256)));
      grown.set(this.bytes.subarray(0, this.length));
      this.bytes = grown;
    }
    this.bytes.set(piece, this.length);
    this.length = needed;
  }

  /** Appends one byte. */
  appendByte(byte: number): void {
    this.append(ONE.fill(byte));
  }

  /**
   * The bytes in, as a view valid until the next append, and empties the buffer (a large array
   * is dropped rather than kept for the next item).
   */
  take(): Uint8Array {
    const taken = this.bytes.subarray(0, this.length);
    this.length = 0;
    if (this.bytes.length > KEEP_BYTES) this.bytes = new Uint8Array(0);
    return taken;
  }
}

const ONE = new Uint8Array(1);
