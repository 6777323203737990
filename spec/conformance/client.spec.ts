import { expect, it } from '@jest/globals';
import { ConfigError, HttpBuilder, type HttpConfig } from '../../lib/index.js';
import { untilClosed } from '../support/until-closed.js';
import { conformance } from './kit.js';

const OK = { headers: { 'Content-Type': 'text/plain' }, body: 'ok' };

conformance('clients: configure, derive, close', (kit) => {
  it('HttpBuilder.configure() takes a block in either style', async () => {
    kit.server.expect({ method: 'GET', path: '/styles', respond: OK });
    const url = kit.server.url(kit.secure);
    const consumer = kit.client((c) => void (c.request.headers['X-Style'] = 'consumer'));
    const closure = kit.client(function (this: HttpConfig) {
      this.request.headers['X-Style'] = 'closure';
    });
    await consumer.get((c) => void (c.request.uri = `${url}/styles`));
    await closure.get((c) => void (c.request.uri = `${url}/styles`));
    expect(kit.server.requests.map((r) => r.headers['x-style'])).toEqual(['consumer', 'closure']);
  });

  it('a derived client inherits settings and leaves its parent untouched', async () => {
    kit.server.expect({ method: 'GET', path: '/derive', respond: OK });
    const parent = kit.client((c) => {
      c.request.uri.path = '/derive';
      c.request.headers['X-Level'] = 'parent';
      c.request.cookies = { a: '1' };
    });
    const child = parent.configure((c) => {
      c.request.headers['x-level'] = 'child';
      c.request.cookie('b', '2');
    });
    await child.get();
    await parent.get();
    const [fromChild, fromParent] = kit.server.requests;
    expect([fromChild.headers['x-level'], fromChild.headers.cookie]).toEqual(['child', 'a=1; b=2']);
    expect([fromParent.headers['x-level'], fromParent.headers.cookie]).toEqual(['parent', 'a=1']);
  });

  it('a request block never changes the client', async () => {
    kit.server.expect({ method: 'GET', path: '/same', respond: OK });
    const client = kit.client((c) => void (c.request.uri.path = '/same'));
    await client.get((c) => void (c.request.headers['X-Once'] = 'yes'));
    await client.get();
    expect(kit.server.requests.map((r) => r.headers['x-once'])).toEqual(['yes', undefined]);
  });

  it('HttpBuilder.configure() with no block needs a URI per request', async () => {
    kit.server.expect({ method: 'GET', path: '/bare', respond: OK });
    const bare = HttpBuilder.configure((c) => void (c.execution.tls = { ca: kit.server.ca }));
    try {
      expect(await bare.get((c) => void (c.request.uri = `${kit.server.url(kit.secure)}/bare`))).toBe('ok');
      await expect(HttpBuilder.configure().get()).rejects.toThrow(/request.uri has no scheme and host/);
    } finally {
      await bare.close();
    }
  });

  it('a client block that sets a bad URI throws from configure()', () => {
    expect(() => HttpBuilder.configure((c) => void (c.request.uri = 'nope'))).toThrow(/not a valid absolute URL/);
  });

  it('close() releases pooled connections; derived clients share the pool, and closing one releases nothing', async () => {
    kit.server.expect({ method: 'GET', path: '/pool', respond: OK });
    const client = kit.client((c) => void (c.request.uri.path = '/pool'));
    const derived = client.configure((c) => void (c.request.headers['X-D'] = '1'));
    for (let i = 0; i < 3; i++) await Promise.all([client.get(), derived.get()]);
    expect(new Set(kit.server.requests.map((r) => r.remotePort)).size).toBeLessThanOrEqual(2 * kit.traits.sequentialSockets);
    expect(kit.server.openConnections).toBeGreaterThan(0);
    await derived.close();
    // the derived client shares its parent's pool: its close() lets go of nothing
    expect(await client.get(String)).toBe('ok');
    expect(await derived.get(String)).toBe('ok');
    expect(kit.server.openConnections).toBeGreaterThan(0);
    await client.close();
    await untilClosed(kit.server);
    await expect(derived.get()).rejects.toThrow(/the client was closed/);
  });

  it('a derived client with a pool of its own (another backend or TLS settings) releases only that one', async () => {
    kit.server.expect({ method: 'GET', path: '/own', respond: OK });
    const client = kit.client((c) => void (c.request.uri.path = '/own'));
    const own = client.configure((c) => void (c.execution.tls = { ca: kit.server.ca, rejectUnauthorized: true }));
    expect(await own.get(String)).toBe('ok');
    await own.close();
    await expect(own.get()).rejects.toThrow(ConfigError);
    expect(await client.get(String)).toBe('ok');
  });

  it('close() fails a request in flight with AbortError (through the exception handler), without sending it again, and refuses later ones before sending', async () => {
    kit.server.expect({ method: 'GET', path: '/never', respond: () => {} });
    const client = kit.client((c) => void (c.request.uri.path = '/never'));
    const seen: unknown[] = [];
    const pending = client
      .get(
        (c) =>
          void c.response.exception((error) => {
            seen.push(error);
            throw error;
          }),
      )
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    while (kit.server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await client.close();
    // its connection cut (a reset), the GET is not sent once more: the call was stopped from outside
    expect(await pending).toMatchObject({ name: 'AbortError', message: expect.stringMatching(/close\(\) of its client/) as unknown });
    expect(seen).toHaveLength(1);
    await expect(client.get()).rejects.toThrow(ConfigError);
    await expect(client.configure((c) => void (c.request.headers['X-D'] = '1')).get()).rejects.toThrow(/the client was closed/);
    expect(kit.server.requests).toHaveLength(1);
    await untilClosed(kit.server);
  });

  it('close() while a retry waits: nothing more is sent, and the call rejects with AbortError', async () => {
    kit.server.expect({ method: 'GET', path: '/busy', respond: { status: 503, headers: { 'Content-Type': 'text/plain' }, body: 'busy' } });
    const client = kit.client((c) => {
      c.request.uri.path = '/busy';
      c.execution.retry = { limit: 2, backoff: () => 150 };
    });
    const pending = client.get().catch((error: unknown) => error);
    while (kit.server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    await client.close();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    expect(kit.server.requests).toHaveLength(1);
  });

  // on a fresh client the backend is still loading (axios, got, fetch) when close() comes: got then sent it on the released pool
  it('a request made just before close() on a fresh client is refused, and nothing is sent', async () => {
    kit.server.expect({ method: 'GET', path: '/late', respond: OK });
    const client = kit.client((c) => void (c.request.uri.path = '/late'));
    const pending = client.get(String).then(
      () => undefined,
      (error: unknown) => error,
    );
    await client.close();
    expect(await pending).toMatchObject({ name: 'AbortError' });
    expect(kit.server.requests).toHaveLength(0);
    await untilClosed(kit.server);
  });

  it('close() while a body is being read fails the call with AbortError', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/drip',
      respond: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '100' });
        res.write('x');
      },
    });
    let reading: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (reading = resolve));
    const client = kit.client((c) => void (c.request.uri.path = '/drip'));
    const pending = client
      .get((c) => {
        c.response.parser('text/plain', (fromServer) => {
          reading();
          return fromServer.text();
        });
      })
      .catch((error: unknown) => error);
    await started;
    await client.close();
    expect(await pending).toMatchObject({ name: 'AbortError', cause: { name: 'NetworkError', reason: 'reset' } });
    expect(kit.server.requests).toHaveLength(1);
  });

  it('concurrent requests on one client all complete', async () => {
    kit.server.expect({ method: 'GET', path: '/many', respond: OK });
    const client = kit.client((c) => void (c.request.uri.path = '/many'));
    const results = await Promise.all(Array.from({ length: 50 }, () => client.get(String)));
    expect(results).toEqual(Array.from({ length: 50 }, () => 'ok'));
  });
});
