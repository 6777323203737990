/**
 * The bytes every transfer moves: a 64 KiB block repeated, so the server generates any size
 * without holding it, and a client can check a downloaded file cheaply (its size and a few
 * blocks) without keeping a copy. Shared by the benchmark server, its clients and
 * `spec/memory`.
 *
 * @module
 */
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Writable } from 'node:stream';

/** One period of the pattern: byte `i` is `(i * 31 + 7) & 0xff`. */
export const PATTERN: Buffer = Buffer.from(Uint8Array.from({ length: 64 * 1024 }, (_, i) => (i * 31 + 7) & 0xff));

/** The pattern's bytes from `offset` (any offset; it repeats every {@link PATTERN} length). */
function expected(offset: number, length: number): Buffer {
  const out = Buffer.allocUnsafe(length);
  for (let done = 0; done < length;) {
    const at = (offset + done) % PATTERN.length;
    done += PATTERN.copy(out, done, at, Math.min(PATTERN.length, at + length - done));
  }
  return out;
}

/** Writes `size` pattern bytes to `out` block by block, minding backpressure, then ends it; stops early if `out` is destroyed. */
export function writePattern(out: Writable, size: number): Promise<void> {
  return writeRepeated(out, PATTERN, size);
}

/** Writes `size` bytes of `block` repeated (the last one cut short) as {@link writePattern} does. */
export async function writeRepeated(out: Writable, block: Buffer, size: number): Promise<void> {
  for (let left = size; left > 0 && !out.destroyed;) {
    const length = Math.min(left, block.length);
    left -= length;
    if (!out.write(length === block.length ? block : block.subarray(0, length))) await drainedOrClosed(out);
  }
  if (!out.destroyed) out.end();
}

/** Resolves on `drain` or `close`, whichever comes first, and leaves no listener behind. */
export function drainedOrClosed(out: Pick<Writable, 'on' | 'off'>): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}

/**
 * Creates (or truncates) `path` with `size` pattern bytes. With `sync`, waits until the bytes
 * are on disk too: the kernel writing a fresh large file back would otherwise slow down (and
 * bill system time to) whatever transfer happens to run next.
 */
export async function writePatternFile(path: string, size: number, { sync = false } = {}): Promise<void> {
  const out = createWriteStream(path);
  const done = once(out, 'finish');
  await writePattern(out, size);
  await done;
  if (!sync) return;
  const file = await open(path, 'r');
  await file.sync().finally(() => file.close());
}

/**
 * Checks that `path` holds exactly `size` pattern bytes, looking at its first, middle and last
 * block (a short, long, shifted or foreign body fails). Returns what is wrong, or `undefined`.
 */
export async function checkPatternFile(path: string, size: number): Promise<string | undefined> {
  const file = await open(path, 'r');
  try {
    const actual = (await file.stat()).size;
    if (actual !== size) return `${path} has ${actual} bytes, expected ${size}`;
    for (const offset of new Set([0, Math.floor(size / 2), Math.max(0, size - PATTERN.length)])) {
      const length = Math.min(PATTERN.length, size - offset);
      const { buffer } = await file.read(Buffer.alloc(length), 0, length, offset);
      if (!buffer.equals(expected(offset, length))) return `${path}: the bytes at offset ${offset} are not the ones sent`;
    }
    return undefined;
  } finally {
    await file.close();
  }
}
