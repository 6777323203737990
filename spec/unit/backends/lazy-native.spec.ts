import { describe, expect, it } from '@jest/globals';
import { ConfigError, HttpBuilder, type Backend, type TransportOptions } from '../../../lib/index.js';
import { backendFor } from '../../../lib/backends/registry.js';
import { LazyBackend } from '../../../lib/backends/lazy-backend.js';
import { isClientClosed } from '../../../lib/model/backend.js';
import { NativeBackend } from '../../../lib/backends/native.js';
import { useTestServer } from '../../support/use-test-server.js';

// The native backend (node:http, node:https, node:tls, the proxy agents) and client.publicOnly's
// address policy (ipaddr.js, node:dns) load with the first request, not with the package
// (registry.ts): the import is what every start of a script or CLI pays. Once loaded, a client is
// made with them directly, nothing in between.
const NONE: TransportOptions = { tls: undefined, connection: undefined };
/** client.publicOnly as the client resolves it: public addresses only, no exception. */
const PUBLIC_ONLY = { allowRanges: [], allowHosts: [] };
const served = useTestServer();

async function closed<T>(backends: Backend[], body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } finally {
    await Promise.all(backends.map((backend) => backend.close()));
  }
}

describe('the native backend, loaded with the first request', () => {
  // first: before any request has loaded the address policy
  it('refuses what it cannot make when the client is made, not at the first request', () => {
    expect(() => backendFor('axios', { ...NONE, http2: true, publicOnly: PUBLIC_ONLY })).toThrow(ConfigError);
    expect(() => backendFor('nonsense' as never, { ...NONE, publicOnly: PUBLIC_ONLY })).toThrow(/client\.backend "nonsense" is not a backend/);
    expect(() => backendFor(undefined, { ...NONE, publicOnly: PUBLIC_ONLY, connection: { socketPath: '/tmp/none.sock' } })).toThrow(/socketPath/);
  });

  it('a client closed before its first request loads nothing and sends nothing', async () => {
    const backend = backendFor(undefined, NONE);
    await backend.close();
    await expect(backend.send({ hostname: '127.0.0.1', port: 1 } as never)).rejects.toThrow();
  });

  // one test: the module loads once per process, so "before" and "after" are steps of one story
  it('is a LazyBackend named native until its module loads, then each new client gets a NativeBackend', async () => {
    const first = backendFor(undefined, NONE);
    const guarded = backendFor('native', { ...NONE, publicOnly: PUBLIC_ONLY });
    await closed([first, guarded], async () => {
      expect(first).toBeInstanceOf(LazyBackend);
      expect(first.name).toBe('native');
      expect(guarded).toBeInstanceOf(LazyBackend);
      served.server.expect({ method: 'GET', path: '/first', respond: { headers: { 'content-type': 'application/json' }, body: '{"n":1}' } });
      const client = HttpBuilder.configure((c) => {
        c.request.uri = served.server.url(false);
        c.client.backend = first;
      });
      expect(await client.get((c) => (c.request.uri.path = '/first'))).toEqual({ n: 1 });
      // loaded: its requests go straight to the native backend's send(), nothing in between
      expect(Object.hasOwn(first, 'send')).toBe(true);
      // the address policy, loaded with this client's first request, still refuses what it must
      const refusing = backendFor('native', { ...NONE, publicOnly: PUBLIC_ONLY });
      await closed([refusing], async () => {
        const blocked = HttpBuilder.configure((c) => {
          c.request.uri = served.server.url(false);
          c.client.backend = refusing;
        });
        await expect(blocked.get((c) => (c.request.uri.path = '/guarded'))).rejects.toMatchObject({ name: 'AddressBlockedError' });
      });
    });
    const later = backendFor(undefined, NONE);
    await later.close();
    expect(later).toBeInstanceOf(NativeBackend);
  });

  it('a client closing as its backend loaded refuses to send at once, as the backend would', async () => {
    const backend = new LazyBackend('native', () => Promise.resolve((options) => Promise.resolve(new NativeBackend(options))), NONE);
    served.server.expect({ method: 'GET', path: '/once', respond: { body: 'ok' } });
    const client = HttpBuilder.configure((c) => {
      c.request.uri = served.server.url(false);
      c.client.backend = backend;
    });
    expect(await client.get(String, (c) => (c.request.uri.path = '/once'))).toBe('ok');
    const closing = backend.close(); // the loaded backend's own close() comes a tick later
    const refused = await backend.send({ hostname: '127.0.0.1', port: 1 } as never).catch((e: unknown) => e);
    await closing;
    expect(isClientClosed(refused)).toBe(true);
  });
});
