import { expect, it } from '@jest/globals';
import { ConfigError, NetworkError, TimeoutError, type Attempt, type Backend, type Hooks, type WireResponse } from '../../lib/index.js';
import { pipeline } from './kit.js';

const QUICK = { backoff: () => 1 };
const path = (url: string) => new URL(url).pathname;

/** Hooks that write what they see as one line each into `events`. */
function recording(events: string[], tag = ''): Hooks {
  return {
    beforeAttempt: (a) => void events.push(`${tag}beforeAttempt ${a.method} ${path(a.url)}`),
    afterAttempt: (a, r) => void events.push(`${tag}afterAttempt ${path(a.url)} ${r.statusCode}`),
    beforeRetry: (a, r) => void events.push(`${tag}beforeRetry ${path(a.url)} #${r.retryCount} ${r.statusCode ?? r.error?.name} ${r.delay} ms`),
    beforeRedirect: (from, to) => void events.push(`${tag}beforeRedirect ${path(from.url)} → ${path(to.url)} ${to.method} ${to.statusCode}`),
  };
}

pipeline('execution.hooks', (kit) => {
  it('run around every attempt, in order, across a retry and a redirect', async () => {
    kit.mock.on('GET', '/a').reply(503);
    kit.mock.on('GET', '/a').reply(302, '', { Location: '/b' });
    kit.mock.on('GET', '/b').reply(200, 'ok', { 'Content-Type': 'text/plain' });
    const events: string[] = [];
    const client = kit.client((c) => {
      c.execution.retry = { limit: 2, ...QUICK };
      c.execution.hooks = recording(events);
    });
    expect(await client.get((c) => void (c.request.uri.path = '/a'))).toBe('ok');
    expect(events).toEqual([
      'beforeAttempt GET /a',
      'afterAttempt /a 503',
      'beforeRetry /a #1 503 1 ms',
      'beforeAttempt GET /a',
      'afterAttempt /a 302',
      'beforeRedirect /a → /b GET 302',
      'beforeAttempt GET /b',
      'afterAttempt /b 200',
    ]);
  });

  it("a request's hooks run in addition to its client's (and a derived client's), the outer level's first", async () => {
    kit.mock.on('GET', '/x').reply(200, 'ok');
    const events: string[] = [];
    const parent = kit.client((c) => void (c.execution.hooks = { beforeAttempt: () => void events.push('parent') }));
    const child = parent.configure((c) => void (c.execution.hooks = { beforeAttempt: () => void events.push('child') }));
    await child.get((c) => {
      c.request.uri.path = '/x';
      c.execution.hooks = { beforeAttempt: () => void events.push('request') };
    });
    expect(events).toEqual(['parent', 'child', 'request']);
  });

  it('a network failure retried: beforeRetry gets the error, no status', async () => {
    kit.mock.on('GET', '/r').fail('refused');
    kit.mock.on('GET', '/r').reply(200, 'ok');
    const seen: unknown[] = [];
    const client = kit.client((c) => {
      c.execution.retry = { limit: 1, ...QUICK };
      c.execution.hooks = { beforeRetry: (_a, retry) => void seen.push(retry) };
    });
    await client.get((c) => void (c.request.uri.path = '/r'));
    expect(seen).toEqual([{ error: expect.any(NetworkError), retryCount: 1, delay: 1 }]);
  });

  it('every hook about one attempt gets the same object; async hooks are awaited in turn', async () => {
    kit.mock.on('GET', '/same').reply(200, 'ok');
    const seen: Attempt[] = [];
    const client = kit.client((c) => {
      c.execution.hooks = {
        beforeAttempt: async (a) => {
          await new Promise((resolve) => setTimeout(resolve, 10));
          a.headers['X-Late'] = 'set after a wait';
          seen.push(a);
        },
        afterAttempt: (a) => void seen.push(a),
      };
    });
    await client.get((c) => void (c.request.uri.path = '/same'));
    expect(seen).toHaveLength(2);
    expect(seen[0]).toBe(seen[1]);
    expect(kit.mock.calls[0].headers['x-late']).toBe('set after a wait');
  });

  it('the attempt shows the body bytes when the body is in memory', async () => {
    kit.mock.on('POST', '/body').reply(200, 'ok');
    let body: string | undefined;
    await kit
      .client((c) => void (c.execution.hooks = { beforeAttempt: (a) => void (body = a.body && Buffer.from(a.body).toString()) }))
      .post((c) => {
        c.request.uri.path = '/body';
        c.request.contentType = 'application/json';
        c.request.body = { a: 1 };
      });
    expect(body).toBe('{"a":1}');
  });

  it('a throwing hook fails the call with that very error, past interceptors and the exception handler, nothing retried', async () => {
    kit.mock.on('GET', '/boom').persist().reply(503);
    const thrown = new Error('hook failed');
    for (const hooks of [
      { beforeAttempt: () => Promise.reject(thrown) },
      {
        afterAttempt: () => {
          throw thrown;
        },
      },
      {
        beforeRetry: () => {
          throw thrown;
        },
      },
    ] satisfies Hooks[]) {
      const before = kit.mock.calls.length;
      let intercepted: unknown;
      const client = kit.client((c) => {
        c.execution.retry = { limit: 3, ...QUICK };
        c.execution.hooks = hooks;
        c.response.exception(() => 'handled');
        c.execution.interceptor('GET', (request, next) => next(request).catch((e: unknown) => Promise.reject((intercepted = e) as Error)));
      });
      await expect(client.get((c) => void (c.request.uri.path = '/boom'))).rejects.toBe(thrown);
      expect(intercepted).toBe(thrown);
      expect(kit.mock.calls.length - before).toBe('beforeAttempt' in hooks ? 0 : 1);
    }
  });

  it("a throwing afterAttempt discards the response it saw; a beforeRedirect's throw comes after the 3xx is released", async () => {
    kit.mock.on('GET', '/r1').reply(302, '', { Location: '/r2' });
    kit.mock.on('GET', '/r3').reply(200, 'ok');
    const discarded: number[] = [];
    const spy: Backend = {
      name: 'spy',
      async send(request) {
        const response = await kit.mock.send(request);
        return { ...response, discard: () => void (discarded.push(response.statusCode), response.discard()) } satisfies WireResponse;
      },
      close: () => Promise.resolve(),
    };
    const thrown = new Error('no');
    const fail = () => {
      throw thrown;
    };
    const client = kit.client((c) => void (c.client.backend = spy));
    await expect(client.get((c) => void ((c.request.uri.path = '/r3'), (c.execution.hooks = { afterAttempt: fail })))).rejects.toBe(thrown);
    await expect(client.get((c) => void ((c.request.uri.path = '/r1'), (c.execution.hooks = { beforeRedirect: fail })))).rejects.toBe(thrown);
    expect(discarded).toEqual([200, 302]);
    expect(kit.mock.calls.map((call) => path(call.url))).toEqual(['/r3', '/r1']);
  });

  it('headers set in beforeAttempt go on that attempt only; the request and its retry start from the config again', async () => {
    kit.mock.on('GET', '/h').reply(503);
    kit.mock.on('GET', '/h').reply(200, 'ok');
    let n = 0;
    const config = { 'X-Fixed': 'kept' };
    const client = kit.client((c) => {
      c.request.headers = config;
      c.execution.retry = { limit: 1, ...QUICK };
      c.execution.hooks = {
        beforeAttempt(a) {
          expect(a.headers['X-Mine']).toBeUndefined();
          a.headers['X-Mine'] = `attempt ${++n}`;
          delete a.headers['X-Fixed'];
        },
      };
    });
    await client.get((c) => void (c.request.uri.path = '/h'));
    expect(kit.mock.calls.map((call) => [call.headers['x-mine'], call.headers['x-fixed']])).toEqual([
      ['attempt 1', undefined],
      ['attempt 2', undefined],
    ]);
    expect(config).toEqual({ 'X-Fixed': 'kept' });
  });

  it("beforeRedirect's headers go to the next hop", async () => {
    kit.mock.on('GET', '/from').reply(307, '', { Location: '/to' });
    kit.mock.on('GET', '/to').reply(200, 'ok');
    await kit
      .client((c) => void (c.execution.hooks = { beforeRedirect: (_from, to) => void (to.headers['X-Hop'] = 'yes') }))
      .get((c) => void (c.request.uri.path = '/from'));
    expect(kit.mock.calls.map((call) => call.headers['x-hop'])).toEqual([undefined, 'yes']);
  });

  it('a header a hook sets is checked as the configured ones are; the framing stays the body’s', async () => {
    kit.mock.on('POST', '/bad').persist().reply(200, 'ok');
    const post = (hooks: Hooks) =>
      kit
        .client((c) => void (c.execution.hooks = hooks))
        .post((c) => {
          c.request.uri.path = '/bad';
          c.request.body = 'text';
        });
    await expect(post({ beforeAttempt: (a) => void (a.headers['X-Bad'] = 'a\r\nb') })).rejects.toThrow(
      /execution.hooks.beforeAttempt left a header the request cannot carry: header 'X-Bad'/,
    );
    await expect(post({ beforeAttempt: (a) => void (a.headers['Content-Length'] = '99') })).rejects.toThrow(ConfigError);
    expect(kit.mock.calls).toHaveLength(0);
  });

  it('a hook still pending when the total timeout expires is waited for no longer', async () => {
    kit.mock.on('GET', '/never').reply(200, 'ok');
    const client = kit.client((c) => {
      c.execution.timeout = { total: 50 };
      c.execution.hooks = { beforeAttempt: () => new Promise(() => {}) };
    });
    await expect(client.get((c) => void (c.request.uri.path = '/never'))).rejects.toMatchObject({ constructor: TimeoutError, phase: 'total' });
  });

  it('unknown hook names and hooks that are no functions are ConfigErrors naming them', async () => {
    kit.mock.on('GET', '/cfg').persist().reply(200, 'ok');
    const get = (hooks: unknown) => kit.client().get((c) => void ((c.request.uri.path = '/cfg'), (c.execution.hooks = hooks as Hooks)));
    await expect(get({ beforeAtempt: () => {} })).rejects.toThrow("execution.hooks has no hook 'beforeAtempt'");
    await expect(get({ afterAttempt: 'log' })).rejects.toThrow('execution.hooks.afterAttempt must be a function');
    await expect(get([() => {}])).rejects.toThrow(ConfigError);
    const misspelled = kit.client().get((c) => void ((c.request.uri.path = '/cfg'), ((c.execution as unknown as Record<string, unknown>).hook = {})));
    await expect(misspelled).rejects.toThrow('c.execution.hook is not a setting');
    expect(kit.mock.calls).toHaveLength(0);
  });

  it("a class instance's methods are hooks, called on the instance", async () => {
    kit.mock.on('GET', '/cls').reply(200, 'ok');
    class Signer {
      readonly #key = 'k1';
      beforeAttempt(a: Attempt) {
        a.headers['X-Key'] = this.#key;
      }
    }
    await kit.client((c) => void (c.execution.hooks = new Signer())).get((c) => void (c.request.uri.path = '/cls'));
    expect(kit.mock.calls[0].headers['x-key']).toBe('k1');
  });

  it("a call without hooks sends the client's shared headers as they are (no copy)", async () => {
    kit.mock.on('GET', '/plain').times(2).reply(200, 'ok');
    const seen: object[] = [];
    const spy: Backend = { name: 'spy', send: (request) => (seen.push(request.headers), kit.mock.send(request)), close: () => Promise.resolve() };
    const client = kit.client((c) => void (c.client.backend = spy));
    await client.get((c) => void (c.request.uri.path = '/plain'));
    await client.get((c) => void (c.request.uri.path = '/plain'));
    expect(seen[0]).toBe(seen[1]);
  });
});
