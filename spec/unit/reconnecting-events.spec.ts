// The reconnection loop of Stream.events(c, { reconnect: true }) on a controllable clock: fake
// connections and a fake "send again", so waits of seconds are shown exactly, and the timers the
// loop leaves are counted (none, whichever way it ends).
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Readable } from 'node:stream';
import { events, type EventStreamState } from '../../lib/content/event-stream.js';
import { AbortError, ConfigError, HttpException, NetworkError } from '../../lib/core/errors.js';
import type { CallAgain, FromServer } from '../../lib/model/from-server.js';
import type { RequestRecord } from '../../lib/model/request-record.js';
import { ReconnectingEvents } from '../../lib/stream-reconnect.js';

/** What the fake server answers a request sent again with: a stream (its text, then a reset or its end), a status without one, or a failure. */
type Answer = { text: string; reset?: boolean } | { status: number } | { error: Error } | { value: unknown };

const encoder = new TextEncoder();

async function* bodyOf(text: string, reset = false): AsyncGenerator<Uint8Array> {
  await Promise.resolve(); // a real body awaits the network
  yield encoder.encode(text);
  if (reset) throw new NetworkError('the connection was reset', 'reset');
}

const read = (body: AsyncIterable<Uint8Array>, _fromServer: FromServer, state: EventStreamState) => events(body, { state });

const REQUEST: RequestRecord = Object.freeze({
  method: 'GET',
  url: 'https://api.example.com/feed',
  headers: Object.freeze({ Accept: 'text/event-stream' }),
  body: undefined,
  contentType: undefined,
  charset: undefined,
  context: () => undefined,
});

/** A fake call: the loop's first connection, and each request sent again, answered in turn. */
function server(first: Answer & { text: string }, answers: Answer[], request: RequestRecord = REQUEST, status = 200) {
  const sent: Array<{ record: RequestRecord; at: number }> = [];
  let discarded = 0;
  const controller = new AbortController();
  const closing = new AbortController();
  const again: CallAgain = {
    send: (record) => {
      sent.push({ record, at: Date.now() });
      const answer = answers[Math.min(sent.length, answers.length) - 1];
      if ('error' in answer) return Promise.reject(answer.error);
      if ('value' in answer) return Promise.resolve(answer.value);
      return Promise.resolve(stream('text' in answer ? answer : { text: '' }, record, 'status' in answer ? answer.status : 200));
    },
    signal: controller.signal,
    closed: closing.signal,
  };
  const fromServer = (statusCode: number) => ({ statusCode, again, uri: REQUEST.url, discard: () => void discarded++ }) as unknown as FromServer;
  const stream = (answer: { text: string; reset?: boolean }, record: RequestRecord, statusCode: number) =>
    new ReconnectingEvents(bodyOf(answer.text, answer.reset), fromServer(statusCode), record, read);
  const loop = stream(first, request, status);
  return { loop, sent, controller, closing, discarded: () => discarded };
}

beforeEach(() => {
  jest.useFakeTimers({ now: 0 });
});
afterEach(() => {
  jest.useRealTimers();
});

describe('ReconnectingEvents: waits', () => {
  it('waits 3000 ms by default, then sends again with Last-Event-ID; a 204 ends the loop; no timer is left', async () => {
    const { loop, sent } = server({ text: 'id: 7\ndata: a\n\n' }, [{ text: 'data: b\n\n' }, { status: 204 }]);
    expect(await loop.next()).toEqual({ done: false, value: { event: 'message', data: 'a', id: '7', retry: undefined } });
    const second = loop.next();
    await jest.advanceTimersByTimeAsync(2999);
    expect(sent).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(1);
    expect(sent[0].record.headers).toEqual({ Accept: 'text/event-stream', 'Last-Event-ID': '7' });
    expect(await second).toEqual({ done: false, value: { event: 'message', data: 'b', id: '7', retry: undefined } });
    const end = loop.next();
    await jest.advanceTimersByTimeAsync(3000);
    expect(await end).toEqual({ done: true, value: undefined });
    expect(sent).toHaveLength(2);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('doubles the wait for each 2xx stream in a row that ended with no byte, from the 100 ms floor; any byte resets it', async () => {
    const none = { text: '' }; // one empty chunk: no byte
    const { loop, sent } = server({ text: 'retry: 0\n\n' }, [none, { text: '', reset: true }, none, { text: 'data: x\n\n' }, none]);
    const first = loop.next();
    await jest.advanceTimersByTimeAsync(100 + 200 + 400 + 800);
    expect(await first).toMatchObject({ value: { data: 'x', retry: 0 } });
    const next = loop.next();
    await jest.advanceTimersByTimeAsync(100 + 200);
    expect(sent.map((s) => s.at)).toEqual([100, 300, 700, 1500, 1600, 1800]); // waits of 100 (the first stream gave bytes), 200, 400, 800; then 100, 200
    await loop.return();
    expect(await next).toEqual({ done: true, value: undefined });
    expect(jest.getTimerCount()).toBe(0);
  });

  it('a stream that gives bytes but no event (keepalive comments, an event cut short), ended or reset, is no failure: the wait stays at retry:', async () => {
    const keepalive = { text: ': keepalive\n\n' };
    const { loop, sent } = server({ text: 'retry: 100\nid: 1\ndata: first\n\n' }, [
      keepalive,
      keepalive,
      { text: ': ping\n\n', reset: true },
      { text: 'data: cut sho' },
      keepalive,
      { text: 'data: x\n\n' },
    ]);
    expect(await loop.next()).toMatchObject({ value: { data: 'first' } });
    const next = loop.next();
    await jest.advanceTimersByTimeAsync(6 * 100);
    expect(await next).toMatchObject({ value: { data: 'x', id: '1' } });
    expect(sent.map((s) => s.at)).toEqual([100, 200, 300, 400, 500, 600]); // each counted a failure, they were at 100, 300, 700, 1500, 3100, 6300
    expect(sent.every((s) => s.record.headers['Last-Event-ID'] === '1')).toBe(true);
    await loop.return();
    expect(jest.getTimerCount()).toBe(0);
  });

  it('return() during a wait ends it at once: nothing more is sent, no timer is left', async () => {
    const { loop, sent } = server({ text: 'data: a\n\n' }, [{ text: 'data: b\n\n' }]);
    await loop.next();
    const pending = loop.next();
    await jest.advanceTimersByTimeAsync(1000);
    expect(jest.getTimerCount()).toBe(1);
    expect(await loop.return()).toEqual({ done: true, value: undefined });
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(jest.getTimerCount()).toBe(0);
    await jest.advanceTimersByTimeAsync(10_000);
    expect(sent).toHaveLength(0);
  });

  it("the caller's signal or close() during a wait rejects at once with AbortError; no timer is left", async () => {
    for (const stop of ['controller', 'closing'] as const) {
      const fake = server({ text: 'data: a\n\n' }, [{ text: 'data: b\n\n' }]);
      await fake.loop.next();
      const pending = fake.loop.next();
      await jest.advanceTimersByTimeAsync(500);
      fake[stop].abort(new Error('stop'));
      await expect(pending).rejects.toBeInstanceOf(AbortError);
      expect(jest.getTimerCount()).toBe(0);
      expect(await fake.loop.next()).toEqual({ done: true, value: undefined });
      expect(fake.sent).toHaveLength(0);
    }
  });
});

describe('ReconnectingEvents: what is tried again', () => {
  it('a reset, a 503 and a network failure are tried again; the stream resumes', async () => {
    const unavailable = new HttpException(503, 'Service Unavailable', {} as never, '');
    const refused = new NetworkError('connection refused', 'refused');
    const { loop, sent } = server({ text: 'retry: 1000\ndata: a\n\n', reset: true }, [{ error: unavailable }, { error: refused }, { text: 'data: b\n\n' }]);
    await loop.next();
    const next = loop.next();
    await jest.advanceTimersByTimeAsync(1000 + 2000 + 4000);
    expect(await next).toMatchObject({ value: { data: 'b' } });
    expect(sent.map((s) => s.at)).toEqual([1000, 3000, 7000]);
    await loop.return();
  });

  it('another failure (an HttpException, a TLS failure) is thrown from the loop, and the loop is over', async () => {
    for (const error of [new HttpException(404, 'Not Found', {} as never, ''), new NetworkError('bad certificate', 'tls')]) {
      const { loop } = server({ text: 'retry: 100\ndata: a\n\n' }, [{ error }]);
      await loop.next();
      const outcome = expect(loop.next()).rejects.toBe(error); // handled before the rejection comes
      await jest.advanceTimersByTimeAsync(100);
      await outcome;
      expect(await loop.next()).toEqual({ done: true, value: undefined });
    }
  });

  it('a handler that answers something else ends the loop; a withResponse() result is read on', async () => {
    const other = server({ text: 'retry: 100\ndata: a\n\n' }, [{ value: 'done' }]);
    await other.loop.next();
    const end = other.loop.next();
    await jest.advanceTimersByTimeAsync(100);
    expect(await end).toEqual({ done: true, value: undefined });

    const wrapped = server({ text: 'data: b\n\n' }, []).loop; // what the call resolved to: { statusCode, ..., body: the stream }
    const answers: Answer[] = [{ value: { statusCode: 200, body: wrapped } }];
    const { loop } = server({ text: 'retry: 100\ndata: a\n\n' }, answers);
    await loop.next();
    const next = loop.next();
    await jest.advanceTimersByTimeAsync(100);
    expect(await next).toMatchObject({ value: { data: 'b' } });
    await loop.return();
  });

  it('after a first response that is no 2xx stream (a 204, a 3xx) or a HEAD, there is no reconnection', async () => {
    for (const [status, method] of [
      [204, 'GET'],
      [302, 'GET'],
      [200, 'HEAD'],
    ] as const) {
      const { loop, sent } = server({ text: 'data: a\n\n' }, [{ text: 'data: b\n\n' }], { ...REQUEST, method }, status);
      const seen: string[] = [];
      for await (const event of loop) seen.push(event.data);
      expect(seen).toEqual(['a']);
      expect(sent).toHaveLength(0);
      expect(jest.getTimerCount()).toBe(0);
    }
  });

  it('a 3xx on reconnection ends the loop, its response freed unread', async () => {
    const { loop, discarded } = server({ text: 'retry: 100\ndata: a\n\n' }, [{ status: 304 }]);
    await loop.next();
    const end = loop.next();
    await jest.advanceTimersByTimeAsync(100);
    expect(await end).toEqual({ done: true, value: undefined });
    expect(discarded()).toBe(1);
  });
});

describe('ReconnectingEvents: the request sent again', () => {
  it("sends the request as it was before any id; then Last-Event-ID replaces the caller's own", async () => {
    const request = { ...REQUEST, headers: { 'last-event-id': 'mine', Accept: 'text/event-stream' } };
    const { loop, sent } = server({ text: 'retry: 100\ndata: a\n\n' }, [{ text: 'id: 2\ndata: b\n\n' }, { text: 'data: c\n\n' }], request);
    await loop.next();
    const b = loop.next();
    await jest.advanceTimersByTimeAsync(100);
    await b;
    const c = loop.next();
    await jest.advanceTimersByTimeAsync(100);
    await c;
    expect(sent[0].record).toBe(request);
    expect(sent[1].record.headers).toEqual({ Accept: 'text/event-stream', 'Last-Event-ID': '2' });
    expect(sent[1].record.url).toBe(request.url);
    await loop.return();
  });

  it('an id is sent as UTF-8 (as EventSource), and not at all when it has a control character or is empty', async () => {
    const { loop, sent } = server({ text: 'retry: 100\nid: é€\ndata: a\n\n' }, [
      { text: 'id: a\u0001b\ndata: b\n\n' },
      { text: 'id\ndata: c\n\n' },
      { text: 'data: d\n\n' },
    ]);
    for (let i = 0; i < 4; i++) {
      const next = loop.next();
      await jest.advanceTimersByTimeAsync(100);
      await next;
    }
    expect(sent.map((s) => s.record.headers['Last-Event-ID'])).toEqual([Buffer.from('é€').toString('latin1'), undefined, undefined]);
    await loop.return();
  });

  it('a request whose body streams cannot be sent again: ConfigError from the loop, nothing sent', async () => {
    const request = { ...REQUEST, method: 'POST', body: Readable.from(['prompt']) };
    const { loop, sent } = server({ text: 'data: a\n\n' }, [{ text: 'data: b\n\n' }], request);
    await loop.next();
    await expect(loop.next()).rejects.toThrow(
      new ConfigError(
        "Stream.events(c, { reconnect: true }): the stream of https://api.example.com/feed ended, but its request's body is a stream, which can be sent only once: to reconnect, give the body as text, bytes, a Blob or a value",
      ),
    );
    expect(sent).toHaveLength(0);
    expect(jest.getTimerCount()).toBe(0);
  });
});
