// client.cache's stores on the MockBackend: the in-memory LRU's bounds, a store of your own, a store that fails.
import { expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { ConfigError, type CacheEntry, type CacheStore, type HttpBuilder, type HttpConfig } from '../../lib/index.js';
import { pipeline } from './kit.js';

const FRESH = { 'cache-control': 'max-age=60' };

/** Where each GET of `paths` came from (`as`: the request's own settings, e.g. its credentials). */
async function outcomes(http: HttpBuilder, ...paths: string[]): Promise<string[]> {
  return outcomesAs(http, () => {}, ...paths);
}

async function outcomesAs(http: HttpBuilder, as: (c: HttpConfig) => void, ...paths: string[]): Promise<string[]> {
  const seen: string[] = [];
  for (const path of paths) {
    seen.push((await http.get((c) => (as(c), (c.request.uri.path = path), c.response.success((fromServer) => fromServer.cache)))) as string);
  }
  return seen;
}

/** A store of JSON text under each key, as a file or Redis would keep it. */
function jsonStore(): CacheStore & { readonly saved: Map<string, string> } {
  const saved = new Map<string, string>();
  return {
    saved,
    get: (key) => (saved.has(key) ? (JSON.parse(saved.get(key)!) as CacheEntry) : undefined),
    set: (key, entry) => void saved.set(key, JSON.stringify(entry)),
    delete: (key) => void saved.delete(key),
  };
}

const bearer = (token: string) => (c: HttpConfig) => c.request.auth.bearer(token);

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

  it('bad settings are ConfigErrors naming them, before anything is sent', async () => {
    expect(() => kit.client((c) => void (c.client.cache = 5 as never))).toThrow(
      new ConfigError('client.cache must be true, false or { maxEntries?, maxBytes?, store?, secret? }, not a number'),
    );
    expect(() => kit.client((c) => void (c.client.cache = { maxEntries: 0 }))).toThrow(/client.cache.maxEntries must be a whole number of at least 1/);
    expect(() => kit.client((c) => void (c.client.cache = { store: { get: () => undefined, set: () => undefined } as never }))).toThrow(
      'client.cache.store needs get, set and delete methods (delete is missing)',
    );
    expect(() => kit.client((c) => void (c.client.cache = { maxEntry: 3 } as never))).toThrow("client.cache: 'maxEntry' is no option");
    expect(() => kit.client((c) => void (c.client.cache = { secret: 'hunter2' }))).toThrow(
      new ConfigError('client.cache.secret must be at least 16 bytes long, not 7'),
    );
    expect(() => kit.client((c) => void (c.client.cache = { secret: 1234567890123456 as never }))).toThrow(
      new ConfigError('client.cache.secret must be a string or a Uint8Array of at least 16 bytes, not a number'),
    );
    await expect(kit.client().get((c) => void (c.client.cache = true))).rejects.toThrow(ConfigError);
    expect(kit.mock.calls).toHaveLength(0);
  });

  it('keys: a response for no credentials, or public, under its URL; a private one under its URL and a digest of the credentials', async () => {
    kit.mock.on('GET', '/open').persist().reply(200, 'open', FRESH);
    kit.mock.on('GET', '/catalog').persist().reply(200, 'catalog', { 'cache-control': 'public, max-age=60' });
    kit.mock.on('GET', '/me').persist().reply(200, 'me', { 'cache-control': 'private, max-age=60, must-revalidate' });
    const store = jsonStore();
    const http = kit.client((c) => void (c.client.cache = { store }));
    expect(await outcomes(http, '/open')).toEqual(['miss']);
    expect(await outcomesAs(http, bearer('token-one'), '/catalog', '/me', '/me')).toEqual(['miss', 'miss', 'hit']);
    expect(await outcomesAs(http, bearer('token-two'), '/catalog', '/me', '/me')).toEqual(['hit', 'miss', 'hit']);
    const keys = [...store.saved.keys()];
    expect(keys.slice(0, 2)).toEqual(['https://api.example.test/open', 'https://api.example.test/catalog']);
    expect(keys.slice(2)).toEqual([expect.stringMatching(/^https:\/\/api\.example\.test\/me hmac:[\w-]{43}$/), expect.stringMatching(/ hmac:/)]);
    expect(new Set(keys).size).toBe(4);
    expect(JSON.stringify([...store.saved])).not.toMatch(/token-one|token-two/);
  });

  it('digests are HMACs keyed per store: no plain hash of a credential is kept; clients over one store share entries only with the same secret', async () => {
    kit.mock.on('GET', '/me').persist().reply(200, 'me', { 'cache-control': 'private, max-age=60, must-revalidate' });
    const store = jsonStore();
    const client = (secret?: string) => kit.client((c) => void (c.client.cache = secret === undefined ? { store } : { store, secret }));
    const [one, two, other] = [client('a secret of 16+ bytes'), client('a secret of 16+ bytes'), client('another secret, as long')];
    expect(await outcomesAs(one, bearer('token-one'), '/me')).toEqual(['miss']);
    expect(await outcomesAs(two, bearer('token-one'), '/me')).toEqual(['hit']); // another process with the same secret, say
    expect(await outcomesAs(other, bearer('token-one'), '/me')).toEqual(['miss']);
    // without a secret, this process's own key: its clients share, a later process would not
    expect(await outcomesAs(client(), bearer('token-one'), '/me', '/me')).toEqual(['miss', 'hit']);
    const plain = (value: string) => createHash('sha256').update('httpbuilder-ts cache\0').update(value).digest('base64url');
    const text = JSON.stringify([...store.saved]);
    for (const value of ['authorization\0Bearer token-one', 'Bearer token-one']) {
      expect(text).not.toContain(plain(value));
      expect(text).not.toContain(createHash('sha256').update(value).digest('base64url'));
    }
  });

  it('a store that gives one entry for every key never gives one user the response stored for another', async () => {
    let last: CacheEntry | undefined;
    const careless: CacheStore = { get: () => last, set: (_key, entry) => void (last = entry), delete: () => undefined };
    kit.mock
      .on('GET', '/me')
      .persist()
      .reply((request) => [200, `for ${request.headers.authorization}`, { 'cache-control': 'private, max-age=60, must-revalidate' }]);
    const http = kit.client((c) => void (c.client.cache = { store: careless }));
    const body = (token: string) => http.get((c) => ((c.request.uri.path = '/me'), bearer(token)(c)));
    expect(await body('alice')).toBe('for Bearer alice');
    expect(await body('bob')).toBe('for Bearer bob');
    expect(await body('bob')).toBe('for Bearer bob'); // a hit: the entry is Bob's now
    expect(await body('carol')).toBe('for Bearer carol');
    expect(kit.mock.calls).toHaveLength(3);
  });

  it("an unsafe request drops its URL's shared entry and its own, and other users' own entries stored before it no longer answer", async () => {
    kit.mock.on('GET', '/doc').persist().reply(200, 'doc', { 'cache-control': 'private, max-age=60, must-revalidate' });
    kit.mock.on('PUT', '/doc').persist().reply(204);
    const store = jsonStore();
    const http = kit.client((c) => void (c.client.cache = { store }));
    for (const user of ['alice', 'bob']) expect(await outcomesAs(http, bearer(user), '/doc', '/doc')).toEqual(['miss', 'hit']);
    await http.put((c) => ((c.request.uri.path = '/doc'), (c.request.body = 'new'), (c.request.contentType = 'text/plain'), bearer('alice')(c)));
    expect(await outcomesAs(http, bearer('alice'), '/doc')).toEqual(['miss']);
    // a response stored for no credentials after the change keeps the mark of it (it goes under the same key)
    expect(await outcomes(http, '/doc', '/doc')).toEqual(['miss', 'hit']);
    expect(await outcomesAs(http, bearer('bob'), '/doc', '/doc')).toEqual(['miss', 'hit']);
    expect(await outcomesAs(http, bearer('alice'), '/doc')).toEqual(['hit']);
    expect(kit.mock.calls.filter((call) => call.method === 'GET')).toHaveLength(5);
  });

  it('the mark of an unsafe request stays when the shared entry that carried it goes', async () => {
    const answers = ['private, max-age=60, must-revalidate', 'public, max-age=0', 'private, max-age=60, must-revalidate'];
    let gets = 0;
    kit.mock
      .on('GET', '/doc')
      .persist()
      .reply(() => [200, 'doc', { 'cache-control': answers[Math.min(gets++, 2)], etag: `"${gets}"` }] as const);
    kit.mock.on('PUT', '/doc').persist().reply(204);
    const http = kit.client((c) => void (c.client.cache = true));
    expect(await outcomesAs(http, bearer('bob'), '/doc')).toEqual(['miss']);
    await http.put((c) => ((c.request.uri.path = '/doc'), (c.request.body = 'new'), (c.request.contentType = 'text/plain'), bearer('alice')(c)));
    expect(await outcomes(http, '/doc')).toEqual(['miss']); // public, stale at once: stored with the mark
    expect(await outcomesAs(http, bearer('carol'), '/doc')).toEqual(['miss']); // revalidated: private now, so it replaces the public entry
    expect(await outcomesAs(http, bearer('bob'), '/doc')).toEqual(['miss']);
  });

  it('an entry of an earlier format (its fields may hold credentials) or no entry at all is deleted when read, quietly', async () => {
    const old = { url: 'https://api.example.test/doc', statusCode: 200, headers: [], body: '', policy: { reqh: { 'x-api-key': 'old-plaintext-key' } } };
    const store = jsonStore();
    const key = 'https://api.example.test/doc';
    kit.mock.on('GET', '/doc').persist().reply(200, 'text', { 'cache-control': 'no-store' });
    const lines: string[] = [];
    const http = kit.client((c) => {
      c.client.cache = { store };
      c.execution.logger = (line) => lines.push(line);
    });
    for (const stale of [old, { ...old, v: 1 }, { ...old, v: 2, decoded: false, httpVersion: '1.1', message: 'OK', size: 0 }, 'not an entry']) {
      store.saved.set(key, JSON.stringify(stale));
      expect(await outcomes(http, '/doc')).toEqual(['miss']);
      expect(store.saved.has(key)).toBe(false);
    }
    expect(lines.filter((line) => line.includes('failed'))).toEqual([]);
  });

  it('an entry of this format whose state does not load is reported, and deleted', async () => {
    const store = jsonStore();
    const key = 'https://api.example.test/doc';
    kit.mock.on('GET', '/doc').reply(200, 'text', { 'cache-control': 'no-store' });
    const lines: string[] = [];
    const http = kit.client((c) => {
      c.client.cache = { store };
      c.execution.logger = (line) => lines.push(line);
    });
    store.saved.set(key, JSON.stringify({ v: 3, url: key, body: '', policy: {} }));
    expect(await outcomes(http, '/doc')).toEqual(['miss']);
    expect(lines.filter((line) => line.includes('failed'))[0]).toMatch(
      /^cache: the store's get failed for https:\/\/api.example.test\/doc, so the cache is skipped: /,
    );
    expect(store.saved.has(key)).toBe(false);
  });
});
