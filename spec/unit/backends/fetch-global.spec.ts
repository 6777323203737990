import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BODY_TIMEOUT, ConfigError, HEADERS_TIMEOUT, HttpBuilder, type Backend, type WireRequest } from '../../../lib/index.js';
import { createFetchBackend } from '../../../lib/backends/fetch.js';
import { undiciTransport } from '../../../lib/backends/undici-fetch.js';
import { startPortableServer, type PortableServer } from '../../portable/server.js';

// The fetch backend where undici 7 is not there to carry timeouts and pools: on Bun (whose
// built-in `undici` has no Dispatcher), in browsers and Workers (no undici at all), on node
// without undici installed. Node's global fetch stands in for the runtime's here.

/** What Bun answers `import('undici')` with: fetch and an Agent class, no Dispatcher behind them. */
const bunLikeUndici = { fetch: globalThis.fetch, Headers: globalThis.Headers, Agent: class Agent {} };
const plain = { tls: undefined, connection: undefined };

let server: PortableServer;
beforeAll(async () => {
  server = await startPortableServer();
});
afterAll(() => server.close());

function wire(path: string, limits: Pick<WireRequest, 'headersTimeout' | 'bodyTimeout'>): WireRequest {
  const url = new URL(path, server.url);
  return {
    method: 'GET',
    url: url.href,
    secure: false,
    hostname: url.hostname,
    port: Number(url.port),
    target: url.pathname + url.search,
    headers: {},
    body: undefined,
    ...limits,
  };
}

async function read(body: AsyncIterable<Uint8Array>): Promise<string> {
  let text = '';
  for await (const chunk of body) text += new TextDecoder().decode(chunk);
  return text;
}

describe.each([
  ['Bun’s undici (no Dispatcher)', () => createFetchBackend(plain, (options) => undiciTransport(options, () => Promise.resolve(bunLikeUndici)))],
  ['no undici at all (a browser bundle)', () => createFetchBackend(plain)],
])('the fetch backend on the global fetch: %s', (_name, make: () => Promise<Backend>) => {
  it('sends, and keeps the headers timeout itself', async () => {
    const backend = await make();
    const response = await backend.send(wire('/users/42', { headersTimeout: 1000, bodyTimeout: 1000 }));
    expect([response.statusCode, await read(response.body)]).toEqual([200, '{"id":42,"name":"Ada"}']);
    const started = Date.now();
    await expect(backend.send(wire('/slow-head?ms=2000', { headersTimeout: 150, bodyTimeout: 0 }))).rejects.toMatchObject({ code: HEADERS_TIMEOUT });
    expect(Date.now() - started).toBeLessThan(1000);
    await backend.close();
  });

  it('keeps the read timeout on the body itself', async () => {
    const backend = await make();
    const response = await backend.send(wire('/slow-body', { headersTimeout: 1000, bodyTimeout: 150 }));
    await expect(read(response.body)).rejects.toMatchObject({ code: BODY_TIMEOUT });
    const whole = await backend.send(wire('/lines', { headersTimeout: 1000, bodyTimeout: 150 }));
    expect(await read(whole.body)).toBe('one\ntwo\r\nthree\n'); // 20 ms between chunks: each one restarts the limit
    await backend.close();
  });

  it('still answers an abort of the request’s own signal', async () => {
    const backend = await make();
    const controller = new AbortController();
    const sending = backend.send({ ...wire('/slow-head?ms=2000', { headersTimeout: 5000, bodyTimeout: 5000 }), signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(sending).rejects.toMatchObject({ name: 'AbortError' });
    await backend.close();
  });

  it('closes without throwing, twice', async () => {
    const backend = await make();
    await expect(backend.close()).resolves.toBeUndefined();
    await expect(backend.close()).resolves.toBeUndefined();
  });

  it('refuses a proxy with a ConfigError, not a network error', async () => {
    const backend = await make();
    const proxy = { url: new URL('http://127.0.0.1:9'), shown: 'http://127.0.0.1:9' } as unknown as WireRequest['proxy'];
    await expect(backend.send({ ...wire('/users/42', {}), proxy })).rejects.toThrow(ConfigError);
    await backend.close();
  });
});

describe('the fetch backend on Bun’s undici', () => {
  it('cannot take TLS, connection or HTTP/2 settings: a ConfigError naming the runtime', async () => {
    const bunLike = () => Promise.resolve(bunLikeUndici);
    await expect(undiciTransport({ tls: { rejectUnauthorized: false }, connection: undefined }, bunLike)).rejects.toThrow(
      "execution.tls: the fetch backend on Node.js runs on the global fetch, which has no pool of its own to take it: use the 'native' backend",
    );
    await expect(undiciTransport({ ...plain, connection: { maxSockets: 1 } }, bunLike)).rejects.toThrow(/^client\.connection: /);
  });

  it('runs a whole call through the client, timeouts included', async () => {
    const backend = await createFetchBackend(plain, (options) => undiciTransport(options, () => Promise.resolve(bunLikeUndici)));
    const http = HttpBuilder.configure((c) => {
      c.request.uri = server.url;
      c.client.backend = backend;
    });
    expect(await http.get((c) => void (c.request.uri.path = '/users/42'))).toEqual({ id: 42, name: 'Ada' });
    await expect(
      http.get((c) => {
        c.request.uri.path = '/slow-body';
        c.execution.timeout = { read: 150 };
      }),
    ).rejects.toMatchObject({ name: 'TimeoutError', phase: 'read' });
    await http.close();
  });
});

describe('the fetch backend on undici 7', () => {
  it('uses undici’s own fetch and pool (no timers of its own)', async () => {
    const transport = await undiciTransport(plain, () => import('undici'));
    expect(transport.ownTimeouts).toBe(false);
    await transport.destroy();
  });
});
