import { expect, it } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { HttpException, NetworkError, type CacheEntry, type CacheStore } from '../../lib/index.js';
import type { RecordedRequest } from '../support/recorded-request.js';
import { writeResponse } from '../support/response-writer.js';
import { get, json, withEtag } from './cache-support.js';
import { Stream } from '../../lib/stream.js';
import { conformance } from './kit.js';

class Rate {
  code = '';
  value = 0;
  get label(): string {
    return `${this.code}=${this.value}`;
  }
}

conformance('HTTP cache (client.cache)', (kit) => {
  const cached = () => kit.client((c) => void (c.client.cache = true));

  it('a fresh response (max-age) answers again without a request, with an Age header; handlers and result types run on it as on the first', async () => {
    const route = kit.server.expect({ method: 'GET', path: '/rate', respond: json({ code: 'EUR', value: 1.1 }, { 'Cache-Control': 'max-age=60' }) });
    const http = cached();
    expect(await get(http, '/rate')).toEqual({ cache: 'miss', body: { code: 'EUR', value: 1.1 }, age: null });
    expect(await get(http, '/rate')).toEqual({ cache: 'hit', body: { code: 'EUR', value: 1.1 }, age: '0' });
    const rate = await http.get(Rate, (c) => void (c.request.uri.path = '/rate'));
    expect(rate).toBeInstanceOf(Rate);
    expect(rate.label).toBe('EUR=1.1');
    expect(route.calls).toBe(1);
  });

  it('Expires in the future makes a response fresh; an Age that already reaches max-age makes it stale on arrival', async () => {
    const aged = kit.server.expect({ method: 'GET', path: '/aged', respond: json('old', { 'Cache-Control': 'max-age=60', Age: '60' }) });
    const http = cached();
    kit.server.expect({
      method: 'GET',
      path: '/expiring',
      respond: (_req, res) => writeResponse(res, json('later', { Date: new Date().toUTCString(), Expires: new Date(Date.now() + 60_000).toUTCString() })),
    });
    await get(http, '/expiring');
    expect((await get(http, '/expiring')).cache).toBe('hit');
    await get(http, '/aged');
    expect((await get(http, '/aged')).cache).toBe('miss');
    expect(aged.calls).toBe(2);
  });

  it('a stale response is revalidated with If-None-Match; a 304 answers with the stored body and its new headers', async () => {
    const route = kit.server.expect({
      method: 'GET',
      path: '/doc',
      respond: withEtag('"v1"', { headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'max-age=0' }, body: 'version one' }, { 'X-Checked': 'yes' }),
    });
    const http = cached();
    expect(await get(http, '/doc')).toMatchObject({ cache: 'miss', body: 'version one' });
    const again = await http.get((c) => {
      c.request.uri.path = '/doc';
      c.response.success((fromServer, body) => ({
        cache: fromServer.cache,
        body,
        checked: fromServer.headers.get('x-checked'),
        status: fromServer.statusCode,
      }));
    });
    expect(again).toEqual({ cache: 'revalidated', body: 'version one', checked: 'yes', status: 200 });
    expect(route.calls).toBe(2);
    expect(kit.server.requests.at(-1)?.headers['if-none-match']).toBe('"v1"');
  });

  it('Last-Modified is revalidated with If-Modified-Since', async () => {
    const modified = new Date(Date.now() - 3_600_000).toUTCString();
    kit.server.expect({
      method: 'GET',
      path: '/dated',
      respond: (req, res) =>
        req.headers['if-modified-since'] === modified
          ? writeResponse(res, { status: 304 })
          : writeResponse(res, { headers: { 'Content-Type': 'text/plain', 'Last-Modified': modified, 'Cache-Control': 'no-cache' }, body: 'dated' }),
    });
    const http = cached();
    await get(http, '/dated');
    expect(await get(http, '/dated')).toMatchObject({ cache: 'revalidated', body: 'dated' });
    expect(kit.server.requests.at(-1)?.headers['if-modified-since']).toBe(modified);
  });

  it('Vary: a request with other values of the named headers is not answered by the stored response', async () => {
    const route = kit.server.expect({
      method: 'GET',
      path: '/greeting',
      respond: (req, res) =>
        writeResponse(res, json(req.headers['accept-language'] === 'fr' ? 'bonjour' : 'hello', { 'Cache-Control': 'max-age=60', Vary: 'Accept-Language' })),
    });
    const http = cached();
    const inLanguage = (language: string) => get(http, '/greeting', (c) => void (c.request.headers['Accept-Language'] = language));
    expect(await inLanguage('en')).toMatchObject({ cache: 'miss', body: 'hello' });
    expect(await inLanguage('en')).toMatchObject({ cache: 'hit', body: 'hello' });
    expect(await inLanguage('fr')).toMatchObject({ cache: 'miss', body: 'bonjour' });
    expect(route.calls).toBe(2);
  });

  it('no-store is never stored; private is (a private cache); no-cache is revalidated every time', async () => {
    const noStore = kit.server.expect({ method: 'GET', path: '/secret', respond: json('s', { 'Cache-Control': 'no-store, max-age=60' }) });
    const personal = kit.server.expect({ method: 'GET', path: '/mine', respond: json('m', { 'Cache-Control': 'private, max-age=60' }) });
    const always = kit.server.expect({
      method: 'GET',
      path: '/check',
      respond: withEtag('"c1"', { headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, max-age=60' }, body: 'checked' }),
    });
    const http = cached();
    for (let i = 0; i < 2; i++) {
      await get(http, '/secret');
      await get(http, '/mine');
    }
    expect([noStore.calls, personal.calls]).toEqual([2, 1]);
    await get(http, '/check');
    expect(await get(http, '/check')).toMatchObject({ cache: 'revalidated', body: 'checked' });
    expect(always.calls).toBe(2);
  });

  it('must-revalidate: a fresh response is a hit; once stale it is never served when revalidation fails (nor is any stale response)', async () => {
    let down = false;
    const answer = (cacheControl: string) => (_req: RecordedRequest, res: ServerResponse) => {
      if (down) return void res.destroy(); // no answer: the connection goes
      writeResponse(res, { headers: { 'Content-Type': 'text/plain', 'Cache-Control': cacheControl, ETag: '"x"' }, body: cacheControl });
    };
    kit.server.expect({ method: 'GET', path: '/strict', respond: answer('max-age=0, must-revalidate') });
    kit.server.expect({ method: 'GET', path: '/lenient', respond: answer('max-age=0') });
    kit.server.expect({ method: 'GET', path: '/fresh-strict', respond: answer('max-age=60, must-revalidate') });
    const http = kit.client((c) => {
      c.client.cache = true;
      c.execution.retry = { limit: 0 };
    });
    await get(http, '/strict');
    await get(http, '/lenient');
    await get(http, '/fresh-strict');
    expect((await get(http, '/fresh-strict')).cache).toBe('hit');
    down = true;
    await expect(get(http, '/strict')).rejects.toBeInstanceOf(NetworkError);
    await expect(get(http, '/lenient')).rejects.toBeInstanceOf(NetworkError);
  });

  it('a response to a request with Authorization is stored only when public (or s-maxage, must-revalidate) allows it', async () => {
    const plain = kit.server.expect({ method: 'GET', path: '/account', respond: json('a', { 'Cache-Control': 'max-age=60' }) });
    const shared = kit.server.expect({ method: 'GET', path: '/catalog', respond: json('c', { 'Cache-Control': 'public, max-age=60' }) });
    const http = kit.client((c) => {
      c.client.cache = true;
      c.request.auth.basic('ada', 'secret', { preemptive: true });
    });
    for (let i = 0; i < 2; i++) {
      await get(http, '/account');
      await get(http, '/catalog');
    }
    expect([plain.calls, shared.calls]).toEqual([2, 1]);
  });

  it('a successful POST, PUT, PATCH or DELETE drops the stored response of its URL', async () => {
    const read = kit.server.expect({ method: 'GET', path: '/item', respond: json('item', { 'Cache-Control': 'max-age=60' }) });
    kit.server.expect({ method: 'PUT', path: '/item', respond: { status: 204 } });
    kit.server.expect({ method: 'DELETE', path: '/item', respond: { status: 404 } });
    const http = cached();
    await get(http, '/item');
    await http.delete((c) => ((c.request.uri.path = '/item'), c.response.failure(() => null))); // a failure changes nothing
    expect((await get(http, '/item')).cache).toBe('hit');
    await http.put((c) => {
      c.request.uri.path = '/item';
      c.request.contentType = 'text/plain';
      c.request.body = 'new';
    });
    expect((await get(http, '/item')).cache).toBe('miss');
    expect(read.calls).toBe(2);
  });

  it("the request's Cache-Control: no-cache revalidates, no-store bypasses storing", async () => {
    const route = kit.server.expect({
      method: 'GET',
      path: '/asked',
      respond: withEtag('"a1"', { headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'max-age=60' }, body: 'asked' }),
    });
    const http = cached();
    await get(http, '/asked', (c) => void (c.request.headers['Cache-Control'] = 'no-store'));
    expect((await get(http, '/asked')).cache).toBe('miss'); // the no-store request left nothing behind
    expect((await get(http, '/asked', (c) => void (c.request.headers['Cache-Control'] = 'no-cache'))).cache).toBe('revalidated');
    expect((await get(http, '/asked')).cache).toBe('hit');
    expect(route.calls).toBe(3);
  });

  it('a HEAD is answered from a fresh stored GET; derived clients share the cache', async () => {
    const route = kit.server.expect({ method: 'GET', path: '/shared', respond: json('s', { 'Cache-Control': 'max-age=60', ETag: '"s"' }) });
    const http = cached();
    await get(http, '/shared');
    const etag = await http.head((c) => {
      c.request.uri.path = '/shared';
      c.response.success((fromServer) => `${fromServer.cache} ${fromServer.headers.get('etag')}`);
    });
    expect(etag).toBe('hit "s"');
    expect(
      (
        await get(
          http.configure((c) => void (c.request.headers['X-Derived'] = '1')),
          '/shared',
        )
      ).cache,
    ).toBe('hit');
    expect(route.calls).toBe(1);
    expect(kit.server.requests.filter((request) => request.method === 'HEAD')).toHaveLength(0);
  });

  it('a failure status is not cached unless it says so, and still rejects as usual', async () => {
    const route = kit.server.expect({ method: 'GET', path: '/missing', respond: { status: 404, headers: { 'Content-Type': 'text/plain' }, body: 'gone' } });
    const http = cached();
    for (let i = 0; i < 2; i++) await expect(get(http, '/missing')).rejects.toBeInstanceOf(HttpException);
    expect(route.calls).toBe(2);
  });

  it('a gzip response is answered from the cache decoded, as it was the first time', async () => {
    const text = 'compressed and cached\n'.repeat(50);
    const route = kit.server.expect({
      method: 'GET',
      path: '/zipped',
      respond: { headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'max-age=60' }, encoding: 'gzip', body: text },
    });
    const http = cached();
    expect(await get(http, '/zipped')).toMatchObject({ cache: 'miss', body: text });
    expect(await get(http, '/zipped')).toMatchObject({ cache: 'hit', body: text });
    expect(route.calls).toBe(1);
  });

  it('an async store of plain data (JSON text), and the LRU bound by entries', async () => {
    const saved = new Map<string, string>();
    const store: CacheStore = {
      get: async (key) => {
        await new Promise((resolve) => setImmediate(resolve));
        const stored = saved.get(key);
        return stored === undefined ? undefined : (JSON.parse(stored) as CacheEntry);
      },
      set: (key, entry) => Promise.resolve(void saved.set(key, JSON.stringify(entry))),
      delete: (key) => Promise.resolve(void saved.delete(key)),
    };
    for (const path of ['/one', '/two']) kit.server.expect({ method: 'GET', path, respond: json(path, { 'Cache-Control': 'max-age=60' }) });
    const viaStore = kit.client((c) => void (c.client.cache = { store }));
    expect([(await get(viaStore, '/one')).cache, (await get(viaStore, '/one')).cache]).toEqual(['miss', 'hit']);
    expect(saved.size).toBe(1);
    const oneEntry = kit.client((c) => void (c.client.cache = { maxEntries: 1 }));
    const order = [];
    for (const path of ['/one', '/two', '/two', '/one']) order.push((await get(oneEntry, path)).cache);
    expect(order).toEqual(['miss', 'miss', 'hit', 'miss']);
  });

  it('a 304 for another ETag drops the entry and asks again; a new answer that may not be stored takes the entry away', async () => {
    let version = 1;
    const route = kit.server.expect({
      method: 'GET',
      path: '/versioned',
      respond: (req, res) => {
        const etag = `"v${version}"`;
        if (req.headers['if-none-match'] !== undefined) return writeResponse(res, { status: 304, headers: { ETag: etag, 'Cache-Control': 'max-age=0' } });
        writeResponse(res, {
          headers: { 'Content-Type': 'text/plain', ETag: etag, 'Cache-Control': version === 3 ? 'no-store' : 'max-age=0' },
          body: `v${version}`,
        });
      },
    });
    const http = cached();
    expect(await get(http, '/versioned')).toMatchObject({ cache: 'miss', body: 'v1' });
    version = 2; // the server answers 304 to any condition, with the new ETag: not the stored response's
    expect(await get(http, '/versioned')).toMatchObject({ cache: 'miss', body: 'v2' });
    expect(route.calls).toBe(3);
    version = 3;
    kit.server.expect({
      method: 'GET',
      path: '/changing',
      respond: withEtag('"c1"', { headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'max-age=0' }, body: 'c1' }),
    });
    await get(http, '/changing');
    kit.server.reset();
    kit.server.expect({ method: 'GET', path: '/changing', respond: json('fresh', { 'Cache-Control': 'no-store' }) });
    expect(await get(http, '/changing')).toMatchObject({ cache: 'miss', body: 'fresh' });
    expect(await get(http, '/changing')).toMatchObject({ cache: 'miss', body: 'fresh' });
    expect(kit.server.requests.filter((request) => request.headers['if-none-match'] !== undefined)).toHaveLength(1);
  });

  it('an empty 200, a 204 and a redirect with max-age are stored; an answer from the cache sets no cookie again', async () => {
    const empty = kit.server.expect({ method: 'GET', path: '/empty', respond: { status: 204, headers: { 'Cache-Control': 'max-age=60' } } });
    const moved = kit.server.expect({
      method: 'GET',
      path: '/moved',
      respond: { status: 301, headers: { Location: '/target', 'Cache-Control': 'max-age=60', 'Content-Type': 'text/plain' }, body: 'moved' },
    });
    const target = kit.server.expect({
      method: 'GET',
      path: '/target',
      respond: json('here', { 'Cache-Control': 'max-age=60', 'Set-Cookie': 'seen=1; Path=/' }),
    });
    const http = kit.client((c) => {
      c.client.cache = true;
      c.client.cookies = true;
    });
    const seen = [];
    for (let i = 0; i < 3; i++) {
      await http.get((c) => void (c.request.uri.path = '/empty'));
      seen.push(
        await http.get((c) => {
          c.request.uri.path = '/moved';
          c.response.success((fromServer, body) => [fromServer.cache, body, fromServer.headers.get('set-cookie')]);
        }),
      );
    }
    expect(seen).toEqual([
      ['miss', 'here', 'seen=1; Path=/'],
      ['miss', 'here', 'seen=1; Path=/'],
      ['hit', 'here', null],
    ]);
    // the cookie the first answer set is a credential: the requests after it are another user's
    expect([empty.calls, moved.calls, target.calls]).toEqual([2, 2, 2]);
  });

  it('a body a Stream reads or a Download writes is not stored: it may be of any size', async () => {
    const route = kit.server.expect({
      method: 'GET',
      path: '/feed',
      respond: { headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'max-age=60' }, body: 'a\nb\n' },
    });
    const http = cached();
    for (let i = 0; i < 2; i++) {
      const lines: string[] = [];
      for await (const line of await http.get((c) => ((c.request.uri.path = '/feed'), Stream.lines(c)))) lines.push(line);
      expect(lines).toEqual(['a', 'b']);
    }
    expect(route.calls).toBe(2);
  });

  it('the debug log says hit, revalidated or miss', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/logged',
      respond: withEtag('"l"', { headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'max-age=0' }, body: 'l' }),
    });
    kit.server.expect({ method: 'GET', path: '/kept', respond: json('k', { 'Cache-Control': 'max-age=60' }) });
    const lines: string[] = [];
    const http = kit.client((c) => {
      c.client.cache = true;
      c.execution.logger = (line) => lines.push(line);
    });
    await get(http, '/logged');
    await get(http, '/logged');
    await get(http, '/kept');
    await get(http, '/kept');
    expect(lines.filter((line) => line.startsWith('cache '))).toEqual([
      `cache miss GET ${kit.server.url(kit.secure)}/logged`,
      `cache revalidated GET ${kit.server.url(kit.secure)}/logged`,
      `cache miss GET ${kit.server.url(kit.secure)}/kept`,
      `cache hit GET ${kit.server.url(kit.secure)}/kept`,
    ]);
  });
});
