import { afterEach, describe, expect, it } from '@jest/globals';
import * as undici from 'undici';
import { ConfigError } from '../../../lib/index.js';
import { createUndiciBackend } from '../../../lib/backends/undici.js';
import { hasDispatcher, undiciWithoutDispatcher } from '../../../lib/backends/undici-check.js';
import { runtimeName } from '../../../lib/core/runtime-name.js';

/** What Bun answers `import('undici')` with: fetch and an Agent class, no Dispatcher behind them. */
const bunLikeUndici = { fetch: globalThis.fetch, Headers: globalThis.Headers, Agent: class Agent {} };
const plain = { tls: undefined, connection: undefined };

describe('undici-check', () => {
  afterEach(() => {
    delete (globalThis as { Bun?: unknown }).Bun;
  });

  it('tells undici 7 from a module without a Dispatcher (Bun’s)', () => {
    expect(hasDispatcher(undici)).toBe(true);
    expect(hasDispatcher(bunLikeUndici)).toBe(false);
    expect(hasDispatcher({})).toBe(false);
    expect(hasDispatcher(null)).toBe(false);
  });

  it('names the runtime by its globals, Bun and Deno before Node, then Workers and browsers', () => {
    expect(runtimeName()).toBe('Node.js');
    expect(runtimeName({ Bun: {}, process: {} })).toBe('Bun');
    expect(runtimeName({ Deno: {}, process: {} })).toBe('Deno');
    expect(runtimeName({ process: { versions: { node: '20.19.0' } } })).toBe('Node.js');
    expect(runtimeName({ navigator: { userAgent: 'Cloudflare-Workers' } })).toBe('Cloudflare Workers');
    expect(runtimeName({ navigator: { userAgent: 'Mozilla/5.0' } })).toBe('a browser');
  });

  it('makes the undici backend without a Dispatcher a ConfigError naming the runtime, never a network error', async () => {
    const onNode = createUndiciBackend(plain, () => Promise.resolve(bunLikeUndici));
    await expect(onNode).rejects.toThrow(ConfigError);
    await expect(onNode).rejects.toThrow(
      "client.backend 'undici' needs undici 7's Dispatcher, which the 'undici' module loaded on Node.js lacks: npm install undici@7",
    );
    (globalThis as { Bun?: unknown }).Bun = {};
    await expect(createUndiciBackend(plain, () => Promise.resolve(bunLikeUndici))).rejects.toThrow(
      "client.backend 'undici' needs undici's Dispatcher, which Bun's built-in undici lacks: use 'native' or 'fetch' on Bun",
    );
    expect(undiciWithoutDispatcher('Bun')).toBeInstanceOf(ConfigError);
  });

  it('makes the undici backend on the real undici 7', async () => {
    const backend = await createUndiciBackend(plain, () => import('undici'));
    expect(backend.name).toBe('undici');
    await backend.close();
  });
});
