import { DRAIN_LIMIT } from '../model/backend.js';

/** Bytes buffered before undici is asked to pause (a reader that iterates keeps it below this). */
const HIGH_WATER = 64 * 1024;

/**
 * A response body fed by the undici backend's handler: read it by iterating (with
 * backpressure: undici pauses above {@link HIGH_WATER} buffered bytes) or whole with `readAll`
 * (one promise, no stream in between). Once given up, a small rest is drained so the
 * connection stays reusable; a large or unknown one closes it.
 */
export class UndiciBody implements AsyncIterable<Uint8Array> {
  #chunks: Buffer[] = [];
  #buffered = 0;
  #ended = false;
  #error: Error | undefined;
  #paused = false;
  #discarded = false;
  #wholeWanted = false;
  /** A reader waiting for the next chunk, the end or an error. */
  #wake: (() => void) | undefined;
  #settleAll: { resolve: (bytes: Uint8Array) => void; reject: (error: unknown) => void } | undefined;

  constructor(
    private readonly resume: () => void,
    private readonly abort: (reason?: Error) => void,
    /** `Content-Length`, when the response has one and may be drained (`undefined`: giving the body up aborts it). */
    private readonly length: number | undefined,
  ) {}

  /** A chunk from undici; `false` asks it to pause until a read makes room. */
  push(chunk: Buffer): boolean {
    if (this.#discarded) return true;
    this.#chunks.push(chunk);
    this.#buffered += chunk.length;
    this.#notify();
    if (this.#wholeWanted || this.#buffered < HIGH_WATER) return true;
    this.#paused = true;
    return false;
  }

  end(): void {
    this.#ended = true;
    this.#notify();
  }

  fail(error: Error): void {
    this.#error ??= error;
    this.#notify();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    let finished = false;
    try {
      for (;;) {
        const chunk = this.#chunks.shift();
        if (chunk !== undefined) {
          this.#buffered -= chunk.length;
          if (this.#paused && this.#buffered < HIGH_WATER) {
            this.#paused = false;
            this.resume();
          }
          yield chunk;
          continue;
        }
        if (this.#error) throw this.#error;
        if (this.#ended) {
          finished = true;
          return;
        }
        await new Promise<void>((resolve) => (this.#wake = resolve));
      }
    } finally {
      if (!finished) this.discard(); // a reader that stopped early gives the rest up
    }
  }

  /** The whole body in one piece. */
  readAll(): Promise<Uint8Array> {
    this.#wholeWanted = true;
    if (this.#paused) {
      this.#paused = false;
      this.resume();
    }
    return new Promise((resolve, reject) => {
      this.#settleAll = { resolve, reject };
      this.#notify();
    });
  }

  /** Gives the body up: drains a small rest (the connection stays reusable), otherwise closes the connection. */
  discard(): void {
    if (this.#ended || this.#error || this.#discarded) return;
    this.#discarded = true;
    this.#chunks = [];
    this.#buffered = 0;
    // a reader still waiting gets no truncated body: it fails
    this.#error = Object.assign(new Error('the response body was given up'), { code: 'UND_ERR_ABORTED' });
    this.#notify();
    if (this.length !== undefined && this.length <= DRAIN_LIMIT) {
      if (this.#paused) this.resume();
    } else this.abort(this.#error);
  }

  /** The chunks in one piece, let go of: the body is held once, not twice, for as long as its response lives. */
  #whole(): Buffer {
    const chunks = this.#chunks;
    this.#chunks = [];
    this.#buffered = 0;
    return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
  }

  #notify(): void {
    const wake = this.#wake;
    if (wake !== undefined) {
      this.#wake = undefined;
      wake();
    }
    const all = this.#settleAll;
    if (all === undefined) return;
    if (this.#error) all.reject(this.#error);
    else if (this.#ended) all.resolve(this.#whole());
    else return;
    this.#settleAll = undefined;
  }
}
