import { describe, expect, it, jest } from '@jest/globals';
import { CookieJar, MemoryCookieStore } from 'tough-cookie';
import { ConfigError, HttpBuilder, type ConfigBlock } from '../../lib/index.js';
import { headerValue, type RecordedRequest } from '../support/recorded-request.js';
import type { ResponseSpec } from '../support/test-server.js';
import { conformance, type Kit } from './kit.js';
import { type BackendName } from '../../lib/config/client-config.js';

const OK = { headers: { 'Content-Type': 'text/plain' }, body: 'ok' };

/** A 200 that sets these cookies (one `Set-Cookie` line each). */
function setting(...cookies: string[]): ResponseSpec {
  return { headers: { 'Content-Type': 'text/plain', 'Set-Cookie': cookies }, body: 'set' };
}

/** Every `Cookie` line of a request, as received (exactly one is expected whenever there are cookies). */
function cookieLines(request: RecordedRequest): string[] {
  return request.rawHeaders.filter(([name]) => name.toLowerCase() === 'cookie').map(([, value]) => value);
}

/** The cookies each recorded request carried, by path (`{}` = no Cookie header at all). */
function sent(kit: Kit): Array<[string, Record<string, string>]> {
  return kit.server.requests.map((r) => [r.path, headerValue(r.rawHeaders, 'cookie') === undefined ? {} : r.cookies]);
}

const withJar: ConfigBlock = (c) => void (c.client.cookies = true);

conformance('cookie jar (client.cookies = true)', (kit) => {
  /** GET each path on `client`, in order; every path answers 200 unless an expectation was registered before. */
  async function visit(client: HttpBuilder, ...paths: string[]): Promise<void> {
    for (const path of paths) {
      kit.server.expect({ method: 'GET', path, respond: OK });
      await client.get((c) => void (c.request.uri.path = path));
    }
  }

  it('a cookie set once is sent on every later request of the client, in one Cookie header, without being set again', async () => {
    kit.server.expect({ method: 'POST', path: '/login', respond: setting('session=abc123; Path=/; HttpOnly', 'theme=dark') });
    const client = kit.client(withJar);
    await client.post((c) => void (c.request.uri.path = '/login'));
    await visit(client, '/a', '/b/c');
    kit.server.expect({ method: 'PUT', path: '/d', body: 'x', respond: OK });
    await client.put((c) => Object.assign(c.request, { uri: `${kit.server.url(kit.secure)}/d`, body: 'x' }));
    expect(sent(kit)).toEqual([
      ['/login', {}],
      ['/a', { session: 'abc123', theme: 'dark' }],
      ['/b/c', { session: 'abc123', theme: 'dark' }],
      ['/d', { session: 'abc123', theme: 'dark' }],
    ]);
    for (const request of kit.server.requests.slice(1)) expect(cookieLines(request)).toHaveLength(1);
  });

  it('a later Set-Cookie replaces the value; Max-Age=0 and an Expires in the past remove the cookie', async () => {
    const client = kit.client(withJar);
    kit.server.expect({ method: 'GET', path: '/set', respond: setting('a=1', 'b=1', 'c=1', 'd=1') });
    kit.server.expect({ method: 'GET', path: '/change', respond: setting('a=2', 'b=gone; Max-Age=0', 'c=gone; Expires=Thu, 01 Jan 1970 00:00:01 GMT') });
    await visit(client, '/set', '/x', '/change', '/y');
    expect(sent(kit)).toEqual([
      ['/set', {}],
      ['/x', { a: '1', b: '1', c: '1', d: '1' }],
      ['/change', { a: '1', b: '1', c: '1', d: '1' }],
      ['/y', { a: '2', d: '1' }],
    ]);
  });

  it('Max-Age and Expires in the future keep the cookie until then, and not after', async () => {
    const client = kit.client(withJar);
    const inTwoMinutes = new Date(Date.now() + 120_000).toUTCString();
    kit.server.expect({ method: 'GET', path: '/set', respond: setting('short=1; Max-Age=60', `long=1; Expires=${inTwoMinutes}`, 'session=1') });
    await visit(client, '/set', '/now');
    // only the clock moves (no timers are faked): tough-cookie reads `new Date()`
    jest.useFakeTimers({
      doNotFake: [
        'hrtime',
        'nextTick',
        'performance',
        'queueMicrotask',
        'requestAnimationFrame',
        'cancelAnimationFrame',
        'requestIdleCallback',
        'cancelIdleCallback',
        'setImmediate',
        'clearImmediate',
        'setInterval',
        'clearInterval',
        'setTimeout',
        'clearTimeout',
      ],
    });
    try {
      jest.setSystemTime(Date.now() + 61_000);
      await visit(client, '/later');
      jest.setSystemTime(Date.now() + 60_000);
      await visit(client, '/much-later');
    } finally {
      jest.useRealTimers();
    }
    expect(sent(kit)).toEqual([
      ['/set', {}],
      ['/now', { short: '1', long: '1', session: '1' }],
      ['/later', { long: '1', session: '1' }],
      ['/much-later', { session: '1' }],
    ]);
  });

  it('server-set cookies are honoured per path (Path attribute, default path, no prefix matches)', async () => {
    const client = kit.client(withJar);
    kit.server.expect({ method: 'GET', path: '/docs/login', respond: setting('docs=1; Path=/docs', 'root=1; Path=/') });
    // no Path attribute: the default path is the directory of the request path (RFC 6265 §5.1.4)
    kit.server.expect({ method: 'GET', path: '/area/sub/page', respond: setting('area=1') });
    await visit(
      client,
      '/docs/login',
      '/area/sub/page',
      '/docs',
      '/docs/deeper/x',
      '/docsx',
      '/',
      '/other',
      '/area/sub',
      '/area/sub/x',
      '/area',
      '/area/subway',
    );
    expect(sent(kit).slice(2)).toEqual([
      ['/docs', { docs: '1', root: '1' }],
      ['/docs/deeper/x', { docs: '1', root: '1' }],
      ['/docsx', { root: '1' }],
      ['/', { root: '1' }],
      ['/other', { root: '1' }],
      ['/area/sub', { area: '1', root: '1' }],
      ['/area/sub/x', { area: '1', root: '1' }],
      ['/area', { root: '1' }],
      ['/area/subway', { root: '1' }],
    ]);
    // longer paths first (RFC 6265 §5.4)
    expect(cookieLines(kit.server.requests[3])).toEqual(['docs=1; root=1']);
  });

  it('a Domain attribute for a foreign domain is ignored; one naming this host is kept', async () => {
    const client = kit.client(withJar);
    kit.server.expect({
      method: 'GET',
      path: '/set',
      respond: setting('foreign=1; Domain=example.com', 'suffix=1; Domain=0.0.1', 'mine=1; Domain=127.0.0.1', 'plain=1'),
    });
    await visit(client, '/set', '/next');
    expect(sent(kit)[1]).toEqual(['/next', { mine: '1', plain: '1' }]);
  });

  it('a Secure cookie is kept from https only, and sent over https only (on 127.0.0.1 too)', async () => {
    const client = kit.client(withJar);
    kit.server.expect({ method: 'GET', path: '/set', respond: setting('secret=1; Secure', 'open=1') });
    await visit(client, '/set');
    // the same host over the other scheme: cookies are not isolated by port (RFC 6265 §8.5), only by Secure
    for (const secure of [kit.secure, !kit.secure]) {
      kit.server.expect({ method: 'GET', path: `/to-${secure ? 'https' : 'http'}`, respond: OK });
      await client.get((c) => void (c.request.uri = `${kit.server.url(secure)}/to-${secure ? 'https' : 'http'}`));
    }
    const byPath = Object.fromEntries(sent(kit));
    // set over http, a Secure cookie is refused (RFC 6265bis): it is never sent, not even over https
    expect([byPath['/to-https'], byPath['/to-http']]).toEqual(kit.secure ? [{ secret: '1', open: '1' }, { open: '1' }] : [{ open: '1' }, { open: '1' }]);
  });

  it("the request's cookies are added on top of the jar's; a name the request sets wins, and is sent once", async () => {
    const client = kit.client((c) => {
      c.client.cookies = true;
      c.request.cookies = { client: 'level' };
    });
    kit.server.expect({ method: 'GET', path: '/set', respond: setting('jar=1', 'shared=from-jar', 'client=from-jar') });
    await visit(client, '/set');
    kit.server.expect({ method: 'GET', path: '/mixed', respond: OK });
    await client.get((c) => {
      c.request.uri.path = '/mixed';
      c.request.cookie('shared', 'from-request');
      c.request.cookie('extra', 'x');
    });
    const mixed = kit.server.requests[1];
    expect(mixed.cookies).toEqual({ jar: '1', shared: 'from-request', client: 'level', extra: 'x' });
    expect(cookieLines(mixed)).toHaveLength(1);
    expect(cookieLines(mixed)[0].match(/shared=/g)).toHaveLength(1);
    expect(cookieLines(mixed)[0].match(/client=/g)).toHaveLength(1);
  });

  it('cookies set by a redirect response are sent on the next hop', async () => {
    const client = kit.client(withJar);
    kit.server.expect({ method: 'POST', path: '/login', respond: { status: 303, headers: { Location: '/home', 'Set-Cookie': ['session=s1; Path=/'] } } });
    kit.server.expect({
      method: 'GET',
      path: '/home',
      respond: { status: 302, headers: { Location: '/inner/page', 'Set-Cookie': ['inner=i1; Path=/inner'] } },
    });
    kit.server.expect({ method: 'GET', path: '/inner/page', respond: OK });
    expect(await client.post((c) => void (c.request.uri.path = '/login'))).toBe('ok');
    expect(sent(kit)).toEqual([
      ['/login', {}],
      ['/home', { session: 's1' }],
      ['/inner/page', { inner: 'i1', session: 's1' }],
    ]);
  });

  it("a hop to another origin gets the cookies the jar holds for it (no Secure one after an https → http hop), not the request's own", async () => {
    const client = kit.client(withJar);
    const otherScheme = kit.server.url(!kit.secure);
    kit.server.expect({ method: 'GET', path: '/set', respond: setting('secret=1; Secure', 'open=1') });
    kit.server.expect({ method: 'GET', path: '/go', secure: kit.secure, respond: { status: 302, headers: { Location: `${otherScheme}/there` } } });
    kit.server.expect({ method: 'GET', path: '/there', secure: !kit.secure, respond: OK });
    await visit(client, '/set');
    await client.get((c) => {
      c.request.uri.path = '/go';
      c.request.cookie('mine', 'request-only');
    });
    expect(sent(kit).slice(1)).toEqual([
      ['/go', kit.secure ? { secret: '1', open: '1', mine: 'request-only' } : { open: '1', mine: 'request-only' }],
      ['/there', { open: '1' }],
    ]);
  });

  it('a cookie set on a challenge (401) goes with the answer, and one set on a retried 503 with the retry', async () => {
    const client = kit.client((c) => {
      c.client.cookies = true;
      c.request.auth.basic('alice', 'wonderland');
      c.execution.retry = { limit: 1, statusCodes: [503], backoff: () => 1 };
    });
    kit.server.expect({
      method: 'GET',
      path: '/guarded',
      respond: (req, res) => {
        const answered = req.headers.authorization !== undefined;
        res.statusCode = answered ? 200 : 401;
        res.setHeader('Set-Cookie', answered ? 'after=1' : 'challenge=1');
        if (!answered) res.setHeader('WWW-Authenticate', 'Basic realm="r"');
        res.end();
      },
    });
    let busy = true;
    kit.server.expect({
      method: 'GET',
      path: '/busy',
      respond: (_req, res) => {
        res.statusCode = busy ? 503 : 200;
        res.setHeader('Set-Cookie', busy ? 'queue=7' : 'served=1');
        busy = false;
        res.end();
      },
    });
    await client.get((c) => void (c.request.uri.path = '/guarded'));
    await client.get((c) => void (c.request.uri.path = '/busy'));
    expect(sent(kit)).toEqual([
      ['/guarded', {}],
      ['/guarded', { challenge: '1' }],
      ['/busy', { challenge: '1', after: '1' }],
      ['/busy', { challenge: '1', after: '1', queue: '7' }],
    ]);
  });

  it('fromServer.cookies still shows the Set-Cookie headers', async () => {
    kit.server.expect({ method: 'GET', path: '/set', respond: setting('a=1; Path=/', 'b=2') });
    const names = await kit.client(withJar).get((c) => {
      c.request.uri.path = '/set';
      c.response.success((fromServer) => fromServer.cookies.map((cookie) => `${cookie.name}=${cookie.value}`));
    });
    expect(names).toEqual(['a=1', 'b=2']);
  });

  it('derived clients share the jar; separately configured clients do not', async () => {
    const parent = kit.client(withJar);
    const child = parent.configure((c) => void (c.request.headers['X-Child'] = 'yes'));
    kit.server.expect({ method: 'GET', path: '/child-sets', respond: setting('from=child') });
    kit.server.expect({ method: 'GET', path: '/parent-sets', respond: setting('also=parent') });
    await visit(child, '/child-sets', '/child-reads');
    await visit(parent, '/parent-reads', '/parent-sets');
    await visit(child, '/child-reads-again');
    const stranger = HttpBuilder.configure((c) => {
      c.request.uri = kit.server.url(kit.secure);
      c.client.backend = kit.backend as BackendName;
      c.execution.tls = { ca: kit.server.ca };
      c.client.cookies = true;
    });
    try {
      await visit(stranger, '/stranger');
    } finally {
      await stranger.close();
    }
    expect(sent(kit)).toEqual([
      ['/child-sets', {}],
      ['/child-reads', { from: 'child' }],
      ['/parent-reads', { from: 'child' }],
      ['/parent-sets', { from: 'child' }],
      ['/child-reads-again', { from: 'child', also: 'parent' }],
      ['/stranger', {}],
    ]);
  });
});

conformance('cookie jar across pools', (kit) => {
  it('a derived client on another backend (its own pool) still shares the jar', async () => {
    const parent = kit.client((c) => void (c.client.cookies = true));
    const other = parent.configure((c) => void (c.client.backend = kit.backend === 'native' ? 'got' : 'native'));
    try {
      kit.server.expect({ method: 'GET', path: '/set', respond: setting('pooled=1') });
      kit.server.expect({ method: 'GET', path: '/read', respond: { body: 'ok', headers: { 'Content-Type': 'text/plain' } } });
      await parent.get((c) => void (c.request.uri.path = '/set'));
      await other.get((c) => void (c.request.uri.path = '/read'));
      expect(kit.server.requests[1].cookies).toEqual({ pooled: '1' });
    } finally {
      await other.close();
    }
  });
});

conformance('cookie jar off (the default)', (kit) => {
  it('a disabled store keeps nothing: a Set-Cookie is never sent back', async () => {
    const client = kit.client();
    kit.server.expect({ method: 'GET', path: '/set', respond: setting('session=abc; Path=/') });
    kit.server.expect({ method: 'GET', path: '/next', cookies: {}, respond: OK });
    await client.get((c) => void (c.request.uri.path = '/set'));
    expect(await client.get((c) => void (c.request.uri.path = '/next'))).toBe('ok');
    expect(kit.server.requests.map((r) => cookieLines(r))).toEqual([[], []]);
  });

  it("not even to the next hop of a redirect; the request's own cookies still go", async () => {
    kit.server.expect({ method: 'GET', path: '/login', respond: { status: 302, headers: { Location: '/home', 'Set-Cookie': ['session=s1'] } } });
    kit.server.expect({ method: 'GET', path: '/home', respond: OK });
    await kit.client().get((c) => {
      c.request.uri.path = '/login';
      c.request.cookie('mine', '1');
    });
    expect(sent(kit)).toEqual([
      ['/login', { mine: '1' }],
      ['/home', { mine: '1' }],
    ]);
  });

  it("client.cookies = false in a derived client turns the parent's jar off for it", async () => {
    const parent = kit.client(withJar);
    const child = parent.configure((c) => void (c.client.cookies = false));
    kit.server.expect({ method: 'GET', path: '/set', respond: setting('session=abc') });
    await visit(parent, '/set');
    await visit(child, '/child');
    await visit(parent, '/parent');
    expect(sent(kit)).toEqual([
      ['/set', {}],
      ['/child', {}],
      ['/parent', { session: 'abc' }],
    ]);
  });

  async function visit(client: HttpBuilder, ...paths: string[]): Promise<void> {
    for (const path of paths) {
      kit.server.expect({ method: 'GET', path, respond: OK });
      await client.get((c) => void (c.request.uri.path = path));
    }
  }
});

/** A memory store that says it is asynchronous, as a file or database store would: only tough-cookie's async API may use it. */
class AsyncStore extends MemoryCookieStore {
  override synchronous = false;
}

conformance("the application's jar (client.cookies = a tough-cookie CookieJar)", (kit) => {
  it('cookies already in the jar are sent, and those set by every redirect hop are kept in it', async () => {
    const jar = new CookieJar();
    const origin = kit.server.url(kit.secure);
    jar.setCookieSync('earlier=1; Path=/', origin);
    kit.server.expect({ method: 'POST', path: '/login', respond: { status: 303, headers: { Location: '/home', 'Set-Cookie': ['session=s1; Path=/'] } } });
    kit.server.expect({ method: 'GET', path: '/home', respond: setting('theme=dark; Path=/') });
    expect(await kit.client((c) => void (c.client.cookies = jar)).post((c) => void (c.request.uri.path = '/login'))).toBe('set');
    expect(sent(kit)).toEqual([
      ['/login', { earlier: '1' }],
      ['/home', { earlier: '1', session: 's1' }],
    ]);
    expect(jar.getCookieStringSync(`${origin}/`)).toBe('earlier=1; session=s1; theme=dark');
  });

  it('clients given the same jar share it; a derived client setting true keeps it', async () => {
    const jar = new CookieJar();
    const first = kit.client((c) => void (c.client.cookies = jar));
    const second = kit.client((c) => void (c.client.cookies = jar));
    const derived = first.configure((c) => void (c.client.cookies = true));
    kit.server.expect({ method: 'GET', path: '/set', respond: setting('shared=1') });
    await first.get((c) => void (c.request.uri.path = '/set'));
    for (const [client, path] of [
      [second, '/second'],
      [derived, '/derived'],
    ] as const) {
      kit.server.expect({ method: 'GET', path, respond: OK });
      await client.get((c) => void (c.request.uri.path = path));
    }
    expect(sent(kit).slice(1)).toEqual([
      ['/second', { shared: '1' }],
      ['/derived', { shared: '1' }],
    ]);
  });

  it('a jar on an asynchronous store is read and written through its async API', async () => {
    const jar = new CookieJar(new AsyncStore());
    const client = kit.client((c) => void (c.client.cookies = jar));
    kit.server.expect({ method: 'GET', path: '/set', respond: setting('async=1') });
    kit.server.expect({ method: 'GET', path: '/next', respond: OK });
    await client.get((c) => void (c.request.uri.path = '/set'));
    await client.get((c) => void (c.request.uri.path = '/next'));
    expect(sent(kit)[1]).toEqual(['/next', { async: '1' }]);
    expect(await jar.getCookieString(`${kit.server.url(kit.secure)}/`)).toBe('async=1');
  });
});

describe('client.cookies accepts true, false or a CookieJar only', () => {
  it.each([['yes'], [1], [{}], [new Map()]])('%p is a ConfigError naming client.cookies', (value) => {
    expect(() => HttpBuilder.configure((c) => void (c.client.cookies = value as never))).toThrow(ConfigError);
    expect(() => HttpBuilder.configure((c) => void (c.client.cookies = value as never))).toThrow(
      /^client\.cookies must be true, false or a tough-cookie CookieJar, not /,
    );
  });
});
