// Stream.events(c, { reconnect: true }) on every backend: a server that ends the stream, resets
// it or falls silent, checks the Last-Event-ID each reconnection sends, and answers 204, 500 or
// 503 in between; the loop sees one series of events, and break, the signal and close() stop a wait.
import { expect, it } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { AbortError, ConfigError, HttpException, type HttpBuilder, type HttpConfig } from '../../lib/index.js';
import { Stream, type ServerSentEvent } from '../../lib/stream.js';
import { untilFailure } from '../support/chunk-sources.js';
import type { RecordedRequest } from '../support/recorded-request.js';
import { conformance, type Kit } from './kit.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What one connection gets: the events to write, then how it ends; or a status with no stream. */
type Answer = { events: string; then: 'end' | 'reset' | 'silence'; headers?: Record<string, string> } | { status: number };

/**
 * A `/feed` route answering its n-th request with `answers[n]` (the last one again after them),
 * noting each request's `Last-Event-ID`, headers and arrival time.
 */
function feed(kit: Kit, answers: Answer[], path = '/feed') {
  const seen: Array<{ lastEventId: string | undefined; headers: RecordedRequest['headers']; at: number }> = [];
  kit.server.expect({
    method: 'GET',
    path,
    respond: async (req: RecordedRequest, res: ServerResponse) => {
      seen.push({ lastEventId: req.headers['last-event-id'] as string | undefined, headers: req.headers, at: performance.now() });
      const answer = answers[Math.min(seen.length, answers.length) - 1];
      if ('status' in answer) {
        res.writeHead(answer.status, { 'Content-Type': 'text/plain' });
        res.end(answer.status === 204 ? undefined : `status ${answer.status}`);
        return;
      }
      res.writeHead(200, { 'Content-Type': 'text/event-stream', ...answer.headers });
      res.flushHeaders();
      res.write(answer.events);
      await pause(20); // the events reach the client before the end
      if (answer.then === 'end') res.end();
      else if (answer.then === 'reset') res.destroy();
      // 'silence': never ends; the client's read timeout cuts it
    },
  });
  return seen;
}

/** The events of `/feed` with reconnection, on `client` (the block adds its own settings). */
async function reconnecting(client: HttpBuilder, block?: (c: HttpConfig) => void): Promise<AsyncIterable<ServerSentEvent>> {
  return client.get((c) => {
    c.request.uri.path = '/feed';
    block?.(c);
    return Stream.events(c, { reconnect: true });
  });
}

/** An iterator whose loop is waiting to reconnect: its first event read, its stream over, the next one asked for. */
async function waiting(events: AsyncIterable<ServerSentEvent>, kit: Kit) {
  const iterator = events[Symbol.asyncIterator]();
  expect((await iterator.next()).value).toMatchObject({ data: 'one' });
  const next = iterator.next();
  await pause(100); // the stream ends 20 ms after its event: the loop waits by then
  expect(kit.server.requests).toHaveLength(1);
  return { iterator, next };
}

conformance('Stream.events(c, { reconnect: true })', (kit) => {
  it('reconnects after a clean end and after a reset, sending Last-Event-ID; a 204 ends the loop; one series of events', async () => {
    const seen = feed(kit, [
      { events: 'retry: 20\nid: 1\ndata: one\n\nid: 2\ndata: two\n\n', then: 'end', headers: { 'Set-Cookie': 'session=s1' } },
      { events: 'id: 3\ndata: three\n\nid: 4\ndata: cut', then: 'reset' },
      { events: 'data: four\n\n', then: 'end' },
      { status: 204 },
    ]);
    let attempts = 0;
    // the same client each time: its cookies, credentials, hooks and its one concurrency slot (given back by each stream that ends)
    const client = kit.client((c) => {
      c.client.cookies = true;
      c.client.concurrency = { total: 1 };
      c.request.auth.basic('alice', 'wonderland', { preemptive: true });
      c.execution.hooks = { beforeAttempt: (attempt) => void (attempt.headers['X-Attempt'] = String(++attempts)) };
    });
    const { seen: events, error } = await untilFailure(await reconnecting(client));
    expect(error).toBeUndefined();
    expect(seen.map((s) => [s.headers.cookie, s.headers.authorization, s.headers['x-attempt']])).toEqual([
      [undefined, `Basic ${btoa('alice:wonderland')}`, '1'],
      ['session=s1', `Basic ${btoa('alice:wonderland')}`, '2'],
      ['session=s1', `Basic ${btoa('alice:wonderland')}`, '3'],
      ['session=s1', `Basic ${btoa('alice:wonderland')}`, '4'],
    ]);
    expect(events).toEqual([
      { event: 'message', data: 'one', id: '1', retry: 20 },
      { event: 'message', data: 'two', id: '2', retry: 20 },
      { event: 'message', data: 'three', id: '3', retry: 20 },
      { event: 'message', data: 'four', id: '3', retry: 20 }, // the ID and retry of the connections before: one series
    ]);
    // the id of the event cut short was never dispatched: not sent
    expect(seen.map((s) => s.lastEventId)).toEqual([undefined, '2', '3', '3']);
    expect(kit.server.requests.every((r) => r.headers.accept === 'text/event-stream')).toBe(true);
  });

  it('waits the last retry: value (never below 100 ms); a connection that falls silent past timeout.read is reconnected', async () => {
    const seen = feed(kit, [
      { events: 'retry: 150\ndata: one\n\n', then: 'silence' },
      { events: 'id: x\ndata: two\n\n', then: 'end' },
      { events: 'retry: 0\nid\ndata: three\n\n', then: 'end' },
      { status: 204 },
    ]);
    const client = kit.client((c) => void (c.execution.timeout = { read: 150 }));
    const { seen: events, error } = await untilFailure(await reconnecting(client));
    expect(error).toBeUndefined();
    expect(events.map((e) => [e.data, e.id])).toEqual([
      ['one', undefined],
      ['two', 'x'],
      ['three', ''],
    ]);
    // an empty id: no Last-Event-ID at all
    expect(seen.map((s) => s.lastEventId)).toEqual([undefined, undefined, 'x', undefined]);
    const gaps = seen.slice(1).map((s, i) => s.at - seen[i].at);
    expect(gaps[1]).toBeGreaterThanOrEqual(150 + 15); // retry: 150, after the 20 ms the stream took
    expect(gaps[2]).toBeGreaterThanOrEqual(100 + 15); // retry: 0 waits the floor
  });

  it('a 503 is tried again with the wait doubled, then the stream resumes', async () => {
    const seen = feed(kit, [
      { events: 'retry: 100\nid: 1\ndata: one\n\n', then: 'end' },
      { status: 503 },
      { events: 'id: 2\ndata: two\n\n', then: 'end' },
      { status: 204 },
    ]);
    const { seen: events, error } = await untilFailure(await reconnecting(kit.client()));
    expect(error).toBeUndefined();
    expect(events.map((e) => e.data)).toEqual(['one', 'two']);
    expect(seen.map((s) => s.lastEventId)).toEqual([undefined, '1', '1', '2']);
    const gaps = seen.slice(1).map((s, i) => s.at - seen[i].at);
    expect(gaps[1]).toBeGreaterThanOrEqual(200); // after the 503: 100 ms doubled
    expect(gaps[2]).toBeLessThan(200); // the stream delivered: back to 100 ms (+ its 20 ms)
  });

  it('a 2xx stream of keepalive comments only is no failure (the wait stays at retry:); one that ends with no byte doubles it', async () => {
    const keepalive = { events: ': keepalive\n\n', then: 'end' } as const;
    const none = { events: '', then: 'end' } as const;
    const seen = feed(kit, [
      { events: 'retry: 100\nid: 1\ndata: one\n\n', then: 'end' },
      keepalive,
      keepalive,
      keepalive,
      none,
      none,
      { events: 'data: two\n\n', then: 'end' },
      { status: 204 },
    ]);
    const { seen: events, error } = await untilFailure(await reconnecting(kit.client()));
    expect(error).toBeUndefined();
    expect(events.map((e) => e.data)).toEqual(['one', 'two']);
    expect(seen.map((s) => s.lastEventId)).toEqual([undefined, '1', '1', '1', '1', '1', '1', '1']);
    // each gap is the 20 ms a stream takes and the wait: 100 ms after each keepalive stream (as
    // failures they made waits of 200, 400, 800: 1580 ms for the first four gaps), then 200 and 400
    // after the streams with no byte, 100 after an event
    const gaps = seen.slice(1).map((s, i) => s.at - seen[i].at);
    expect(gaps.slice(0, 4).reduce((sum, gap) => sum + gap)).toBeLessThan(800); // 480 ms, with room for a busy machine
    expect(gaps[4]).toBeGreaterThanOrEqual(200);
    expect(gaps[5]).toBeGreaterThanOrEqual(400);
    expect(gaps[6]).toBeLessThan(400);
  });

  it('a 500 on reconnection ends the loop with HttpException after the events; on the first call it rejects the call, as without reconnect', async () => {
    feed(kit, [{ events: 'retry: 20\ndata: one\n\n', then: 'end' }, { status: 500 }]);
    const { seen: events, error } = await untilFailure(await reconnecting(kit.client()));
    expect(events.map((e) => e.data)).toEqual(['one']);
    expect(error).toBeInstanceOf(HttpException);
    expect(error).toMatchObject({ statusCode: 500, body: 'status 500' });

    kit.server.reset();
    feed(kit, [{ status: 500 }]);
    await expect(reconnecting(kit.client())).rejects.toMatchObject({ name: 'HttpException', statusCode: 500 });
    expect(kit.server.requests).toHaveLength(1);
  });

  it("a redirect on reconnection is followed as on the first call, Last-Event-ID along; an interceptor's changes go again, it runs once", async () => {
    let count = 0;
    kit.server.expect({
      method: 'GET',
      path: '/feed',
      respond: (_req, res) => {
        if (++count === 1) {
          res.writeHead(200, { 'Content-Type': 'text/event-stream' });
          res.end('retry: 20\nid: 5\ndata: one\n\n');
        } else {
          res.writeHead(302, { Location: '/moved' });
          res.end();
        }
      },
    });
    const moved = feed(kit, [{ events: 'data: two\n\n', then: 'end' }, { status: 204 }], '/moved');
    let intercepted = 0;
    const client = kit.client((c) =>
      c.execution.interceptor('GET', (request, next) => (intercepted++, next({ ...request, headers: { ...request.headers, 'X-Trace': 't1' } }))),
    );
    const { seen: events, error } = await untilFailure(await reconnecting(client));
    expect(error).toBeUndefined();
    expect(events.map((e) => e.data)).toEqual(['one', 'two']);
    expect(moved.map((s) => [s.lastEventId, s.headers['x-trace']])).toEqual([
      ['5', 't1'],
      ['5', 't1'],
    ]);
    expect(intercepted).toBe(1);
  });

  it('break during a wait ends it at once: no request more', async () => {
    feed(kit, [{ events: 'retry: 300\ndata: one\n\n', then: 'end' }]);
    const { iterator, next } = await waiting(await reconnecting(kit.client()), kit);
    const started = performance.now();
    await iterator.return!();
    expect(await next).toEqual({ done: true, value: undefined });
    expect(performance.now() - started).toBeLessThan(100);
    await pause(400); // past the wait: it would have reconnected by now
    expect(kit.server.requests).toHaveLength(1);
  });

  it('the signal aborted during a wait, or close() of the client, ends the loop at once with AbortError', async () => {
    feed(kit, [{ events: 'retry: 5000\ndata: one\n\n', then: 'end' }]);
    const controller = new AbortController();
    const aborted = await waiting(await reconnecting(kit.client(), (c) => void (c.execution.signal = controller.signal)), kit);
    controller.abort();
    await expect(aborted.next).rejects.toBeInstanceOf(AbortError);
    await expect(aborted.next).rejects.toThrow(/was aborted \(waiting to reconnect\)$/);

    kit.server.reset();
    feed(kit, [{ events: 'retry: 5000\ndata: one\n\n', then: 'end' }]);
    const client = kit.client();
    const closed = await waiting(await reconnecting(client), kit);
    const outcome = expect(closed.next).rejects.toThrow(/was cut by close\(\) of its client \(waiting to reconnect\)$/); // handled before close() rejects it
    await client.close();
    await outcome;
    expect(await closed.iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('options are checked when set: a ConfigError naming reconnect and the bad value, nothing sent', async () => {
    const bad = (options: unknown) => kit.client().get((c) => Stream.events(c, options as { reconnect: boolean }));
    await expect(bad({ reconnect: 'yes' })).rejects.toEqual(
      new ConfigError(`Stream.events(c, { reconnect }): reconnect must be true or false, not a string ("yes")`),
    );
    await expect(bad({ reconect: true })).rejects.toEqual(new ConfigError(`Stream.events(c, options): unknown option 'reconect' (known: reconnect)`));
    await expect(bad(true)).rejects.toBeInstanceOf(ConfigError);
    expect(kit.server.requests).toHaveLength(0);
  });
});
