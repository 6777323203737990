// Flow control (client.concurrency, client.rateLimit, servers' Retry-After, idempotency keys) on
// every backend, measured where it counts: the server's own counts and arrival times.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { AbortError, TimeoutError, type HttpConfig } from '../../lib/index.js';
import { Stream } from '../../lib/stream.js';
import type { RecordedRequest } from '../support/recorded-request.js';
import { ProxyServer } from '../support/proxy-server.js';
import { CookieJar } from 'tough-cookie';
import { conformance, type Kit } from './kit.js';

const TEXT = { 'Content-Type': 'text/plain' };

let proxy: ProxyServer;
beforeAll(async () => {
  proxy = await ProxyServer.start({});
});
afterAll(() => proxy.close());
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A route that answers after `ms`, counting the requests in flight at the server; `seen` holds each arrival (query n, time). */
function slowRoute(kit: Kit, path: string, ms: number) {
  const state = { inFlight: 0, most: 0, seen: [] as Array<{ n: string; at: number }> };
  kit.server.expect({
    method: 'GET',
    path,
    respond: async (req: RecordedRequest, res: ServerResponse) => {
      state.seen.push({ n: req.query.n?.[0] ?? '', at: performance.now() });
      state.most = Math.max(state.most, ++state.inFlight);
      await pause(ms);
      res.writeHead(200, TEXT);
      res.end(`done ${req.query.n?.[0] ?? ''}`);
      state.inFlight--;
    },
  });
  return state;
}

conformance('client.concurrency', (kit) => {
  it('at most total calls are in flight; the others wait their turn and all complete', async () => {
    const state = slowRoute(kit, '/slow', 60);
    const client = kit.client((c) => void (c.client.concurrency = { total: 2 }));
    const calls = Array.from({ length: 6 }, (_, n) => client.get((c) => void ((c.request.uri.path = '/slow'), (c.request.uri.query = { n }))));
    expect(await Promise.all(calls)).toEqual(Array.from({ length: 6 }, (_, n) => `done ${n}`));
    expect(state.most).toBe(2);
    // in order: the last two go out after the first four
    expect(
      state.seen
        .slice(4)
        .map((s) => s.n)
        .sort(),
    ).toEqual(['4', '5']);
  });

  it('perOrigin bounds the calls to one origin', async () => {
    const state = slowRoute(kit, '/slow', 40);
    const client = kit.client((c) => void (c.client.concurrency = { perOrigin: 1 }));
    await Promise.all(Array.from({ length: 3 }, (_, n) => client.get((c) => void ((c.request.uri.path = '/slow'), (c.request.uri.query = { n })))));
    expect(state.most).toBe(1);
  });

  it('a waiting call can be aborted, and its total timeout counts the wait; neither is ever sent', async () => {
    const state = slowRoute(kit, '/slow', 300);
    const client = kit.client((c) => void (c.client.concurrency = { total: 1 }));
    const first = client.get((c) => void ((c.request.uri.path = '/slow'), (c.request.uri.query = { n: 'first' })));
    const aborted = client.get((c) => {
      c.request.uri.path = '/slow';
      c.request.uri.query = { n: 'aborted' };
      c.execution.signal = AbortSignal.timeout(30);
    });
    const timedOut = client.get((c) => {
      c.request.uri.path = '/slow';
      c.request.uri.query = { n: 'timed out' };
      c.execution.timeout = { total: 60 };
    });
    await expect(aborted).rejects.toBeInstanceOf(AbortError);
    await expect(timedOut).rejects.toBeInstanceOf(TimeoutError);
    await expect(timedOut).rejects.toMatchObject({ phase: 'total' });
    expect(await first).toBe('done first');
    expect(state.seen.map((s) => s.n)).toEqual(['first']);
    // the slot the stopped calls waited for is free: a later call goes
    expect(await client.get((c) => void ((c.request.uri.path = '/slow'), (c.request.uri.query = { n: 'later' })))).toBe('done later');
  });

  it('a Stream holds its slot until it is closed: breaking out of the loop frees it', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    kit.server.expect({
      method: 'GET',
      path: '/feed',
      respond: async (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('one\n');
        await gate;
        res.end('two\n');
      },
    });
    const state = slowRoute(kit, '/slow', 1);
    const client = kit.client((c) => void (c.client.concurrency = { total: 1 }));
    const lines = await client.get((c) => {
      c.request.uri.path = '/feed';
      return Stream.lines(c);
    });
    const next = client.get((c) => void ((c.request.uri.path = '/slow'), (c.request.uri.query = { n: 'after' })));
    await pause(50);
    expect(state.seen).toEqual([]); // waits: the stream is still open
    for await (const line of lines) {
      expect(line).toBe('one');
      break;
    }
    expect(await next).toBe('done after');
    release();
  });
});

conformance('client.rateLimit and servers asking to slow down', (kit) => {
  it('no window of interval ms holds more than requests attempts to the origin', async () => {
    const state = slowRoute(kit, '/limited', 0);
    const client = kit.client((c) => void (c.client.rateLimit = { requests: 3, interval: 200 }));
    const started = performance.now();
    await Promise.all(Array.from({ length: 7 }, (_, n) => client.get((c) => void ((c.request.uri.path = '/limited'), (c.request.uri.query = { n })))));
    const times = state.seen.map((s) => s.at).sort((a, b) => a - b);
    expect(times).toHaveLength(7);
    for (let i = 3; i < times.length; i++) expect(times[i] - times[i - 3]).toBeGreaterThanOrEqual(195);
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
  });

  it("a 429 with Retry-After pauses every call's new attempts to that origin (at most retry.maxRetryAfter), without retries", async () => {
    kit.server.expect({ method: 'GET', path: '/busy', respond: { status: 429, headers: { ...TEXT, 'Retry-After': '5' }, body: 'slow down' } });
    const state = slowRoute(kit, '/other', 0);
    const client = kit.client((c) => void (c.execution.retry = { maxRetryAfter: 250 }));
    const before = performance.now();
    await expect(client.get((c) => void (c.request.uri.path = '/busy'))).rejects.toMatchObject({ statusCode: 429 });
    expect(await client.get((c) => void (c.request.uri.path = '/other'))).toBe('done ');
    const waited = state.seen[0].at - before;
    expect(waited).toBeGreaterThanOrEqual(240);
    expect(waited).toBeLessThan(2000);
  });
});

conformance('execution.retry.idempotencyKey', (kit) => {
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('one key on every attempt of a POST, which is then retried', async () => {
    let tries = 0;
    kit.server.expect({
      method: 'POST',
      path: '/payments',
      respond: (_req, res) => {
        res.writeHead(++tries < 3 ? 503 : 201, TEXT);
        res.end(tries < 3 ? 'busy' : 'paid');
      },
    });
    const client = kit.client((c) => void (c.execution.retry = { limit: 3, idempotencyKey: true, backoff: () => 5 }));
    const paid = await client.post((c) => {
      c.request.uri.path = '/payments';
      c.request.contentType = 'application/json';
      c.request.body = { amount: 10 };
    });
    expect(paid).toBe('paid');
    const keys = kit.server.requests.map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3);
    expect(new Set(keys).size).toBe(1);
    expect(keys[0]).toMatch(UUID);
  });

  it("each call its own key; the request's own Idempotency-Key is kept; PATCH too, even without retries", async () => {
    kit.server.expect({ method: 'PATCH', path: '/orders/1', respond: { headers: TEXT, body: 'ok' } });
    const client = kit.client((c) => void (c.execution.retry = { idempotencyKey: true }));
    const patch = (own?: string) =>
      client.patch((c) => {
        c.request.uri.path = '/orders/1';
        c.request.contentType = 'application/json';
        c.request.body = { state: 'sent' };
        if (own) c.request.headers['Idempotency-Key'] = own;
      });
    await patch();
    await patch();
    await patch('order-1-v2');
    const keys = kit.server.requests.map((r) => r.headers['idempotency-key']);
    expect(keys[0]).toMatch(UUID);
    expect(keys[1]).toMatch(UUID);
    expect(keys[0]).not.toBe(keys[1]);
    expect(keys[2]).toBe('order-1-v2');
  });

  it('a GET carries no key', async () => {
    kit.server.expect({ method: 'GET', path: '/plain', respond: { headers: TEXT, body: 'ok' } });
    await kit.client((c) => void (c.execution.retry = { idempotencyKey: true })).get((c) => void (c.request.uri.path = '/plain'));
    expect(kit.server.requests[0].headers['idempotency-key']).toBeUndefined();
  });
});

conformance('client.dedupe', (kit) => {
  function sharedRoute(path: string) {
    kit.server.expect({
      method: 'GET',
      path,
      respond: async (_req, res) => {
        await pause(50);
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ items: [1, 2, 3], note: 'x'.repeat(100_000) }));
      },
    });
  }

  it('ten concurrent identical GETs make one request; each caller gets its own result, whatever its type', async () => {
    sharedRoute('/shared');
    const client = kit.client((c) => void (c.client.dedupe = true));
    const get = () => client.get((c) => void (c.request.uri.path = '/shared')) as Promise<{ items: number[] }>;
    const calls = [...Array.from({ length: 9 }, get), client.get(String, (c) => void (c.request.uri.path = '/shared'))];
    const results = await Promise.all(calls);
    expect(kit.server.requests).toHaveLength(1);
    const objects = results.slice(0, 9) as Array<{ items: number[] }>;
    expect(new Set(objects).size).toBe(9); // no shared mutable object
    objects[0].items.push(4);
    expect(objects[1].items).toEqual([1, 2, 3]);
    expect(JSON.parse(results[9] as string)).toMatchObject({ items: [1, 2, 3] });
    // once it is over, the next GET goes out again
    await get();
    expect(kit.server.requests).toHaveLength(2);
  });

  it('other headers or other credentials never share', async () => {
    sharedRoute('/mine');
    const client = kit.client((c) => void (c.client.dedupe = true));
    await Promise.all([
      client.get((c) => void (c.request.uri.path = '/mine')),
      client.get((c) => void ((c.request.uri.path = '/mine'), (c.request.headers['X-Tenant'] = 'b'))),
      client.get((c) => void ((c.request.uri.path = '/mine'), c.request.auth.basic('alice', 'a-secret', { preemptive: true }))),
      client.get((c) => void ((c.request.uri.path = '/mine'), c.request.auth.basic('bob', 'b-secret', { preemptive: true }))),
    ]);
    expect(kit.server.requests).toHaveLength(4);
  });

  it('calls whose credentials come from a token function, or whose hooks may change them, never share', async () => {
    sharedRoute('/per-user');
    const users = ['alice', 'bob'];
    let next = 0;
    const byFunction = kit.client((c) => {
      c.client.dedupe = true;
      c.request.auth.bearer(() => `token-${users[next++ % 2]}`);
    });
    const byHook = kit.client((c) => {
      c.client.dedupe = true;
      c.execution.hooks = { beforeAttempt: (attempt) => void (attempt.headers['X-User'] = users[next++ % 2]) };
    });
    await Promise.all([0, 1].map(() => byFunction.get((c) => void (c.request.uri.path = '/per-user'))));
    await Promise.all([0, 1].map(() => byHook.get((c) => void (c.request.uri.path = '/per-user'))));
    expect(kit.server.requests).toHaveLength(4);
    expect(
      kit.server.requests
        .slice(0, 2)
        .map((r) => r.headers.authorization)
        .sort(),
    ).toEqual(['Bearer token-alice', 'Bearer token-bob']);
  });

  it("derived clients with their own cookie jars never share (each user's Cookie goes out), nor a call with its own signal", async () => {
    sharedRoute('/me');
    const origin = kit.server.url(kit.secure);
    const [alice, bob] = [new CookieJar(), new CookieJar()];
    alice.setCookieSync('session=alice; Path=/', origin);
    bob.setCookieSync('session=bob; Path=/', origin);
    const base = kit.client((c) => void (c.client.dedupe = true));
    const asAlice = base.configure((c) => void (c.client.cookies = alice));
    const asBob = base.configure((c) => void (c.client.cookies = bob));
    await Promise.all([asAlice, asBob].map((client) => client.get((c) => void (c.request.uri.path = '/me'))));
    expect(kit.server.requests.map((r) => r.cookies.session).sort()).toEqual(['alice', 'bob']);
    const signalled = new AbortController();
    await Promise.all([
      base.get((c) => void (c.request.uri.path = '/me')),
      base.get((c) => void ((c.request.uri.path = '/me'), (c.execution.signal = signalled.signal))),
    ]);
    expect(kit.server.requests).toHaveLength(4);
  });

  it('a caller with a shorter total timeout has its exchange of its own: giving up leaves the others theirs', async () => {
    sharedRoute('/slowly');
    kit.server.expect({ method: 'GET', path: '/warm', respond: { headers: TEXT, body: 'warm' } });
    const client = kit.client((c) => void (c.client.dedupe = true));
    // the connection first: a stream cancelled while native's HTTP/2 session is still being set up can take its sibling with it
    await client.get((c) => void (c.request.uri.path = '/warm'));
    kit.server.requests.length = 0;
    const first = client.get((c) => void (c.request.uri.path = '/slowly'));
    const quitter = client.get((c) => void ((c.request.uri.path = '/slowly'), (c.execution.timeout = { total: 10 })));
    const third = client.get((c) => void (c.request.uri.path = '/slowly'));
    await expect(quitter).rejects.toBeInstanceOf(TimeoutError);
    expect(await first).toMatchObject({ items: [1, 2, 3] });
    expect(await third).toMatchObject({ items: [1, 2, 3] });
    // the two without a timeout shared one request; the quitter's own may or may not have arrived before it gave up
    expect(kit.server.requests.length).toBeGreaterThanOrEqual(1);
    expect(kit.server.requests.length).toBeLessThanOrEqual(2);
  });
});

conformance('flow control and the rest of the client', (kit) => {
  it('derived clients share their parent’s slots, a new pool too (another setting); one with its own concurrency has its own', async () => {
    const state = slowRoute(kit, '/slow', 40);
    const parent = kit.client((c) => void (c.client.concurrency = { total: 1 }));
    const child = parent.configure((c) => void (c.request.headers['X-Child'] = '1'));
    const poolOfItsOwn = parent.configure((c) => void (c.client.dedupe = true));
    const other = parent.configure((c) => void (c.client.concurrency = { total: 5 }));
    const query = (n: string) => (c: HttpConfig) => void ((c.request.uri.path = '/slow'), (c.request.uri.query = { n }));
    await Promise.all([parent.get(query('p')), child.get(query('c')), poolOfItsOwn.get(query('d'))]);
    expect(state.most).toBe(1);
    await poolOfItsOwn.close();
    state.most = 0;
    await Promise.all([other.get(query('o1')), other.get(query('o2')), other.get(query('o3'))]);
    expect(state.most).toBeGreaterThan(1);
    await other.close();
  });

  it('an answer from the cache takes no rate-limit turn and no request', async () => {
    kit.server.expect({ method: 'GET', path: '/cached', respond: { headers: { ...TEXT, 'Cache-Control': 'max-age=600' }, body: 'kept' } });
    const client = kit.client((c) => {
      c.client.cache = true;
      c.client.rateLimit = { requests: 1, interval: 5000 };
    });
    const started = performance.now();
    for (let i = 0; i < 3; i++) expect(await client.get((c) => void (c.request.uri.path = '/cached'))).toBe('kept');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(kit.server.requests).toHaveLength(1);
  });

  it('through a proxy, the limits are the target origin’s', async () => {
    const state = slowRoute(kit, '/proxied', 30);
    const client = kit.client((c) => {
      c.client.proxy = proxy.url;
      c.client.concurrency = { perOrigin: 1 };
      c.client.rateLimit = { requests: 2, interval: 150 };
    });
    await Promise.all([1, 2, 3].map((n) => client.get((c) => void ((c.request.uri.path = '/proxied'), (c.request.uri.query = { n })))));
    expect(state.most).toBe(1);
    const times = state.seen.map((s) => s.at);
    expect(times[2] - times[0]).toBeGreaterThanOrEqual(140);
    expect(proxy.seen.length).toBeGreaterThan(0);
  });

  it('close() ends the waits at once: a call waiting for a slot or for its turn rejects with AbortError', async () => {
    slowRoute(kit, '/slow', 200);
    const client = kit.client((c) => {
      c.client.concurrency = { total: 1 };
      c.client.rateLimit = { requests: 1, interval: 60_000 };
    });
    const first = client.get((c) => void (c.request.uri.path = '/slow')).catch((e: unknown) => e);
    const waiting = client.get((c) => void (c.request.uri.path = '/slow')).catch((e: unknown) => e);
    await pause(20);
    const closedAt = performance.now();
    await client.close();
    expect(await waiting).toBeInstanceOf(AbortError);
    expect(performance.now() - closedAt).toBeLessThan(1000);
    await first;
  });

  it('hooks see an attempt when it goes, after its wait', async () => {
    const state = slowRoute(kit, '/paced', 0);
    const seen: number[] = [];
    const client = kit.client((c) => {
      c.client.rateLimit = { requests: 1, interval: 150 };
      c.execution.hooks = { beforeAttempt: () => void seen.push(performance.now()) };
    });
    await Promise.all([1, 2].map((n) => client.get((c) => void ((c.request.uri.path = '/paced'), (c.request.uri.query = { n })))));
    expect(state.seen).toHaveLength(2);
    expect(seen[1] - seen[0]).toBeGreaterThanOrEqual(140);
  });
});
