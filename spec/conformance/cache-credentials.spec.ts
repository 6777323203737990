// client.cache with several users on one client: a stored response answers only the credentials
// it was stored for (public ones excepted), and no credential value reaches the store.
import { expect, it } from '@jest/globals';
import { HttpException, type HttpBuilder, type HttpConfig } from '../../lib/index.js';
import { digestRoute } from '../support/auth/index.js';
import type { RecordedRequest } from '../support/recorded-request.js';
import { writeResponse } from '../support/response-writer.js';
import { get, json, jsonStore, withEtag } from './cache-support.js';
import { conformance } from './kit.js';

const PRIVATE = 'private, max-age=60';

conformance('HTTP cache: one client, several users', (kit) => {
  /** A route answering each caller `for <what whoIs reads of its request>`, with `headers`. */
  function perUser(path: string, whoIs: (req: RecordedRequest) => unknown, headers: Record<string, string | string[]>) {
    return kit.server.expect({ method: 'GET', path, respond: (req, res) => writeResponse(res, json(`for ${String(whoIs(req))}`, headers)) });
  }

  /** Alice, Bob, Alice, Bob on one cached client: each gets only their own answer, the second time from the cache. */
  async function aliceThenBob(http: HttpBuilder, path: string, as: (user: 'alice' | 'bob') => (c: HttpConfig) => void, alice: string, bob: string) {
    const seen = [];
    for (const user of ['alice', 'bob', 'alice', 'bob'] as const) seen.push(await get(http, path, as(user)));
    expect(seen.map(({ cache, body }) => [cache, body])).toEqual([
      ['miss', `for ${alice}`],
      ['miss', `for ${bob}`],
      ['hit', `for ${alice}`],
      ['hit', `for ${bob}`],
    ]);
  }

  it('each user of an X-Api-Key, Private-Token or Cookie header gets their own private response; each still gets hits', async () => {
    const http = kit.client((c) => void (c.client.cache = true));
    for (const name of ['X-Api-Key', 'Private-Token', 'Cookie']) {
      const route = perUser(`/me/${name}`, (req) => req.headers[name.toLowerCase()], { 'Cache-Control': PRIVATE });
      await aliceThenBob(http, `/me/${name}`, (user) => (c) => void (c.request.headers[name] = `${user}-secret`), 'alice-secret', 'bob-secret');
      expect(route.calls).toBe(2);
    }
  });

  it('a header whose name is credential-like only as written (XAuth, UserPwd, ApiSig: camelCase words) is a credential, as in logs', async () => {
    const http = kit.client((c) => void (c.client.cache = true));
    for (const name of ['XAuth', 'UserPwd', 'MyPass', 'ApiSig', 'XSession', 'XTicket']) {
      const route = perUser(`/camel/${name}`, (req) => req.headers[name.toLowerCase()], { 'Cache-Control': PRIVATE });
      await aliceThenBob(http, `/camel/${name}`, (user) => (c) => void (c.request.headers[name] = `${user}-secret`), 'alice-secret', 'bob-secret');
      expect(route.calls).toBe(2);
    }
  });

  it('a response without Cache-Control that a private cache may store (Last-Modified) is each user’s own too', async () => {
    const modified = new Date(Date.now() - 3_600_000).toUTCString();
    const route = perUser('/profile', (req) => req.headers['x-api-key'], { 'Last-Modified': modified });
    const http = kit.client((c) => void (c.client.cache = true));
    await aliceThenBob(http, '/profile', (user) => (c) => void (c.request.headers['X-Api-Key'] = `${user}-key`), 'alice-key', 'bob-key');
    expect(route.calls).toBe(2);
  });

  it('auth.bearer() with private, must-revalidate or s-maxage: stored for that token only', async () => {
    const http = kit.client((c) => void (c.client.cache = true));
    for (const [path, cacheControl] of [
      ['/repos', `${PRIVATE}, must-revalidate`],
      ['/user', `${PRIVATE}, s-maxage=60`], // what GitHub's API sends to an authenticated request
    ]) {
      const route = perUser(path, (req) => req.headers.authorization, { 'Cache-Control': cacheControl, Vary: 'Accept, Accept-Encoding' });
      await aliceThenBob(http, path, (user) => (c) => c.request.auth.bearer(`${user}-token`), 'Bearer alice-token', 'Bearer bob-token');
      expect(route.calls).toBe(2);
    }
  });

  it('Basic: each user’s own; the same user name with another password is not answered from the cache', async () => {
    const route = perUser('/basic', (req) => req.headers.authorization, { 'Cache-Control': `${PRIVATE}, must-revalidate` });
    const http = kit.client((c) => void (c.client.cache = true));
    const basic = (user: string, password: string) => (c: HttpConfig) => c.request.auth.basic(user, password, { preemptive: true });
    const encoded = (pair: string) => `Basic ${Buffer.from(pair).toString('base64')}`;
    await aliceThenBob(http, '/basic', (user) => basic(user, `${user}-pw`), encoded('alice:alice-pw'), encoded('bob:bob-pw'));
    expect(await get(http, '/basic', basic('alice', 'guessed'))).toMatchObject({ cache: 'miss', body: `for ${encoded('alice:guessed')}` });
    expect(route.calls).toBe(3);
  });

  it('Digest: the user gets hits; the same user name with a wrong password gets the server’s 401, not the stored response', async () => {
    const route = digestRoute(kit.server, {
      path: '/report',
      user: 'alice',
      password: 'wonderland',
      headers: { 'Cache-Control': `${PRIVATE}, must-revalidate` },
    });
    const http = kit.client((c) => void (c.client.cache = true));
    const digest = (password: string) => (c: HttpConfig) => c.request.auth.digest('alice', password);
    expect((await get(http, '/report', digest('wonderland'))).cache).toBe('miss');
    expect((await get(http, '/report', digest('wonderland'))).cache).toBe('hit'); // its Authentication-Info was not kept
    await expect(get(http, '/report', digest('looking-glass'))).rejects.toMatchObject({ statusCode: 401 });
    await expect(get(http, '/report', digest('looking-glass'))).rejects.toBeInstanceOf(HttpException);
    expect(route.authorized).toBe(1);
  });

  it('the jar’s cookie: after another user logs in on the client, the first user’s response is not served; back again, it is', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/login',
      respond: (req, res) => writeResponse(res, json('in', { 'Set-Cookie': `session=${req.query.as?.[0]}; Path=/` })),
    });
    const route = perUser('/inbox', (req) => `session=${req.cookies.session}`, { 'Cache-Control': PRIVATE });
    const http = kit.client((c) => {
      c.client.cache = true;
      c.client.cookies = true;
    });
    const seen = [];
    for (const user of ['alice', 'bob', 'alice']) {
      await http.get((c) => ((c.request.uri.path = '/login'), (c.request.uri.query = { as: user })));
      for (let i = 0; i < 2; i++) seen.push(Object.values(await get(http, '/inbox')).slice(0, 2));
    }
    const [alice, bob] = [['for session=alice'], ['for session=bob']];
    expect(seen).toEqual([
      ['miss', ...alice],
      ['hit', ...alice],
      ['miss', ...bob],
      ['hit', ...bob],
      ['hit', ...alice],
      ['hit', ...alice],
    ]);
    expect(route.calls).toBe(2);
  });

  it('a public response is shared by every user, as RFC 9111 means; with Vary: Authorization only by the same credentials', async () => {
    const shared = perUser('/catalog', () => 'everyone', { 'Cache-Control': 'public, max-age=60' });
    const varying = perUser('/prices', (req) => req.headers.authorization, { 'Cache-Control': 'public, max-age=60', Vary: 'Authorization' });
    const http = kit.client((c) => void (c.client.cache = true));
    const bearer = (user: string) => (c: HttpConfig) => c.request.auth.bearer(`${user}-token`);
    const catalog = [];
    for (const user of ['alice', 'bob']) catalog.push((await get(http, '/catalog', bearer(user))).cache);
    catalog.push((await get(http, '/catalog', (c) => void (c.request.headers['X-Api-Key'] = 'carol-key'))).cache);
    expect([catalog, shared.calls]).toEqual([['miss', 'hit', 'hit'], 1]);
    const prices = [];
    for (const user of ['alice', 'alice', 'bob', 'bob']) prices.push(Object.values(await get(http, '/prices', bearer(user))).slice(0, 2));
    expect(prices).toEqual([
      ['miss', 'for Bearer alice-token'],
      ['hit', 'for Bearer alice-token'],
      ['miss', 'for Bearer bob-token'],
      ['hit', 'for Bearer bob-token'],
    ]);
    expect(varying.calls).toBe(2);
  });

  it('public and private together (in either order) is private: each user’s own', async () => {
    const http = kit.client((c) => void (c.client.cache = true));
    for (const [path, cacheControl] of [
      ['/public-private', 'public, private, max-age=60'],
      ['/private-public', 'private, max-age=60, public'],
    ]) {
      const route = perUser(path, (req) => req.headers['x-api-key'], { 'Cache-Control': cacheControl });
      await aliceThenBob(http, path, (user) => (c) => void (c.request.headers['X-Api-Key'] = `${user}-key`), 'alice-key', 'bob-key');
      expect(route.calls).toBe(2);
    }
  });

  it('credential-like response headers reach the caller of the exchange that brought them, never the store nor a later answer', async () => {
    const secrets = { 'X-Subject-Token': 'subject-secret', 'X-CSRF-Token': 'csrf-secret', 'X-Amz-Security-Token': 'amz-secret' };
    kit.server.expect({
      method: 'GET',
      path: '/tokens',
      respond: withEtag('"t1"', json('tokens', { ...secrets, 'Cache-Control': 'max-age=0', 'Access-Control-Allow-Credentials': 'true' }), secrets),
    });
    const store = jsonStore();
    const http = kit.client((c) => void (c.client.cache = { store }));
    const read = () =>
      http.get((c) => {
        c.request.uri.path = '/tokens';
        c.response.success((fromServer) => [
          fromServer.cache,
          fromServer.headers.get('x-subject-token'),
          fromServer.headers.get('access-control-allow-credentials'),
        ]);
      });
    expect(await read()).toEqual(['miss', 'subject-secret', 'true']);
    expect(await read()).toEqual(['revalidated', 'subject-secret', 'true']); // the 304's own, passed on
    expect(store.saved.size).toBe(1);
    for (const secret of Object.values(secrets)) expect(store.text()).not.toContain(secret);
    expect(store.text()).toMatch(/access-control-allow-credentials/i); // no secret: kept
  });

  it('a redirect whose Location, or a response whose Content-Location or Link, carries user info or a credential-like parameter is not stored', async () => {
    const fresh = { 'Cache-Control': 'max-age=60' };
    const routes = [
      kit.server.expect({
        method: 'GET',
        path: '/signed',
        respond: { status: 302, headers: { ...fresh, Location: '/file?X-Amz-Signature=sig-secret&part=1' } },
      }),
      kit.server.expect({ method: 'GET', path: '/login', respond: { status: 301, headers: { ...fresh, Location: '//ada:pw-secret@127.0.0.1/file' } } }),
      kit.server.expect({ method: 'GET', path: '/page', respond: json('page', { ...fresh, Link: '</page?access_token=link-secret&page=2>; rel="next"' }) }),
      kit.server.expect({ method: 'GET', path: '/copy', respond: json('copy', { ...fresh, 'Content-Location': '/copy?token=place-secret' }) }),
    ];
    const plain = kit.server.expect({ method: 'GET', path: '/moved', respond: { status: 301, headers: { ...fresh, Location: '/page2?part=1' } } });
    const store = jsonStore();
    const http = kit.client((c) => {
      c.client.cache = { store };
      c.execution.redirects = { follow: false };
    });
    const outcome = (path: string) =>
      http.get((c) => {
        c.request.uri.path = path;
        c.response.success((fromServer) => fromServer.cache);
      });
    for (const path of ['/signed', '/login', '/page', '/copy', '/moved']) await outcome(path);
    for (const path of ['/signed', '/login', '/page', '/copy']) expect(await outcome(path)).toBe('miss');
    expect(await outcome('/moved')).toBe('hit'); // a Location without secrets: stored as ever
    expect([...routes.map((route) => route.calls), plain.calls]).toEqual([2, 2, 2, 2, 1]);
    expect(store.text()).not.toMatch(/secret/);
  });

  it('no credential value reaches the store: not with Vary: Authorization, Cookie, X-Api-Key, nor in a query; Set-Cookie is not kept', async () => {
    const secrets = ['bearer-secret', 'basic-secret', Buffer.from('ada:basic-secret').toString('base64'), 'api-key-secret', 'cookie-secret', 'query-secret'];
    kit.server.expect({
      method: 'GET',
      path: '/account',
      respond: json('account', {
        'Cache-Control': `${PRIVATE}, must-revalidate`,
        Vary: 'Authorization, Cookie, X-Api-Key',
        'Set-Cookie': ['refresh=set-cookie-secret; Path=/; HttpOnly', 'theme=dark'],
      }),
    });
    const store = jsonStore();
    const http = kit.client((c) => {
      c.client.cache = { store };
      c.request.uri.query = { access_token: 'query-secret', page: '2' };
      c.request.headers['X-Api-Key'] = 'api-key-secret';
      c.request.headers.Cookie = 'session=cookie-secret';
    });
    for (const auth of [
      (c: HttpConfig) => c.request.auth.bearer('bearer-secret'),
      (c: HttpConfig) => c.request.auth.basic('ada', 'basic-secret', { preemptive: true }),
    ]) {
      expect((await get(http, '/account', auth)).cache).toBe('miss');
      expect((await get(http, '/account', auth)).cache).toBe('hit');
    }
    expect(store.saved.size).toBe(2);
    const text = store.text();
    expect(text).toContain('x-api-key'); // the names a Vary needs are kept, with a digest of their values
    for (const secret of [...secrets, 'set-cookie-secret']) expect(text).not.toContain(secret);
    expect(text).not.toMatch(/set-cookie|theme=dark/i);
  });
});
