import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import { ConfigError, HttpException, NetworkError, type HttpConfig } from '../../lib/index.js';
import { rawServer, type RawServer } from '../support/raw-server.js';
import { BACKENDS } from './backends.js';
import { conformance } from './kit.js';
import { backendClients } from '../support/backend-clients.js';

const QUICK = { backoff: () => 1 };

conformance('retries', (kit) => {
  /** `/flaky` answers `status` (with `headers`) `failures` times, then 200 'ok'. */
  function flaky(method: string, failures: number, status = 503, headers: Record<string, string> = {}) {
    let left = failures;
    return kit.server.expect({
      method,
      path: '/flaky',
      respond: (_req, res) => {
        if (left-- > 0) res.writeHead(status, headers).end('busy');
        else res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      },
    });
  }

  it('are off by default: a 503 goes to the failure handler after one request', async () => {
    const route = flaky('GET', 1);
    await expect(kit.client().get((c) => void (c.request.uri.path = '/flaky'))).rejects.toBeInstanceOf(HttpException);
    expect(route.calls).toBe(1);
  });

  it('retry a 503 up to the limit, then succeed', async () => {
    const route = flaky('GET', 2);
    const http = kit.client((c) => void (c.execution.retry = { limit: 2, ...QUICK }));
    await expect(http.get((c) => void (c.request.uri.path = '/flaky'))).resolves.toBe('ok');
    expect(route.calls).toBe(3);
  });

  it('after the last retry the response goes to the handlers', async () => {
    const route = flaky('GET', 5);
    const http = kit.client((c) => void (c.execution.retry = { limit: 2, ...QUICK }));
    await expect(http.get((c) => void (c.request.uri.path = '/flaky'))).rejects.toMatchObject({ statusCode: 503 });
    expect(route.calls).toBe(3);
  });

  it.each([408, 413, 429, 500, 502, 504])('retry %i by default', async (status) => {
    const route = flaky('GET', 1, status);
    await expect(kit.client((c) => void (c.execution.retry = { limit: 1, ...QUICK })).get((c) => void (c.request.uri.path = '/flaky'))).resolves.toBe('ok');
    expect(route.calls).toBe(2);
  });

  it('a status not listed is not retried (404), and statusCodes replaces the list', async () => {
    const notFound = flaky('GET', 1, 404);
    const http = kit.client((c) => void (c.execution.retry = { limit: 3, ...QUICK }));
    await expect(http.get((c) => void (c.request.uri.path = '/flaky'))).rejects.toMatchObject({ statusCode: 404 });
    expect(notFound.calls).toBe(1);
    kit.server.reset();
    const teapot = flaky('GET', 1, 418);
    await expect(
      http.get((c) => {
        c.request.uri.path = '/flaky';
        c.execution.retry = { statusCodes: [418] };
      }),
    ).resolves.toBe('ok');
    expect(teapot.calls).toBe(2);
  });

  it('POST is not retried by default; listed in methods, its in-memory body is sent again byte for byte', async () => {
    const route = flaky('POST', 1);
    const http = kit.client((c) => void (c.execution.retry = { limit: 2, ...QUICK }));
    const post = (block?: (c: HttpConfig) => void) =>
      http.post((c) => {
        c.request.uri.path = '/flaky';
        c.request.contentType = 'application/json';
        c.request.body = { a: 1 };
        block?.(c);
      });
    await expect(post()).rejects.toMatchObject({ statusCode: 503 });
    expect(route.calls).toBe(1);
    kit.server.reset();
    const again = flaky('POST', 1);
    await expect(post((c) => void (c.execution.retry = { methods: ['post'] }))).resolves.toBe('ok');
    expect(again.calls).toBe(2);
    expect(kit.server.requests.map((r) => r.body.toString())).toEqual(['{"a":1}', '{"a":1}']);
  });

  it('a streamed body is never sent twice: the 503 goes to the handlers', async () => {
    const route = flaky('PUT', 1);
    const http = kit.client((c) => void (c.execution.retry = { limit: 2, ...QUICK }));
    await expect(
      http.put((c) => {
        c.request.uri.path = '/flaky';
        c.request.contentType = 'text/plain';
        c.request.body = Readable.from([Buffer.from('streamed')]);
      }),
    ).rejects.toMatchObject({ statusCode: 503 });
    expect(route.calls).toBe(1);
  });

  it('a Retry-After within maxRetryAfter replaces the backoff (what the header says and how it is waited: spec/pipeline/retry-after.spec.ts)', async () => {
    flaky('GET', 1, 503, { 'Retry-After': '0' });
    const delays: number[] = [];
    const http = kit.client((c) => {
      c.execution.retry = { limit: 1, backoff: () => 5000 };
      c.execution.hooks = { beforeRetry: (_attempt, { delay }) => void delays.push(delay) };
    });
    const started = Date.now();
    await expect(http.get((c) => void (c.request.uri.path = '/flaky'))).resolves.toBe('ok');
    expect(delays).toEqual([0]); // the header's wait, not the 5 s backoff
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('a Retry-After beyond maxRetryAfter is not retried: the response goes to the handlers at once, no beforeRetry', async () => {
    const route = flaky('GET', 1, 503, { 'Retry-After': '2' });
    const retries: number[] = [];
    const http = kit.client((c) => {
      c.execution.retry = { limit: 3, backoff: () => 1, maxRetryAfter: 1999 };
      c.execution.hooks = { beforeRetry: (_attempt, { retryCount }) => void retries.push(retryCount) };
    });
    const started = Date.now();
    const answer = await http.get((c) => {
      c.request.uri.path = '/flaky';
      c.response.failure((fromServer) => `${fromServer.statusCode} retry after ${fromServer.headers.get('retry-after')}`);
    });
    expect(answer).toBe('503 retry after 2');
    expect(Date.now() - started).toBeLessThan(1000);
    expect([route.calls, retries.length]).toEqual([1, 0]);
  });

  it('by default a Retry-After beyond 60 s (seconds or an HTTP date) is not retried: HttpException 503', async () => {
    for (const retryAfter of ['61', new Date(Date.now() + 120_000).toUTCString()]) {
      // a client each: a 503 with Retry-After pauses its origin for the client's next calls
      const http = kit.client((c) => {
        c.execution.retry = { limit: 2, backoff: () => 1 };
        c.execution.timeout = { total: 3000 }; // a call that waited would fail with TimeoutError instead
      });
      kit.server.reset();
      const route = flaky('GET', 1, 503, { 'Retry-After': retryAfter });
      await expect(http.get((c) => void (c.request.uri.path = '/flaky'))).rejects.toMatchObject({ name: 'HttpException', statusCode: 503 });
      expect(route.calls).toBe(1);
    }
  });

  it('a Retry-After of 0, or a date in the past, retries at once', async () => {
    const http = kit.client((c) => void (c.execution.retry = { limit: 1, backoff: () => 5000, maxRetryAfter: 0 }));
    for (const retryAfter of ['0', new Date(Date.now() - 60_000).toUTCString()]) {
      kit.server.reset();
      const route = flaky('GET', 1, 429, { 'Retry-After': retryAfter });
      const started = Date.now();
      await expect(http.get((c) => void (c.request.uri.path = '/flaky'))).resolves.toBe('ok');
      expect(Date.now() - started).toBeLessThan(1000);
      expect(route.calls).toBe(2);
    }
  });

  it('maxRetryAfter is checked when set: a ConfigError naming it and the value, before anything is sent', async () => {
    const http = kit.client();
    for (const bad of [-1, NaN, Infinity, '60000']) {
      const error = await http.get((c) => void (c.execution.retry = { maxRetryAfter: bad as number })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(/^execution\.retry\.maxRetryAfter must be/);
      expect((error as Error).message).toMatch(typeof bad === 'number' ? String(bad) : /not a string$/);
    }
    expect(kit.server.requests).toHaveLength(0);
  });

  it('Retry-After as an HTTP date is honoured', async () => {
    // HTTP dates have whole seconds: 2 s ahead is between 1 and 2 s from now
    flaky('GET', 1, 429, { 'Retry-After': new Date(Date.now() + 2000).toUTCString() });
    const http = kit.client((c) => void (c.execution.retry = { limit: 1, backoff: () => 5000 }));
    const started = Date.now();
    await expect(http.get((c) => void (c.request.uri.path = '/flaky'))).resolves.toBe('ok');
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(900);
    expect(waited).toBeLessThan(2500);
  });

  it('the backoff is asked for each retry with its number', async () => {
    flaky('GET', 3);
    const attempts: number[] = [];
    const http = kit.client((c) => void (c.execution.retry = { limit: 3, backoff: (n) => (attempts.push(n), 1) }));
    await expect(http.get((c) => void (c.request.uri.path = '/flaky'))).resolves.toBe('ok');
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('the total timeout cuts a retry wait short', async () => {
    flaky('GET', 1, 503, { 'Retry-After': '30' });
    const http = kit.client((c) => {
      c.execution.retry = { limit: 1 };
      c.execution.timeout = { total: 200 };
    });
    await expect(http.get((c) => void (c.request.uri.path = '/flaky'))).rejects.toMatchObject({ name: 'TimeoutError', phase: 'total' });
  });
});

describe('retries after network failures', () => {
  let connections = 0;
  let resetsFirst: RawServer;
  let staleKeepAlive: RawServer;
  beforeAll(async () => {
    // every other connection is reset before any response
    resetsFirst = await rawServer((socket) => {
      if (connections++ % 2 === 0) socket.resetAndDestroy();
      else socket.end('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok');
    });
    // answers the first request on a connection and keeps it open, then resets it on the next
    staleKeepAlive = await rawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok');
      socket.once('data', () => socket.resetAndDestroy());
    });
  });
  afterAll(async () => {
    await Promise.all([resetsFirst.close(), staleKeepAlive.close()]);
  });

  for (const backend of BACKENDS) {
    describe(backend.name, () => {
      const client = backendClients(backend.choice);

      it('a reset connection is retried by the policy', async () => {
        connections = 0;
        const http = client(resetsFirst.url, (c) => void (c.execution.retry = { limit: 1, ...QUICK }));
        await expect(http.post((c) => void (c.execution.retry = { methods: ['POST'] }))).resolves.toBe('ok');
        expect(connections).toBe(2);
      });

      it('an idempotent request on a keep-alive connection the server dropped is sent again once, without a retry policy', async () => {
        const http = client(staleKeepAlive.url);
        await expect(http.get()).resolves.toBe('ok');
        await expect(http.get()).resolves.toBe('ok'); // first try on the reused connection is reset
        await expect(http.put()).resolves.toBe('ok');
      });

      it('a POST on a dropped keep-alive connection is not sent again: NetworkError reset', async () => {
        const http = client(staleKeepAlive.url);
        await expect(http.get()).resolves.toBe('ok');
        await new Promise((resolve) => setTimeout(resolve, 20)); // undici frees the socket a tick late (trait sequentialSockets)
        const error = await http.post().catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NetworkError);
        expect(error).toMatchObject({ reason: 'reset' });
      });
    });
  }
});
