// client.cache's stores on the MockBackend: the in-memory LRU's bounds, a store of your own, a store that fails.
import { expect, it } from '@jest/globals';
import { ConfigError, type CacheEntry, type CacheStore, type HttpBuilder } from '../../lib/index.js';
import { pipeline } from './kit.js';

const FRESH = { 'cache-control': 'max-age=60' };

/** Where each GET of `paths` came from. */
async function outcomes(http: HttpBuilder, ...paths: string[]): Promise<string[]> {
  const seen: string[] = [];
  for (const path of paths) seen.push((await http.get((c) => ((c.request.uri.path = path), c.response.success((fromServer) => fromServer.cache)))) as string);
  return seen;
}

pipeline('cache stores', (kit) => {
  it('the in-memory LRU keeps at most maxEntries, the least recently used going first', async () => {
    for (const path of ['/a', '/b', '/c']) kit.mock.on('GET', path).persist().reply(200, path, FRESH);
    const http = kit.client((c) => void (c.client.cache = { maxEntries: 2 }));
    expect(await outcomes(http, '/a', '/b', '/a', '/c')).toEqual(['miss', 'miss', 'hit', 'miss']); // /c evicts /b, used least recently
    expect(await outcomes(http, '/a', '/c', '/b')).toEqual(['hit', 'hit', 'miss']);
  });

  it('and at most maxBytes: a response larger than that is not stored, others are evicted to make room', async () => {
    kit.mock.on('GET', '/big').persist().reply(200, 'x'.repeat(5000), FRESH);
    for (const path of ['/a', '/b']) kit.mock.on('GET', path).persist().reply(200, 'y'.repeat(600), FRESH);
    const http = kit.client((c) => void (c.client.cache = { maxBytes: 1000 }));
    expect(await outcomes(http, '/big', '/big')).toEqual(['miss', 'miss']);
    expect(await outcomes(http, '/a', '/a', '/b', '/b', '/a')).toEqual(['miss', 'hit', 'miss', 'hit', 'miss']);
  });

  it('a store of your own, async, whose entries are plain data (they survive JSON)', async () => {
    const saved = new Map<string, string>();
    const store: CacheStore = {
      get: async (key) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        const text = saved.get(key);
        return text === undefined ? undefined : (JSON.parse(text) as CacheEntry);
      },
      set: (key, entry) => Promise.resolve(void saved.set(key, JSON.stringify(entry))),
      delete: (key) => Promise.resolve(void saved.delete(key)),
    };
    kit.mock
      .on('GET', '/doc')
      .persist()
      .reply(200, { title: 'cached' }, { ...FRESH, 'content-type': 'application/json' });
    const http = kit.client((c) => void (c.client.cache = { store }));
    expect(await outcomes(http, '/doc', '/doc')).toEqual(['miss', 'hit']);
    expect([...saved.keys()]).toEqual(['https://api.example.test/doc']);
    expect(await http.get((c) => void (c.request.uri.path = '/doc'))).toEqual({ title: 'cached' });
    expect(kit.mock.calls).toHaveLength(1);
  });

  it('a store that throws never fails a request: the cache is skipped, with a line through the logger', async () => {
    const failing: CacheStore = {
      get: () => {
        throw new Error('disk full');
      },
      set: () => Promise.reject(new Error('disk full')),
      delete: () => undefined,
    };
    kit.mock.on('GET', '/doc').persist().reply(200, 'text', FRESH);
    const lines: string[] = [];
    const http = kit.client((c) => {
      c.client.cache = { store: failing };
      c.execution.logger = (line) => lines.push(line);
    });
    expect(await outcomes(http, '/doc', '/doc')).toEqual(['miss', 'miss']);
    expect(lines.filter((line) => line.includes('failed'))).toEqual([
      "cache: the store's get failed for https://api.example.test/doc, so the cache is skipped: disk full",
      "cache: the store's set failed for https://api.example.test/doc, so the cache is skipped: disk full",
      "cache: the store's get failed for https://api.example.test/doc, so the cache is skipped: disk full",
      "cache: the store's set failed for https://api.example.test/doc, so the cache is skipped: disk full",
    ]);
  });

  it('a stored value that is no entry of this format (a stale file, another version) is no entry, and is reported', async () => {
    const broken: CacheStore = { get: () => ({ v: 1, body: '', policy: {} }) as never, set: () => undefined, delete: () => undefined };
    kit.mock.on('GET', '/doc').reply(200, 'text', FRESH);
    const lines: string[] = [];
    const http = kit.client((c) => {
      c.client.cache = { store: broken };
      c.execution.logger = (line) => lines.push(line);
    });
    expect(await outcomes(http, '/doc')).toEqual(['miss']);
    expect(lines.filter((line) => line.includes('failed'))[0]).toMatch(
      /^cache: the store's get failed for https:\/\/api.example.test\/doc, so the cache is skipped: /,
    );
  });

  it('bad settings are ConfigErrors naming them, before anything is sent', async () => {
    expect(() => kit.client((c) => void (c.client.cache = 5 as never))).toThrow(
      new ConfigError('client.cache must be true, false or { maxEntries?, maxBytes?, store? }, not a number'),
    );
    expect(() => kit.client((c) => void (c.client.cache = { maxEntries: 0 }))).toThrow(/client.cache.maxEntries must be a whole number of at least 1/);
    expect(() => kit.client((c) => void (c.client.cache = { store: { get: () => undefined, set: () => undefined } as never }))).toThrow(
      'client.cache.store needs get, set and delete methods (delete is missing)',
    );
    expect(() => kit.client((c) => void (c.client.cache = { maxEntry: 3 } as never))).toThrow("client.cache: 'maxEntry' is no option");
    await expect(kit.client().get((c) => void (c.client.cache = true))).rejects.toThrow(ConfigError);
    expect(kit.mock.calls).toHaveLength(0);
  });
});
