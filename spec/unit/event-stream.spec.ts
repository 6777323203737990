import { describe, expect, it } from '@jest/globals';
import { ResponseTooLargeError } from '../../lib/core/errors.js';
import { events, type ServerSentEvent } from '../../lib/content/event-stream.js';

import { chunks, collect, encode, splits } from '../support/chunk-sources.js';
import { bodyRetaining } from '../support/retained-bytes.js';

const ev = (data: string, more: Partial<ServerSentEvent> = {}): ServerSentEvent => ({ event: 'message', data, id: undefined, retry: undefined, ...more });

async function expectEventsEverywhere(text: string, expected: ServerSentEvent[], options?: { maxEventBytes?: number }): Promise<void> {
  const bytes = encode(text);
  for (const parts of splits(bytes)) {
    const got = await collect(events(chunks(...parts), options));
    if (JSON.stringify(got) !== JSON.stringify(expected))
      expect({ parts: parts.map((p) => [...p]), got }).toEqual({ parts: parts.map((p) => [...p]), got: expected });
  }
}

describe('events(): the WHATWG examples', () => {
  it('joins data lines with \\n', async () => {
    await expectEventsEverywhere('data: YHOO\ndata: +2\ndata: 10\n\n', [ev('YHOO\n+2\n10')]);
  });

  it('ignores comments, keeps the id in effect, dispatches nothing at the end mid-event', async () => {
    const text = ': test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event';
    await expectEventsEverywhere(text, [ev('first event', { id: '1' }), ev('second event', { id: '' })]);
  });

  it('`data` with no colon and `data:` are empty data; one space only is stripped', async () => {
    await expectEventsEverywhere('data\n\ndata\ndata\n\ndata:\n', [ev(''), ev('\n')]);
    await expectEventsEverywhere('data:test\n\ndata: test\n\ndata:  test\n\n', [ev('test'), ev('test'), ev(' test')]);
  });
});

describe('events(): parsing', () => {
  it('ends lines with CRLF, LF or CR, also split across chunks, and decodes split characters whole', async () => {
    await expectEventsEverywhere('data: a\r\n\r\ndata: é\rdata: €\r\rdata: 😀\n\n', [ev('a'), ev('é\n€'), ev('😀')]);
  });

  it('drops a leading BOM only', async () => {
    await expectEventsEverywhere('\uFEFFdata: a\n\n\uFEFFdata: b\n\n', [ev('a')]);
  });

  it('takes `event`, defaulting to message and reset after each event', async () => {
    await expectEventsEverywhere('event: add\ndata: 1\n\ndata: 2\n\nevent\ndata: 3\n\n', [ev('1', { event: 'add' }), ev('2'), ev('3')]);
  });

  it('keeps the last event ID across events, ignores one with NUL, and takes one from an event without data', async () => {
    await expectEventsEverywhere('id: 7\ndata: a\n\ndata: b\n\nid: x\0y\ndata: c\n\nid: 9\n\ndata: d\n\n', [
      ev('a', { id: '7' }),
      ev('b', { id: '7' }),
      ev('c', { id: '7' }),
      ev('d', { id: '9' }),
    ]);
  });

  it('takes `retry` when it is ASCII digits only, and keeps it', async () => {
    await expectEventsEverywhere('retry: 1500\n\ndata: a\n\nretry: 2x\ndata: b\n\nretry:  3\nretry: -4\nretry:\nretry: 5.0\ndata: c\n\nretry: 0\ndata: d\n\n', [
      ev('a', { retry: 1500 }),
      ev('b', { retry: 1500 }),
      ev('c', { retry: 1500 }),
      ev('d', { retry: 0 }),
    ]);
  });

  it('does not dispatch an event without data, and ignores unknown fields', async () => {
    await expectEventsEverywhere('event: x\n\n: only a comment\n\nfoo: bar\n\nfoo: bar\ndata: y\n\n\n\n', [ev('y')]);
  });

  it('discards an event the body ends in the middle of', async () => {
    await expectEventsEverywhere('data: a\n\ndata: b\n', [ev('a')]);
    await expectEventsEverywhere('data: a\n\ndata: b', [ev('a')]);
    await expectEventsEverywhere('', []);
  });
});

describe('events(): limits and early stop', () => {
  it('accepts an event of maxEventBytes bytes (its lines without line ends and comments), refuses one more', async () => {
    const text = 'data: ab\r\ndata: é\r\n\r\n:comment 16 byte\nid: 12\r\ndata: abc\r\n\n' + ':0123456789\n'.repeat(3) + 'data: abcdefghij\n\n';
    await expectEventsEverywhere(text, [ev('ab\né'), ev('abc', { id: '12' }), ev('abcdefghij', { id: '12' })], { maxEventBytes: 16 });
    for (const text of ['data: ab\ndata: éx\n\n', 'data: abcdefghijk\n\n', 'event: abcd\ndata: abc\n\n', 'x\n'.repeat(17), ':comment 17 bytes\n']) {
      for (const parts of splits(encode(text))) {
        const error = await collect(events(chunks(...parts), { maxEventBytes: 16 })).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(ResponseTooLargeError);
        expect((error as Error).message).toContain('maxEventBytes (16 bytes)');
      }
    }
  });

  it('stops reading the body on break, and on a limit error', async () => {
    const state = { read: 0, returned: false };
    const source = (chunk: Uint8Array): AsyncIterable<Uint8Array> => ({
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.resolve({ value: (state.read++, chunk), done: false as const }),
        return: () => {
          state.returned = true;
          return Promise.resolve({ value: undefined, done: true as const });
        },
      }),
    });
    for await (const e of events(source(encode('data: a\n\ndata: b\n\n')))) {
      if (e.data === 'b') break;
    }
    expect(state).toEqual({ read: 1, returned: true });
    Object.assign(state, { read: 0, returned: false });
    await expect(collect(events(source(encode('data: xxxxxxxx\n')), { maxEventBytes: 100 }))).rejects.toThrow(ResponseTooLargeError);
    expect(state).toEqual({ read: 8, returned: true }); // 8 lines of 14 bytes: 112 > 100
  });

  it('without maxEventBytes, refuses an event of more than 16 MiB that never ends', async () => {
    const line = encode(`data: ${'x'.repeat(65536 - 7)}\n`); // 64 KiB a line, 65,535 bytes counted
    let read = 0;
    async function* endless(): AsyncGenerator<Uint8Array> {
      for (;;) {
        await Promise.resolve(); // a real body awaits the network between chunks
        read++;
        yield line;
      }
    }
    const error = await collect(events(endless())).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect((error as Error).message).toBe('an event of the response body is larger than maxEventBytes (16777216 bytes)');
    expect(read).toBe(257); // 256 lines are 16 MiB less 256 bytes
  });

  it('streams 256 MiB of events in bounded memory', async () => {
    // 225-byte events cut into 64 KiB chunks that start anywhere in an event. Held whole they would
    // take 256 MiB or more; the bound leaves room for a young generation of up to 64 MiB (Node 22
    // and 24 size it by the heap), whose garbage RSS counts until it is collected
    const event = `id: 1\ndata: ${'x'.repeat(200)}\r\ndata: y\r\n\r\n`;
    const size = 65536;
    const chunks = 4096;
    const pattern = encode(event.repeat(Math.ceil(size / event.length) + 1));
    async function* body(): AsyncGenerator<Uint8Array> {
      for (let k = 0; k < chunks; k++) {
        await Promise.resolve();
        const at = (k * size) % event.length;
        yield pattern.slice(at, at + size);
      }
    }
    const before = process.memoryUsage().rss;
    let n = 0;
    for await (const e of events(body(), { maxEventBytes: 1024 })) {
      if (e.data.length !== 202) throw new Error(`bad event ${n}`);
      n++;
    }
    expect(n).toBe(Math.floor((size * chunks) / event.length));
    expect(process.memoryUsage().rss - before).toBeLessThan(96 * 1024 * 1024);
  });

  it('holds an event of many short data lines in about the size of its data (no string per line)', async () => {
    const line = encode('data:xy\n');
    const count = 2 ** 19; // 3.5 MiB counted (7 bytes a line), 1.5 MiB of data
    const { body, retained } = bodyRetaining(line, count, encode('\n')); // the event is open until the end
    const got = await collect(events(body, { maxEventBytes: 4 * 2 ** 20 }));
    expect(got.map((e) => e.data.length)).toEqual([3 * count - 1]);
    expect(retained()).toBeLessThan(12 * count); // 3 bytes a line held (2 MiB of buffer), a string per line was ~33 bytes
  });
});
