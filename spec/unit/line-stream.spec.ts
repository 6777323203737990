import { describe, expect, it } from '@jest/globals';
import { ResponseTooLargeError } from '../../lib/core/errors.js';
import { lines, MAX_ITEM_BYTES } from '../../lib/content/line-stream.js';

import { chunks, collect, encode, splits } from '../support/chunk-sources.js';
import { bodyRetaining } from '../support/retained-bytes.js';

async function expectLinesEverywhere(text: string | Uint8Array, expected: string[], options?: { maxLineBytes?: number }): Promise<void> {
  const bytes = typeof text === 'string' ? encode(text) : text;
  for (const parts of splits(bytes)) {
    const got = await collect(lines(chunks(...parts), options));
    if (JSON.stringify(got) !== JSON.stringify(expected))
      expect({ parts: parts.map((p) => [...p]), got }).toEqual({ parts: parts.map((p) => [...p]), got: expected });
  }
}

/** A source that counts what was read and records whether return() was called. */
function counted(chunk: Uint8Array, times: number) {
  const state = { read: 0, returned: false };
  const source: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: () => ({
      next: () => Promise.resolve(state.read < times ? (state.read++, { value: chunk, done: false as const }) : { value: undefined, done: true as const }),
      return: () => {
        state.returned = true;
        return Promise.resolve({ value: undefined, done: true as const });
      },
    }),
  };
  return { source, state };
}

describe('lines()', () => {
  it('splits on LF and CRLF, at every chunk boundary, including between \\r and \\n', async () => {
    await expectLinesEverywhere('a\nbc\r\nd', ['a', 'bc', 'd']);
    await expectLinesEverywhere('one\r\ntwo\r\n', ['one', 'two']);
  });

  it('keeps empty lines; an empty piece after the final newline is not a line', async () => {
    await expectLinesEverywhere('\n\na\n\n', ['', '', 'a', '']);
    await expectLinesEverywhere('\r\n', ['']);
    await expectLinesEverywhere('', []);
    await expectLinesEverywhere('a\n', ['a']);
  });

  it('keeps a lone \\r as text and strips only one \\r before \\n (and at the end)', async () => {
    await expectLinesEverywhere('a\rb\nc\r\r\nd\r', ['a\rb', 'c\r', 'd']);
  });

  it('decodes characters split across chunks whole', async () => {
    await expectLinesEverywhere('é€\n😀x\r\n€', ['é€', '😀x', '€']);
  });

  it('drops a leading BOM, even split, but not one later in the body', async () => {
    await expectLinesEverywhere('\uFEFFa\n\uFEFFb', ['a', '\uFEFFb']);
    await expectLinesEverywhere('\uFEFF', []);
    await expectLinesEverywhere('\uFEFF\n', ['']);
  });

  it('turns malformed UTF-8 into U+FFFD', async () => {
    await expectLinesEverywhere(Uint8Array.of(0x61, 0xe2, 0x82, 0x0a, 0xff), ['a\uFFFD', '\uFFFD']);
  });

  it('accepts a line of maxLineBytes bytes (without its line end), refuses one byte more', async () => {
    await expectLinesEverywhere('abcd\r\né€\n😀', ['abcd', 'é€', '😀'], { maxLineBytes: 5 });
    for (const text of ['abcdef\n', 'ok\nabcdef', 'é€x\n', '\uFEFFabcdef\r\n']) {
      for (const parts of splits(encode(text))) {
        const error = await collect(lines(chunks(...parts), { maxLineBytes: 5 })).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ResponseTooLargeError);
        expect((error as Error).message).toContain('maxLineBytes (5 bytes)');
      }
    }
  });

  it('refuses an endless line early, reading little of the body, and closes the body', async () => {
    const { source, state } = counted(new Uint8Array(1024).fill(0x78), 1_000_000);
    await expect(collect(lines(source, { maxLineBytes: 10_000 }))).rejects.toThrow(ResponseTooLargeError);
    expect(state.read).toBeLessThanOrEqual(11);
    expect(state.returned).toBe(true);
  });

  it('without maxLineBytes, takes a line of 16 MiB and refuses a longer one (MAX_ITEM_BYTES)', async () => {
    expect(MAX_ITEM_BYTES).toBe(16 * 2 ** 20);
    const block = new Uint8Array(65536).fill(0x78);
    const whole = counted(block, 256); // exactly 16 MiB, the body's last line
    expect((await collect(lines(whole.source))).map((line) => line.length)).toEqual([MAX_ITEM_BYTES]);
    const endless = counted(block, 1_000_000);
    const error = await collect(lines(endless.source)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toBe('a line of the response body is longer than maxLineBytes (16777216 bytes)');
    expect(endless.state).toEqual({ read: 257, returned: true });
  });

  it('stops reading the body on break', async () => {
    const { source, state } = counted(encode('a\nb\nc\n'), 1000);
    const got: string[] = [];
    for await (const line of lines(source)) {
      got.push(line);
      if (got.length === 4) break;
    }
    expect(got).toEqual(['a', 'b', 'c', 'a']);
    expect(state.read).toBe(2);
    expect(state.returned).toBe(true);
  });

  it('streams 256 MiB of short lines in bounded memory', async () => {
    // 125-byte lines cut into 64 KiB chunks that start anywhere in a line. Held whole they would take
    // 256 MiB or more; the bound leaves room for a young generation of up to 64 MiB (Node 22 and 24
    // size it by the heap), whose garbage RSS counts until it is collected
    const width = 125;
    const pattern = encode(`${'x'.repeat(width - 1)}\n`.repeat(Math.ceil(65536 / width) + 1));
    const size = 65536;
    const count = 4096;
    async function* body(): AsyncGenerator<Uint8Array> {
      for (let k = 0; k < count; k++) {
        await Promise.resolve();
        const at = (k * size) % width;
        yield pattern.slice(at, at + size);
      }
    }
    const before = process.memoryUsage().rss;
    let n = 0;
    let bytes = 0;
    for await (const line of lines(body(), { maxLineBytes: width })) {
      n++;
      bytes += line.length + 1;
    }
    const growth = process.memoryUsage().rss - before;
    expect(n).toBe(Math.ceil((size * count) / width));
    expect(bytes).toBe(size * count + 1); // the last line has no line end
    expect(growth).toBeLessThan(96 * 1024 * 1024);
  });

  it('holds an open line sent one byte per chunk in about its own size (no object per chunk)', async () => {
    const size = 2 ** 20;
    const { body, retained } = bodyRetaining(encode('x'), size, encode('\n')); // the line is open until the end
    const got = await collect(lines(body));
    expect(got.map((line) => line.length)).toEqual([size]);
    expect(retained()).toBeLessThan(4 * size); // an object per chunk is ~100 bytes per byte
  });
});
