// Bodies for the decoders of response streams (lines, events): text as chunks cut every which way.

export const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The parts as a response body would yield them, a tick apart. */
export async function* chunks(...parts: Uint8Array[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) {
    await Promise.resolve(); // a real body awaits the network between chunks
    yield part;
  }
}

/** Everything `source` yields, in order. */
export async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of source) out.push(item);
  return out;
}

/** What `source` yields until it fails, and what it failed with (`undefined` when it ended). */
export async function untilFailure<T>(source: AsyncIterable<T>): Promise<{ seen: T[]; error: unknown }> {
  const seen: T[] = [];
  try {
    for await (const item of source) seen.push(item);
  } catch (error) {
    return { seen, error };
  }
  return { seen, error: undefined };
}

/** Every way to cut `bytes` in two and in three pieces, and byte by byte. */
export function* splits(bytes: Uint8Array): Generator<Uint8Array[]> {
  const n = bytes.length;
  yield [bytes];
  yield Array.from(bytes, (b) => Uint8Array.of(b));
  for (let i = 0; i <= n; i++) {
    for (let j = i; j <= n; j++) yield [bytes.subarray(0, i), bytes.subarray(i, j), bytes.subarray(j)];
  }
}
