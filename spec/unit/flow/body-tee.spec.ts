import { describe, expect, it } from '@jest/globals';
import { teeBody } from '../../../lib/pipeline/body-tee.js';

async function* chunks(count: number, fail?: Error): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < count; i++) {
    await Promise.resolve(); // a chunk at a time, as a socket gives them
    yield new Uint8Array([i]);
  }
  if (fail) throw fail;
}

async function read(body: AsyncIterable<Uint8Array>): Promise<number[]> {
  const seen: number[] = [];
  for await (const chunk of body) seen.push(chunk[0]);
  return seen;
}

describe('teeBody (client.dedupe)', () => {
  it('every reader gets every chunk of one read, in order; done once all finished, whole', async () => {
    const done: boolean[] = [];
    const [a, b, c] = teeBody(chunks(5), 3, (whole) => done.push(whole));
    expect(await Promise.all([read(a.body), read(b.body), read(c.body)])).toEqual([
      [0, 1, 2, 3, 4],
      [0, 1, 2, 3, 4],
      [0, 1, 2, 3, 4],
    ]);
    expect(done).toEqual([true]);
  });

  it('a reader that gives up does not stop the others; done tells the body was not read whole when all gave up early', async () => {
    const done: boolean[] = [];
    const [a, b] = teeBody(chunks(5), 2, (whole) => done.push(whole));
    a.close();
    expect(await read(b.body)).toEqual([0, 1, 2, 3, 4]);
    expect(done).toEqual([true]);
    const [c, d] = teeBody(chunks(5), 2, (whole) => done.push(whole));
    for await (const chunk of c.body) if (chunk[0] === 1) break;
    d.close();
    expect(done).toEqual([true, false]);
  });

  it("the source's failure reaches every reader", async () => {
    const [a, b] = teeBody(chunks(2, new Error('reset')), 2, () => {});
    await expect(read(a.body)).rejects.toThrow('reset');
    await expect(read(b.body)).rejects.toThrow('reset');
  });

  it('keeps at most about 1 MiB ahead of the slowest reader: the fastest waits for it', async () => {
    let pulled = 0;
    async function* big(): AsyncGenerator<Uint8Array> {
      for (let i = 0; i < 100; i++) {
        await Promise.resolve();
        pulled++;
        yield new Uint8Array(64 * 1024);
      }
    }
    const [fast, slow] = teeBody(big(), 2, () => {});
    const slowReader = slow.body[Symbol.asyncIterator]();
    await slowReader.next(); // one chunk, then it dawdles
    const fastDone = (async () => {
      let count = 0;
      for await (const _ of fast.body) count++;
      return count;
    })();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pulled).toBeLessThanOrEqual(1 + 17 + 1); // 1 MiB is 16 chunks of 64 KiB, and one pulled past it
    let rest = 0;
    for (let next = await slowReader.next(); !next.done; next = await slowReader.next()) rest++;
    expect(rest).toBe(99);
    expect(await fastDone).toBe(100);
  });
});
