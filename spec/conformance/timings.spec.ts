import { expect, it } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { HttpBuilderError, HttpException, NetworkError, TimeoutError, withResponse, type Timings } from '../../lib/index.js';
import { Stream } from '../../lib/stream.js';
import { conformance, type Kit } from './kit.js';
import { closedPort } from '../support/closed-port.js';
import { expectConsistent, pause } from './timings-support.js';

/** The server holds the head back this long, then sends the body in {@link PIECES} pieces this far apart. */
const HEAD_DELAY = 60;
const GAP = 25;
const PIECES = 3;
/** Timers fire a little early or late: a phase is checked to be at least its delay less this. */
const SLACK = 10;

/** A response whose head comes after {@link HEAD_DELAY} ms and whose body dribbles in. */
async function slowly(_req: unknown, res: ServerResponse): Promise<void> {
  await pause(HEAD_DELAY);
  res.writeHead(200, { 'Content-Type': 'text/plain' });
  res.flushHeaders();
  for (let i = 0; i < PIECES; i++) {
    await pause(GAP);
    res.write('piece\n');
  }
  res.end();
}

/** The instants of a connection being made: all there on a new one (TLS only over https), none on a reused one. */
function expectConnection(t: Timings, kit: Kit, made: boolean): void {
  const present = { socket: true, upload: true, response: true, lookup: made, connect: made, secureConnect: made && kit.secure };
  const actual = Object.fromEntries(Object.keys(present).map((name) => [name, t[name as keyof typeof present] !== undefined]));
  expect(actual).toEqual(present);
  const phases = { wait: true, request: true, dns: made, tcp: made, tls: made && kit.secure };
  expect(Object.fromEntries(Object.keys(phases).map((name) => [name, t.phases[name as keyof typeof phases] !== undefined]))).toEqual(phases);
}

/** The phases the slow server makes: the head's delay in `firstByte`, the dribble in `download`. */
function expectSized(t: Timings): void {
  expect(t.phases.firstByte).toBeGreaterThanOrEqual(HEAD_DELAY - SLACK);
  // a client busy elsewhere may read the head with the first piece: one gap less at the least
  expect(t.phases.download).toBeGreaterThanOrEqual((PIECES - 1) * GAP - SLACK);
  expect(t.phases.total).toBeGreaterThanOrEqual(HEAD_DELAY + PIECES * GAP - SLACK);
}

conformance('timings', (kit) => {
  it('a new connection has every phase (dns 0 for an IP literal), a reused one socket, upload and response only; each sized', async () => {
    kit.server.expect({ method: 'GET', path: '/slow', respond: slowly });
    const client = kit.client((c) => void (c.request.uri.path = '/slow'));
    const first = (await client.get(withResponse())).timings!;
    await pause(20); // undici and fetch free a socket a tick late: the next request would open another
    const second = (await client.get(withResponse())).timings!;
    expectConsistent(first);
    expectConsistent(second);
    expectConnection(first, kit, true);
    expect(first.phases.dns).toBe(0);
    expectConnection(second, kit, false);
    expectSized(first);
    expectSized(second);
  });

  it('concurrent attempts on a new client: each in order; those a connection was made for have its instants', async () => {
    kit.server.expect({ method: 'GET', path: '/together', respond: { status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'x' } });
    const client = kit.client((c) => void (c.request.uri.path = '/together'));
    const results = await Promise.all(Array.from({ length: 4 }, () => client.get(withResponse())));
    for (const { timings } of results) {
      expectConsistent(timings!);
      expect(timings).toMatchObject({ socket: expect.any(Number), upload: expect.any(Number), response: expect.any(Number) });
      // a connection's instants come whole or not at all
      expect([timings!.lookup, timings!.connect].filter((v) => v === undefined).length % 2).toBe(0);
    }
    expect(results.filter(({ timings }) => timings!.connect !== undefined).length).toBeGreaterThanOrEqual(1);
  });

  it('a host name: the new connection has its lookup in dns', async () => {
    kit.server.expect({ method: 'GET', path: '/named', respond: { status: 200, headers: { 'Content-Type': 'text/plain' }, body: 'named' } });
    const port = new URL(kit.server.url(kit.secure)).port;
    const client = kit.client((c) => {
      c.request.uri = `${kit.secure ? 'https' : 'http'}://timings.test:${port}/named`;
      // a lookup that takes its time, so dns is seen to be measured, not only present
      c.client.connection = {
        lookup: (_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
          void setTimeout(() => (options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4)), 30),
      };
      c.execution.tls = { ca: kit.server.ca, servername: 'localhost' };
    });
    const { body, timings } = await client.get(withResponse());
    expect(body).toBe('named');
    expectConsistent(timings!);
    expectConnection(timings!, kit, true);
    expect(timings!.phases.dns).toBeGreaterThanOrEqual(30 - SLACK);
  });

  it('a Stream result: end and download only once the body is read', async () => {
    kit.server.expect({ method: 'GET', path: '/slow', respond: slowly });
    const client = kit.client((c) => void (c.request.uri.path = '/slow'));
    const result = await client.get(withResponse(), (c) => Stream.lines(c));
    const timings = result.timings!;
    expect(timings.response).toEqual(expect.any(Number));
    expect(timings.end).toBeUndefined();
    expect(timings.phases.download).toBeUndefined();
    const lines: string[] = [];
    for await (const line of result.body as AsyncIterable<string>) lines.push(line);
    expect(lines).toEqual(['piece', 'piece', 'piece']);
    expect(result.timings!.end).toEqual(expect.any(Number));
    expectSized(result.timings!);
    expectConsistent(result.timings!);
  });

  it('an HttpException (404) carries the timings of the response', async () => {
    kit.server.expect({ method: 'GET', path: '/missing', respond: { status: 404, body: 'no such thing' } });
    const error = await kit
      .client()
      .get((c) => void (c.request.uri.path = '/missing'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpException);
    const t = (error as HttpException).timings!;
    expect(t.response).toEqual(expect.any(Number));
    expect(t.error).toBeUndefined();
    expectConnection(t, kit, true);
    expectConsistent(t);
  });

  it('a response timeout: the TimeoutError carries timings with error and no response', async () => {
    kit.server.expect({ method: 'GET', path: '/never', respond: () => {} });
    const client = kit.client((c) => void (c.execution.timeout = { response: 150 }));
    const error = await client.get((c) => void (c.request.uri.path = '/never')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TimeoutError);
    const t = (error as TimeoutError).timings!;
    expect(t).toMatchObject({ error: expect.any(Number), socket: expect.any(Number), upload: expect.any(Number) });
    expect(t.response).toBeUndefined();
    expect(t.phases.firstByte).toBeUndefined();
    expect(t.phases.total).toBeGreaterThanOrEqual(150 - SLACK);
    expectConsistent(t);
  });

  it('after a retry (503, then 200) fromServer.timings are the last attempt’s', async () => {
    let calls = 0;
    kit.server.expect({ method: 'GET', path: '/flaky', respond: (_req, res) => void res.writeHead(calls++ === 0 ? 503 : 200).end('x') });
    const seen: Timings[] = [];
    const failed: unknown[] = [];
    const client = kit.client((c) => {
      c.request.uri.path = '/flaky';
      c.execution.retry = { limit: 1, backoff: () => 1 };
      c.execution.hooks = { afterAttempt: (_a, response) => void seen.push(response.timings), afterAttemptError: (_a, e) => void failed.push(e) };
    });
    const { statusCode, timings } = await client.get(withResponse());
    expect(statusCode).toBe(200);
    expect(seen).toHaveLength(2);
    expect(failed).toEqual([]); // both attempts got a response
    expect(timings).toBe(seen[1]);
    expect(timings!.start).toBeGreaterThan(seen[0].response!);
    expectConsistent(timings!);
  });

  it('afterAttemptError: once per attempt that failed, before the retry, with a typed error that has timings', async () => {
    let calls = 0;
    kit.server.expect({
      method: 'GET',
      path: '/once',
      respond: (_req, res) => void (calls++ === 0 ? undefined : res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok')),
    });
    const events: string[] = [];
    const errors: HttpBuilderError[] = [];
    const client = kit.client((c) => {
      c.request.uri.path = '/once';
      c.execution.timeout = { response: 150 };
      c.execution.retry = { limit: 1, backoff: () => 1 };
      c.execution.hooks = {
        beforeAttempt: () => void events.push('attempt'),
        afterAttempt: (_a, response) => void events.push(`response ${response.statusCode}`),
        afterAttemptError: (_a, error) => void (events.push(`error ${error.name}`), errors.push(error)),
      };
    });
    expect(await client.get()).toBe('ok');
    expect(events).toEqual(['attempt', 'error TimeoutError', 'attempt', 'response 200']);
    expect(errors[0]).toBeInstanceOf(TimeoutError);
    expect(errors[0].timings).toMatchObject({ error: expect.any(Number), upload: expect.any(Number) });
    expect(errors[0].timings!.response).toBeUndefined();
    expectConsistent(errors[0].timings!);
  });

  it('a refused connection: the NetworkError carries the attempt timings', async () => {
    const closed = await closedPort();
    const client = kit.client((c) => void (c.request.uri = `http://127.0.0.1:${closed}`));
    const error = await client.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    const t = (error as HttpBuilderError).timings!;
    expect(t.error).toEqual(expect.any(Number));
    expect(t.response).toBeUndefined();
    expectConsistent(t);
  });
});
