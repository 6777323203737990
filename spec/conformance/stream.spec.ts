import { expect, it } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { ConfigError, HttpException, ParseError, ResponseTooLargeError, ResultTypeError } from '../../lib/index.js';
import { drainedOrClosed } from '../../bench/pattern.js';
import { Stream } from '../../lib/stream.js';
import { untilFailure } from '../support/chunk-sources.js';
import { conformance } from './kit.js';
import { expectNoLeak } from './no-leak.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Sends the head at once (node holds an HTTP/1.1 head back until the first write otherwise). */
function head(res: ServerResponse, headers: Record<string, string>): void {
  res.writeHead(200, headers);
  res.flushHeaders();
}

/** Whether the client is still there: `false` once the response closed (a reset over HTTP/2 too). */
function listening(res: ServerResponse): () => boolean {
  let closed = false;
  res.once('close', () => (closed = true));
  return () => !closed;
}

/** A response that writes `line(i)` every 10 ms, up to 500 lines, for as long as the client listens. */
function endless(contentType: string, line: (i: number) => string) {
  return async (_req: unknown, res: ServerResponse) => {
    head(res, { 'Content-Type': contentType });
    const open = listening(res);
    for (let i = 0; open() && i < 500; i++) {
      res.write(`${line(i)}\n`);
      await pause(10);
    }
    res.end();
  };
}

/**
 * A response that writes `piece` again and again, minding backpressure, for as long as the
 * client listens (at most 64 MiB, then it ends): a line or an event that never ends.
 */
function unending(contentType: string, start: string, piece: string) {
  return async (_req: unknown, res: ServerResponse) => {
    head(res, { 'Content-Type': contentType });
    const open = listening(res);
    const chunk = Buffer.from(piece);
    res.write(start);
    for (let sent = 0; open() && sent < 64 * 2 ** 20; sent += chunk.length) {
      if (!res.write(chunk)) await drainedOrClosed(res);
    }
    res.end();
  };
}

/** Every item of `items`, in order. */
async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const seen: T[] = [];
  for await (const item of items) seen.push(item);
  return seen;
}

/** A class each NDJSON value is converted to. */
class Change {
  id = 0;
  op = '';
  get label(): string {
    return `${this.op}#${this.id}`;
  }
}

/** A Standard Schema accepting `{ n: number }` and doubling `n`. */
const Doubled = {
  '~standard': {
    version: 1,
    vendor: 'spec',
    validate: (value: unknown) =>
      typeof (value as { n?: unknown }).n === 'number' ? { value: { n: (value as { n: number }).n * 2 } } : { issues: [{ message: 'n must be a number' }] },
  },
} as const;

conformance('Stream (httpbuilder-ts/stream)', (kit) => {
  it('the call resolves once the head is in, before any body byte; lines then come as the server writes them', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    kit.server.expect({
      method: 'GET',
      path: '/log',
      respond: async (_req, res) => {
        head(res, { 'Content-Type': 'text/plain' });
        await gate;
        // a BOM, CRLF, an empty line, and a two-byte character split across writes
        res.write(Buffer.from('\uFEFFone\r\ntwo\n\ncaf'));
        await pause(20);
        res.write(Buffer.from([0xc3]));
        await pause(20);
        res.end(Buffer.from([0xa9, 0x0a, 0x6c, 0x61, 0x73, 0x74])); // é\nlast
      },
    });
    const lines = await kit.client().get((c) => {
      c.request.uri.path = '/log';
      return Stream.lines(c);
    });
    release();
    expect(await all(lines)).toEqual(['one', 'two', '', 'café', 'last']);
  });

  it('ndjson: one value per non-blank line, each converted to a class', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/changes',
      respond: async (_req, res) => {
        head(res, { 'Content-Type': 'application/x-ndjson' });
        res.write('{"id":1,"op":"add"}\n\n');
        await pause(20);
        res.write('{"id":2,');
        await pause(20);
        res.end('"op":"del"}\n');
      },
    });
    const changes = await kit.client().get((c) => {
      c.request.uri.path = '/changes';
      return Stream.ndjson(c, Change);
    });
    const seen = await all(changes);
    expect(seen.every((change) => change instanceof Change)).toBe(true);
    expect(seen.map((change) => change.label)).toEqual(['add#1', 'del#2']);
  });

  it('ndjson validates each value with a Standard Schema, and a line that is no JSON fails the loop naming it', async () => {
    kit.server.expect({ method: 'POST', path: '/complete', respond: { headers: { 'Content-Type': 'application/x-ndjson' }, body: '{"n":1}\n{"n":2}\n' } });
    const doubled = await kit.client().post((c) => {
      c.request.uri.path = '/complete';
      c.request.contentType = 'application/json';
      c.request.body = { prompt: 'hi' };
      return Stream.ndjson(c, Doubled);
    });
    expect(await all(doubled)).toEqual([{ n: 2 }, { n: 4 }]);

    kit.server.expect({ method: 'GET', path: '/broken', respond: { headers: { 'Content-Type': 'application/x-ndjson' }, body: '{"n":1}\n{oops\n' } });
    const values: unknown[] = [];
    const failure = await (async () => {
      for await (const value of await kit.client().get((c) => {
        c.request.uri.path = '/broken';
        return Stream.ndjson(c);
      }))
        values.push(value);
    })().catch((error: unknown) => error);
    expect(values).toEqual([{ n: 1 }]);
    expect(failure).toBeInstanceOf(ParseError);
    expect((failure as ParseError).message).toMatch(/^line 2 of the response of .*\/broken is not valid JSON/);
  });

  it('events: server-sent events by the WHATWG rules, asking for text/event-stream', async () => {
    const feed = '\uFEFF: a comment\r\nevent: update\r\ndata: one\r\ndata: two\r\nid: 7\r\n\r\nretry: 1500\ndata:plain\n\nevent: ignored\n\n';
    kit.server.expect({
      method: 'GET',
      path: '/feed',
      respond: async (_req, res) => {
        head(res, { 'Content-Type': 'text/event-stream' });
        for (const piece of [feed.slice(0, 30), feed.slice(30, 61), feed.slice(61)]) {
          res.write(piece);
          await pause(15);
        }
        res.end();
      },
    });
    const events = await kit.client().get((c) => {
      c.request.uri.path = '/feed';
      return Stream.events(c);
    });
    expect(await all(events)).toEqual([
      { event: 'update', data: 'one\ntwo', id: '7', retry: undefined },
      { event: 'message', data: 'plain', id: '7', retry: 1500 },
    ]);
    expect(kit.server.requests.at(-1)?.headers.accept).toBe('text/event-stream');
  });

  it('a gzip-encoded stream is decoded; an empty 2xx is an empty stream', async () => {
    kit.server.expect({ method: 'GET', path: '/zipped', respond: { headers: { 'Content-Type': 'text/plain' }, encoding: 'gzip', body: 'a\nb\n' } });
    expect(await all(await kit.client().get((c) => ((c.request.uri.path = '/zipped'), Stream.lines(c))))).toEqual(['a', 'b']);
    kit.server.expect({ method: 'GET', path: '/none', respond: { status: 204 } });
    expect(await all(await kit.client().get((c) => ((c.request.uri.path = '/none'), Stream.lines(c))))).toEqual([]);
  });

  it('a failure status rejects the call as usual, with the error body', async () => {
    kit.server.expect({ method: 'GET', path: '/gone', respond: { status: 404, headers: { 'Content-Type': 'text/plain' }, body: 'no such feed' } });
    const error = await kit
      .client()
      .get((c) => ((c.request.uri.path = '/gone'), Stream.events(c)))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpException);
    expect((error as HttpException).body).toBe('no such feed');
  });

  it('maxResponseSize bounds each line, not the stream', async () => {
    const line = 'x'.repeat(100);
    kit.server.expect({ method: 'GET', path: '/long', respond: { headers: { 'Content-Type': 'text/plain' }, body: `${line}\n`.repeat(50) } });
    const client = kit.client((c) => void (c.execution.maxResponseSize = 150));
    expect(await all(await client.get((c) => ((c.request.uri.path = '/long'), Stream.lines(c))))).toHaveLength(50);

    kit.server.expect({ method: 'GET', path: '/huge-line', respond: { headers: { 'Content-Type': 'text/plain' }, body: `short\n${'y'.repeat(400)}\n` } });
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const text of await client.get((c) => ((c.request.uri.path = '/huge-line'), Stream.lines(c)))) seen.push(text);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['short']);
    expect(failure).toBeInstanceOf(ResponseTooLargeError);
    expect((failure as Error).message).toMatch(/a line of the response of .*\/huge-line is larger than execution.maxResponseSize \(150 bytes\)/);
  });

  it('maxResponseSize bounds each NDJSON value and each event too', async () => {
    const client = kit.client((c) => void (c.execution.maxResponseSize = 100));
    kit.server.expect({
      method: 'GET',
      path: '/values',
      respond: { headers: { 'Content-Type': 'application/x-ndjson' }, body: `{"n":1}\n["${'z'.repeat(200)}"]\n` },
    });
    const values = await untilFailure(await client.get((c) => ((c.request.uri.path = '/values'), Stream.ndjson(c))));
    expect(values.seen).toEqual([{ n: 1 }]);
    expect(values.error).toBeInstanceOf(ResponseTooLargeError);
    expect((values.error as Error).message).toMatch(/^a line of the response of .*\/values is larger than execution.maxResponseSize \(100 bytes\)$/);

    const feed = `data: small\n\n${'data: 0123456789abcdef\n'.repeat(8)}\n`; // the second event: 8 lines of 22 bytes
    kit.server.expect({ method: 'GET', path: '/feed', respond: { headers: { 'Content-Type': 'text/event-stream' }, body: feed } });
    const events = await untilFailure(await client.get((c) => ((c.request.uri.path = '/feed'), Stream.events(c))));
    expect(events.seen.map((event) => event.data)).toEqual(['small']);
    expect(events.error).toBeInstanceOf(ResponseTooLargeError);
    expect((events.error as Error).message).toMatch(/^an event of the response of .*\/feed is larger than execution.maxResponseSize \(100 bytes\)$/);
  });

  it('a line or event longer than 16 MiB fails the loop by default, and under a larger maxResponseSize', async () => {
    const sixteen = /is larger than 16 MiB \(16777216 bytes\), the most a Stream holds of one line or event$/;
    kit.server.expect({ method: 'GET', path: '/one-line', respond: unending('application/x-ndjson', '{"n":1}\n"', 'x'.repeat(65536)) });
    const client = kit.client();
    const taken = (await expectNoLeak(kit, client, async () =>
      untilFailure(await client.get((c) => ((c.request.uri.path = '/one-line'), Stream.ndjson(c)))),
    )) as Awaited<ReturnType<typeof untilFailure>>;
    expect(taken.seen).toEqual([{ n: 1 }]);
    expect(taken.error).toBeInstanceOf(ResponseTooLargeError);
    expect((taken.error as Error).message).toMatch(sixteen);

    kit.server.expect({ method: 'GET', path: '/one-event', respond: unending('text/event-stream', 'data: first\n\n', `data: ${'y'.repeat(1018)}\n`) });
    const lenient = kit.client((c) => void (c.execution.maxResponseSize = 2 ** 30));
    const events = await untilFailure(await lenient.get((c) => ((c.request.uri.path = '/one-event'), Stream.events(c))));
    expect(events.seen.map((event) => event.data)).toEqual(['first']);
    expect(events.error).toBeInstanceOf(ResponseTooLargeError);
    expect((events.error as Error).message).toMatch(sixteen);
  }, 30_000);

  it('timeout.read ends a stream that falls silent; the total timeout bounds only the call', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/silent',
      respond: async (_req, res) => {
        head(res, { 'Content-Type': 'text/plain' });
        res.write('first\n');
        await pause(400);
        if (!res.destroyed) res.write('second\n');
        // then silence until the client gives up
      },
    });
    const client = kit.client((c) => void (c.execution.timeout = { read: 700, total: 300 }));
    const seen: string[] = [];
    const failure = await (async () => {
      for await (const text of await client.get((c) => ((c.request.uri.path = '/silent'), Stream.lines(c)))) seen.push(text);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(['first', 'second']); // past the total timeout: the call had resolved
    expect(failure).toMatchObject({ name: 'TimeoutError', phase: 'read' });
  });

  it('the signal stops the reading, with an AbortError', async () => {
    kit.server.expect({ method: 'GET', path: '/endless', respond: endless('text/plain', (i) => `tick ${i}`) });
    const controller = new AbortController();
    let count = 0;
    const failure = await (async () => {
      for await (const _ of await kit.client().get((c) => {
        c.request.uri.path = '/endless';
        c.execution.signal = controller.signal;
        return Stream.lines(c);
      }))
        if (++count === 3) controller.abort();
    })().catch((e: unknown) => e);
    expect(failure).toMatchObject({ name: 'AbortError' });
    expect(count).toBeLessThan(10);
  });

  it('breaking out of the loop releases the connection', async () => {
    kit.server.expect({ method: 'GET', path: '/endless', respond: endless('application/x-ndjson', (i) => `{"i":${i}}`) });
    const client = kit.client();
    const taken = await expectNoLeak(kit, client, async () => {
      const values: unknown[] = [];
      for await (const value of await client.get((c) => ((c.request.uri.path = '/endless'), Stream.ndjson(c)))) {
        values.push(value);
        if (values.length === 2) break;
      }
      return values;
    });
    expect(taken).toEqual([{ i: 0 }, { i: 1 }]);
  });

  it('a handler that answers something else closes the stream; a progress listener that throws fails the loop with its own error', async () => {
    kit.server.expect({ method: 'GET', path: '/endless', respond: endless('text/plain', (i) => `tick ${i}`) });
    const client = kit.client();
    const answered = await expectNoLeak(kit, client, () =>
      client.get((c) => {
        c.request.uri.path = '/endless';
        c.response.success(() => 'done');
        return Stream.lines(c);
      }),
    );
    expect(answered).toBe('done');

    class Mine extends Error {}
    const failure = await (async () => {
      for await (const _ of await kit.client().get((c) => {
        c.request.uri.path = '/endless';
        c.execution.onDownloadProgress = (progress) => {
          if (progress.transferred > 30) throw new Mine('enough');
        };
        return Stream.lines(c);
      }));
    })().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(Mine);
  });

  it('close() of the client while a stream is read fails the loop with AbortError', async () => {
    kit.server.expect({ method: 'GET', path: '/endless', respond: endless('text/plain', (i) => `tick ${i}`) });
    const client = kit.client();
    let count = 0;
    const failure = await (async () => {
      for await (const _ of await client.get((c) => ((c.request.uri.path = '/endless'), Stream.lines(c)))) if (++count === 2) void client.close();
    })().catch((e: unknown) => e);
    expect(failure).toMatchObject({ name: 'AbortError' });
  });

  it('no body (HEAD, 304) is an empty stream; an unfollowed 3xx is streamed; a Stream in a paginate() block is refused', async () => {
    kit.server.expect({ method: 'HEAD', path: '/feed', respond: { headers: { 'Content-Type': 'text/event-stream' } } });
    expect(await all(await kit.client().head((c) => ((c.request.uri.path = '/feed'), Stream.events(c))))).toEqual([]);
    kit.server.expect({ method: 'GET', path: '/cached', respond: { status: 304 } });
    expect(await all(await kit.client().get((c) => ((c.request.uri.path = '/cached'), Stream.lines(c))))).toEqual([]);
    kit.server.expect({ method: 'GET', path: '/moved', respond: { status: 302, headers: { Location: '/x', 'Content-Type': 'text/plain' }, body: 'see /x\n' } });
    const moved = await kit.client((c) => void (c.execution.redirects = { follow: false })).get((c) => ((c.request.uri.path = '/moved'), Stream.lines(c)));
    expect(await all(moved)).toEqual(['see /x']);

    const refused = await all(kit.client().paginate((c) => void Stream.ndjson(c))).catch((e: unknown) => e);
    expect(refused).toEqual(new ConfigError("paginate(): a Stream reads the body as its result, but each page's body must be parsed for its items"));
  });

  it('a result type beside a Stream is refused before sending', async () => {
    const error = await kit
      .client()
      .get(String, (c) => void Stream.lines(c))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/a Stream reads the body as its result, so the call's result type must be the default one/);
    expect(() => Stream.ndjson({} as never, 'User' as never)).toThrow(ResultTypeError);
    expect(kit.server.requests).toHaveLength(0);
  });
});
