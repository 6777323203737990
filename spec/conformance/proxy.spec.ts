import { afterAll, afterEach, beforeAll, expect, it } from '@jest/globals';
import net from 'node:net';
import { Readable } from 'node:stream';
import { inspect } from 'node:util';
import { HttpBuilder, HttpException, NetworkError, ProxyError, type Backend } from '../../lib/index.js';
import { ProxyServer, type ProxyServerOptions } from '../support/proxy-server.js';
import { conformance, VERBS, type Kit } from './kit.js';

const SECRET = 'pa:ss w@rd';

/** The proxies every scenario may use, started once: each keeps what it saw until the next test. */
const PROXIES = {
  open: {},
  basic: { auth: { scheme: 'basic', user: 'proxy-user', password: SECRET } },
  digest: { auth: { scheme: 'digest', user: 'proxy-user', password: SECRET } },
  both: { auth: { scheme: 'both', user: 'proxy-user', password: SECRET, algorithm: 'SHA-256' } },
  stale: { auth: { scheme: 'digest', user: 'proxy-user', password: SECRET, staleAfter: 1 } },
  switching: { auth: { scheme: 'digest', user: 'proxy-user', password: SECRET } }, // demand() changes its scheme
  refusing: { refuseConnect: 403, refuseForward: 502 },
  tls: { tls: true },
} satisfies Record<string, ProxyServerOptions>;

const proxies = {} as Record<keyof typeof PROXIES, ProxyServer>;
beforeAll(async () => {
  for (const [name, options] of Object.entries(PROXIES)) proxies[name as keyof typeof PROXIES] = await ProxyServer.start(options);
});
afterEach(() => Object.values(proxies).forEach((proxy) => proxy.reset()));
afterAll(async () => {
  await Promise.all(Object.values(proxies).map((proxy) => proxy.close()));
});

/** What the proxy should have seen of one request to `path` on the kit's listener: the absolute URL, or the tunnel's authority. */
function seenTarget(kit: Kit, path: string): string {
  const url = new URL(path, kit.server.url(kit.secure));
  return kit.secure ? url.host : url.href;
}

/** Resolves once `condition` holds (checked every 10 ms, for at most 5 s). */
async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 5000) throw new Error('the condition did not hold within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/**
 * A closed port below 6554, so that the same digits with one more still make a port (the
 * proxy at :4100, the target at :41001): the first port in 4100-4999 that binds on 127.0.0.1.
 */
async function closedPortWithRoom(): Promise<number> {
  for (let port = 4100; port < 5000; port++) {
    const server = net.createServer();
    const bound = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (bound) {
      await new Promise((resolve) => server.close(resolve));
      return port;
    }
  }
  throw new Error('no free port between 4100 and 4999');
}

function errorOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

conformance('proxies (client.proxy)', (kit) => {
  function answer(path: string, body = 'through'): void {
    kit.server.expect({ method: 'GET', path, respond: { headers: { 'content-type': 'text/plain' }, body } });
  }

  it('an explicit proxy carries every verb: absolute form for http, a CONNECT tunnel for https', async () => {
    const client = kit.client((c) => void (c.client.proxy = proxies.open.url));
    for (const [verb, method] of VERBS) {
      kit.server.expect({ method, path: '/via', respond: { headers: { 'content-type': 'text/plain' }, body: method === 'HEAD' ? undefined : method } });
      const body = method === 'POST' || method === 'PUT' || method === 'PATCH' ? { sent: method } : undefined;
      const result = await client[verb]((c) => {
        c.request.uri.path = '/via';
        if (body) {
          c.request.contentType = 'application/json';
          c.request.body = body;
        }
      });
      expect(result).toBe(method === 'HEAD' ? null : method);
    }
    expect(kit.server.requests.map((r) => r.method)).toEqual(VERBS.map(([, method]) => method));
    const sentBodies = kit.server.requests.filter((r) => r.body.length > 0).map((r) => r.body.toString());
    expect(sentBodies).toEqual(['{"sent":"POST"}', '{"sent":"PUT"}', '{"sent":"PATCH"}']);
    const seen = proxies.open.seen;
    if (kit.secure) {
      // tunnels are kept alive and reused (a HEAD's socket comes back a tick late), and the proxy sees nothing of the requests
      expect(seen.length).toBeLessThan(VERBS.length);
      expect(seen.every((s) => s.method === 'CONNECT' && s.target === seenTarget(kit, '/') && s.headers.host === s.target)).toBe(true);
    } else {
      expect(seen.map((s) => `${s.method} ${s.target}`)).toEqual(VERBS.map(([, method]) => `${method} ${seenTarget(kit, '/via')}`));
      // the target's own name in Host, not the proxy's
      expect(seen.every((s) => s.headers.host === new URL(kit.server.url(false)).host)).toBe(true);
    }
  });

  it(`through a proxy the request goes over HTTP/1.1${kit.http2 ? ', client.http2 notwithstanding' : ''}; the same client's direct ones over ${kit.http2 ? 'HTTP/2' : 'HTTP/1.1'}`, async () => {
    answer('/version');
    const client = kit.client((c) => void (c.client.proxy = { url: proxies.open.url, noProxy: ['localhost'] }));
    const version = (origin: string) =>
      client.get((c) => {
        c.request.uri = `${origin}/version`;
        c.response.success((fromServer) => fromServer.httpVersion);
      });
    const proxied = kit.server.url(kit.secure);
    expect(await version(proxied)).toBe('1.1');
    expect(await version(proxied.replace('127.0.0.1', 'localhost'))).toBe(kit.http2 ? '2.0' : '1.1');
    expect(kit.server.requests.map((r) => r.httpVersion)).toEqual(['1.1', kit.http2 ? '2.0' : '1.1']);
    expect(proxies.open.seen).toHaveLength(1);
  });

  it('sequential requests reuse one connection to the proxy, or one tunnel per origin', async () => {
    answer('/again');
    const client = kit.client((c) => void (c.client.proxy = proxies.open.url));
    for (let i = 0; i < 4; i++) expect(await client.get((c) => void (c.request.uri.path = '/again'))).toBe('through');
    const connections = new Set(proxies.open.seen.map((s) => s.connection));
    expect(connections.size).toBeLessThanOrEqual(kit.traits.sequentialSockets);
    expect(proxies.open.seen).toHaveLength(kit.secure ? connections.size : 4);
  });

  for (const scheme of ['basic', 'both'] as const) {
    it(`sends the proxy URL's credentials as Basic with the first ${kit.secure ? 'CONNECT' : 'request'} to a ${scheme} proxy: no 407 round trip`, async () => {
      answer('/auth');
      const proxy = proxies[scheme];
      for (let i = 0; i < 2; i++) {
        // a new client: its first CONNECT or request to the proxy, then one more
        const client = kit.client((c) => void (c.client.proxy = proxy.urlWith('proxy-user', SECRET)));
        expect(await client.get((c) => void (c.request.uri.path = '/auth'))).toBe('through');
        expect(await client.get((c) => void (c.request.uri.path = '/auth'))).toBe('through');
      }
      // https: a second request may reuse the tunnel and send no CONNECT at all
      expect(proxy.seen.length).toBeGreaterThanOrEqual(kit.secure ? 2 : 4);
      expect(proxy.seen.map((s) => s.status)).toEqual(proxy.seen.map(() => 200));
      expect(proxy.seen.every((s) => s.authorized === true && s.headers['proxy-authorization']?.startsWith('Basic '))).toBe(true);
      // never to the origin
      expect(kit.server.requests.every((r) => r.headers['proxy-authorization'] === undefined)).toBe(true);
    });
  }

  it('a Digest proxy: Basic first, its 407 answered with Digest, then Digest up front on every later request and tunnel', async () => {
    answer('/auth');
    const proxy = proxies.digest;
    const client = kit.client((c) => void (c.client.proxy = proxy.urlWith('proxy-user', SECRET)));
    expect(await client.get((c) => void (c.request.uri.path = '/auth'))).toBe('through');
    expect(await client.get((c) => void (c.request.uri.path = '/auth'))).toBe('through');
    // a second target origin: a new tunnel for https, answered up front as well
    const other = new URL(kit.server.url(kit.secure).replace('127.0.0.1', 'localhost'));
    expect(await client.get((c) => void (c.request.uri = `${other.origin}/auth`))).toBe('through');
    const statuses = proxy.seen.map((s) => s.status);
    expect(statuses.slice(0, 2)).toEqual([407, 200]);
    expect(statuses.slice(2)).toEqual(statuses.slice(2).map(() => 200));
    expect(proxy.seen.length).toBeGreaterThanOrEqual(3); // https: the first tunnel, maybe again, and the one to localhost
    const schemes = proxy.seen.map((s) => s.headers['proxy-authorization']?.split(' ')[0]);
    expect(schemes).toEqual(['Basic', ...schemes.slice(1).map(() => 'Digest')]);
    expect(proxy.seen.slice(1).every((s) => s.authorized === true)).toBe(true);
    expect(kit.server.requests.every((r) => r.headers['proxy-authorization'] === undefined)).toBe(true);
  });

  it('a proxy that asked for Digest never gets Basic: a Basic-only 407 (a forged one) stands as a ProxyError, and Digest stays up front', async () => {
    answer('/downgrade');
    const proxy = proxies.switching;
    proxy.demand('digest');
    const client = kit.client((c) => void (c.client.proxy = proxy.urlWith('proxy-user', SECRET)));
    expect(await client.get((c) => void (c.request.uri.path = '/downgrade'))).toBe('through');
    // another origin for https: a new tunnel, so the proxy is asked again
    const other = `${new URL(kit.server.url(kit.secure).replace('127.0.0.1', 'localhost')).origin}/downgrade`;
    proxy.demand('basic');
    const error = await errorOf(client.get((c) => void (c.request.uri = other)));
    expect(error).toBeInstanceOf(ProxyError);
    expect(error).toMatchObject({ statusCode: 407 });
    proxy.demand('digest');
    expect(await client.get((c) => void (c.request.uri = other))).toBe('through');
    const schemes = proxy.seen.map((s) => s.headers['proxy-authorization']?.split(' ')[0]);
    expect(schemes).toEqual(['Basic', ...schemes.slice(1).map(() => 'Digest')]); // the Basic up front before the proxy's first 407 only
    expect(proxy.seen.map((s) => s.status)).toEqual([407, 200, 407, 200]);
  });

  it('a stale Digest nonce gets one more answer', async () => {
    answer('/stale');
    const client = kit.client((c) => void (c.client.proxy = { url: proxies.stale.urlWith('proxy-user', SECRET), noProxy: [] }));
    for (let i = 0; i < 3; i++) expect(await client.get((c) => void (c.request.uri.path = '/stale'))).toBe('through');
    const statuses = proxies.stale.seen.map((s) => s.status);
    // each nonce serves one answer: the next request's up-front answer is stale, and answered again
    // (an https request that reuses its tunnel meets no proxy at all)
    if (kit.secure) expect(statuses.slice(0, 2)).toEqual([407, 200]);
    else expect(statuses).toEqual([407, 200, 407, 200, 407, 200]);
    expect(statuses.filter((status, i) => status === 407 && statuses[i + 1] !== 200)).toEqual([]);
  });

  for (const scheme of ['basic', 'digest', 'both'] as const) {
    it(`wrong credentials for a ${scheme} proxy: ProxyError 407, no loop, no secret in the error`, async () => {
      answer('/wrong');
      const proxy = proxies[scheme];
      const client = kit.client((c) => void (c.client.proxy = proxy.urlWith('proxy-user', 'not-it')));
      const error = await errorOf(client.get((c) => void (c.request.uri.path = '/wrong')));
      expect(error).toBeInstanceOf(ProxyError);
      expect(error).toMatchObject({ code: 'ERR_PROXY', statusCode: 407 });
      expect((error as Error).message).toContain('it refused the credentials');
      // Basic up front; a proxy that offers Digest gets one Digest answer (the strongest offered: SHA-256 over Basic)
      const sent = proxy.seen.map((s) => s.headers['proxy-authorization']?.replace(/^Digest .*algorithm=([\w-]+).*$/, 'Digest $1').split(' ')[0]);
      expect(sent).toEqual(scheme === 'basic' ? ['Basic'] : ['Basic', 'Digest']);
      if (scheme === 'both') expect(proxy.seen[1].headers['proxy-authorization']).toMatch(/^Digest .*algorithm=SHA-256/);
      expect(proxy.seen.map((s) => s.status)).toEqual(sent.map(() => 407));
      const shown = [String(error), (error as Error).stack, inspect(error, { depth: 5 }), JSON.stringify(error)].join('\n');
      expect(shown).not.toContain('not-it');
      expect(shown).toContain('http://***@127.0.0.1');
      expect(kit.server.requests).toHaveLength(0);
    });
  }

  it('no credentials for a proxy that wants some: ProxyError 407 after one try', async () => {
    const error = await errorOf(kit.client((c) => void (c.client.proxy = proxies.basic.url)).get((c) => void (c.request.uri.path = '/none')));
    expect(error).toMatchObject({ name: 'ProxyError', statusCode: 407 });
    expect((error as Error).message).toContain('no credentials');
    expect(proxies.basic.seen).toHaveLength(1);
  });

  it('a refused tunnel is a ProxyError; a refused http request is the proxy’s response', async () => {
    const client = kit.client((c) => void (c.client.proxy = proxies.refusing.url));
    const error = await errorOf(client.get((c) => void (c.request.uri.path = '/refused')));
    if (kit.secure) {
      expect(error).toBeInstanceOf(ProxyError);
      expect(error).toMatchObject({ statusCode: 403 });
      expect((error as Error).message).toContain(`a tunnel to ${seenTarget(kit, '/')}`);
    } else {
      // an absolute-form answer cannot be told from the origin's: it goes to the handlers
      expect(error).toBeInstanceOf(HttpException);
      expect(error).toMatchObject({ statusCode: 502 });
    }
  });

  it('an unreachable proxy is a NetworkError naming the proxy, never its credentials', async () => {
    const closed = await ProxyServer.start();
    const url = closed.urlWith('who', SECRET);
    await closed.close();
    const error = await errorOf(kit.client((c) => void (c.client.proxy = url)).get((c) => void (c.request.uri.path = '/x')));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ reason: 'refused' });
    expect((error as Error).message).toContain('through the proxy http://***@127.0.0.1');
    expect(inspect(error)).not.toContain('w@rd');
  });

  it('an unreachable proxy’s NetworkError ends with “through the proxy …” whatever the URLs look like', async () => {
    const scheme = kit.secure ? 'https' : 'http';
    const port = await closedPortWithRoom();
    // the proxy's URL a text prefix of the target's: the same address, or a port that begins the target's (:4xxx vs :4xxx1)
    const cases = [
      { proxy: `${scheme}://127.0.0.1:${port}`, target: `${scheme}://127.0.0.1:${port}/x` },
      { proxy: `${scheme}://127.0.0.1:${port}`, target: `${scheme}://127.0.0.1:${port}1/x` },
      { proxy: `${scheme}://who:${encodeURIComponent(SECRET)}@127.0.0.1:${port}`, target: `${scheme}://127.0.0.1:${port}1/x` },
    ];
    for (const { proxy, target } of cases) {
      const error = await errorOf(kit.client((c) => void (c.client.proxy = proxy)).get((c) => void (c.request.uri = target)));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ reason: 'refused' });
      const shown = proxy.replace(/\/\/.*@/, '//***@');
      const { message } = error as Error;
      expect(message).toContain(`(${target})`);
      const suffix = ` through the proxy ${shown}`;
      expect(message.slice(-suffix.length)).toBe(suffix);
      expect(inspect(error)).not.toContain('w@rd');
    }
  });

  it("hooks never see the proxy's credentials: no Proxy-Authorization in any attempt, though each one carries it to the proxy", async () => {
    answer('/hooked');
    const before: string[] = [];
    const after: string[] = [];
    const client = kit.client((c) => {
      c.client.proxy = proxies.digest.urlWith('proxy-user', SECRET);
      c.execution.hooks = {
        beforeAttempt: (attempt) => {
          before.push(JSON.stringify(attempt.headers));
          attempt.headers['x-signed'] = 'yes'; // what a hook sets still goes out
          if (!kit.secure) attempt.headers['proxy-authorization'] = 'Basic Zm9yZ2Vk'; // but not in place of the proxy's credentials
        },
        afterAttempt: (attempt) => void after.push(JSON.stringify(attempt.headers)),
      };
    });
    for (let i = 0; i < 2; i++) expect(await client.get((c) => void (c.request.uri.path = '/hooked'))).toBe('through');
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(before.filter((headers) => /proxy-authorization/i.test(headers))).toEqual([]);
    const basic = Buffer.from(`proxy-user:${SECRET}`).toString('base64');
    expect([...before, ...after].filter((headers) => headers.includes(basic) || headers.includes('Digest '))).toEqual([]);
    // http: Basic refused, Digest, then Digest up front; https: the tunnel's own CONNECTs
    if (!kit.secure) expect(proxies.digest.seen.map((s) => s.status)).toEqual([407, 200, 200]);
    expect(proxies.digest.seen.map((s) => s.headers['proxy-authorization'])).not.toContain('Basic Zm9yZ2Vk');
    expect(kit.server.requests.map((r) => r.headers['x-signed'])).toEqual(['yes', 'yes']);
    // a Proxy-Authorization of the caller's own is a header of the request like any other: hooks see it
    const own = kit.client((c) => {
      c.client.proxy = proxies.open.url;
      c.execution.hooks = { beforeAttempt: (attempt) => void before.push(JSON.stringify(attempt.headers)) };
    });
    await own.get((c) => {
      c.request.uri.path = '/hooked';
      c.request.headers['Proxy-Authorization'] = 'Bearer mine';
    });
    expect(before.at(-1)).toContain('Bearer mine');
  });

  it('a NetworkError a hook throws through a proxy fails the call as it is', async () => {
    const own = new NetworkError('the hook’s own failure', 'other');
    const client = kit.client((c) => {
      c.client.proxy = proxies.open.url;
      c.execution.hooks = {
        beforeAttempt: () => {
          throw own;
        },
      };
    });
    expect(await errorOf(client.get((c) => void (c.request.uri.path = '/hooked')))).toBe(own);
    expect(own.message).toBe('the hook’s own failure');
  });

  it('noProxy and false go direct; the debug log names the proxy without its credentials', async () => {
    answer('/direct');
    const { host, hostname } = new URL(kit.server.url(kit.secure));
    for (const noProxy of [[hostname], [host], ['*'], ['127.0.0.0/8']]) {
      const client = kit.client((c) => void (c.client.proxy = { url: proxies.open.url, noProxy }));
      expect(await client.get((c) => void (c.request.uri.path = '/direct'))).toBe('through');
    }
    expect(await kit.client((c) => void (c.client.proxy = false)).get((c) => void (c.request.uri.path = '/direct'))).toBe('through');
    expect(proxies.open.seen).toHaveLength(0);
    const lines: string[] = [];
    const logged = kit.client((c) => {
      c.client.proxy = proxies.basic.urlWith('proxy-user', SECRET);
      c.execution.logger = (line) => void lines.push(line);
    });
    await logged.get((c) => void (c.request.uri.path = '/direct'));
    expect(lines.join('\n')).toContain(`via http://***@127.0.0.1:${new URL(proxies.basic.url).port}`);
    expect(lines.join('\n')).not.toContain('w@rd');
  });

  it("'env' reads the proxy variables when the client is made; no_proxy exempts", async () => {
    answer('/env');
    const variable = kit.secure ? 'https_proxy' : 'http_proxy';
    const saved = { ...process.env };
    try {
      process.env[variable] = proxies.open.url;
      process.env[kit.secure ? 'HTTPS_PROXY' : 'HTTP_PROXY'] = 'http://127.0.0.1:9'; // lower case wins
      const proxied = kit.client();
      process.env.NO_PROXY = '127.0.0.1';
      const exempt = kit.client();
      delete process.env[variable];
      delete process.env[variable.toUpperCase()];
      delete process.env.NO_PROXY;
      // the variables were read when the clients were made
      expect(await proxied.get((c) => void (c.request.uri.path = '/env'))).toBe('through');
      expect(proxies.open.seen).toHaveLength(1);
      expect(await exempt.get((c) => void (c.request.uri.path = '/env'))).toBe('through');
      expect(proxies.open.seen).toHaveLength(1);
    } finally {
      for (const name of ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY', 'NO_PROXY']) {
        if (saved[name] === undefined) delete process.env[name];
        else process.env[name] = saved[name];
      }
    }
  });

  it('a redirect hop decides the proxy again: no_proxy applies to the new target', async () => {
    const other = kit.server.url(!kit.secure);
    const otherHost = new URL(other).host;
    kit.server.expect({ method: 'GET', path: '/hop', secure: kit.secure, respond: { status: 302, headers: { location: `${other}/landed` } } });
    kit.server.expect({ method: 'GET', path: '/landed', secure: !kit.secure, respond: { headers: { 'content-type': 'text/plain' }, body: 'landed' } });
    const client = kit.client((c) => void (c.client.proxy = { url: proxies.open.url, noProxy: [otherHost] }));
    expect(await client.get((c) => void (c.request.uri.path = '/hop'))).toBe('landed');
    expect(proxies.open.seen.map((s) => s.target)).toEqual([seenTarget(kit, '/hop')]);
  });

  it('an https:// proxy: TLS to the proxy, checked against execution.tls.ca', async () => {
    answer('/tls');
    const client = kit.client((c) => {
      c.client.proxy = proxies.tls.url;
      c.execution.tls = { ca: [kit.server.ca, proxies.tls.ca!] };
    });
    expect(await client.get((c) => void (c.request.uri.path = '/tls'))).toBe('through');
    expect(proxies.tls.seen.map((s) => s.method)).toEqual([kit.secure ? 'CONNECT' : 'GET']);
  });

  it('a tunnel being opened stops with the call: aborted, no socket left at the proxy, even after close()', async () => {
    // a proxy that accepts connections and never answers (a fault a real proxy does not make on demand)
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.resume(); // read, so that the client's close is seen
      socket.on('error', () => {});
      socket.once('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`;
      const controller = new AbortController();
      const client = kit.client((c) => {
        c.client.proxy = url;
        c.execution.signal = controller.signal;
      });
      const pending = errorOf(client.get((c) => void (c.request.uri.path = '/never')));
      await until(() => sockets.size > 0);
      controller.abort();
      expect(await pending).toMatchObject({ name: 'AbortError' });
      await client.close();
      await until(() => sockets.size === 0);
    } finally {
      silent.close();
    }
  });

  it('TLS settings node refuses are a ConfigError when the client is made, with a proxy as without', () => {
    for (const proxy of [false, proxies.open.url] as Array<string | false>) {
      const made = () =>
        kit.client((c) => {
          c.client.proxy = proxy;
          c.execution.tls = { ca: kit.server.ca, cert: kit.server.ca, key: 'not a key' };
        });
      expect(made).toThrow(/^execution.tls cannot be used \(ca, cert, key\): /);
    }
  });

  it('a streamed body goes at once through a Basic proxy (answered up front)', async () => {
    kit.server.expect({ method: 'POST', path: '/upload', respond: { headers: { 'content-type': 'text/plain' }, body: 'stored' } });
    const client = kit.client((c) => void (c.client.proxy = proxies.basic.urlWith('proxy-user', SECRET)));
    const result = await client.post((c) => {
      c.request.uri.path = '/upload';
      c.request.contentType = 'application/octet-stream';
      c.request.body = Readable.from([Buffer.from('streamed')]);
    });
    expect(result).toBe('stored');
    expect(proxies.basic.seen.map((s) => s.status)).toEqual([200]);
    expect(kit.server.requests.map((r) => r.body.toString())).toEqual(['streamed']);
  });

  it('a streamed body a Digest proxy challenges cannot be sent again: ProxyError, and later requests answer up front', async () => {
    kit.server.expect({ method: 'POST', path: '/upload', respond: { headers: { 'content-type': 'text/plain' }, body: 'stored' } });
    const client = kit.client((c) => void (c.client.proxy = proxies.digest.urlWith('proxy-user', SECRET)));
    const upload = () =>
      client.post((c) => {
        c.request.uri.path = '/upload';
        c.request.contentType = 'application/octet-stream';
        c.request.body = Readable.from([Buffer.from('streamed')]);
      });
    if (kit.secure) {
      // the tunnel answers its own 407 before any of the body is sent
      expect(await upload()).toBe('stored');
    } else {
      expect(await errorOf(upload())).toMatchObject({ name: 'ProxyError', statusCode: 407 });
      expect(await upload()).toBe('stored');
    }
    expect(kit.server.requests.map((r) => r.body.toString())).toEqual(['streamed']);
  });
});

it('a proxy URL that is not one fails when the client is made, without its credentials', () => {
  const attempt = (proxy: string) => () => HttpBuilder.configure((c) => void (c.client.proxy = proxy));
  expect(attempt('socks4://u:hidden@127.0.0.1:1080')).toThrow(/client\.proxy.*socks4/);
  expect(attempt('http://u:hidden@127.0.0.1:notaport')).toThrow(/client\.proxy/);
  try {
    attempt('socks4://u:hidden@127.0.0.1:1080')();
  } catch (error) {
    expect(String(error)).not.toContain('hidden');
  }
  expect(() => HttpBuilder.configure((c) => void (c.client.proxy = { url: 'http://127.0.0.1:3128', noProxy: ['10.0.0.0/33'] }))).toThrow(
    /noProxy.*10\.0\.0\.0\/33/,
  );
  expect(() => HttpBuilder.configure((c) => void (c.client.proxy = 42 as never))).toThrow(/client\.proxy must be/);
});

it('a Backend object that does not follow proxies: the environment leaves it alone, an explicit proxy is a ConfigError', async () => {
  const seen: string[] = [];
  const own: Backend = {
    name: 'own',
    send: (wire) => {
      seen.push(`${wire.url} ${wire.proxy === undefined ? 'direct' : 'proxied'} ${wire.headers['Proxy-Authorization'] ?? ''}`);
      return Promise.reject(new Error('sent nowhere'));
    },
    close: () => Promise.resolve(),
  };
  const saved = process.env.https_proxy;
  process.env.https_proxy = 'http://corp:secret@127.0.0.1:9';
  try {
    const client = HttpBuilder.configure((c) => {
      c.request.uri = 'https://127.0.0.1:1/x';
      c.client.backend = own;
    });
    await errorOf(client.get());
    expect(seen).toEqual(['https://127.0.0.1:1/x direct ']);
  } finally {
    if (saved === undefined) delete process.env.https_proxy;
    else process.env.https_proxy = saved;
  }
  expect(() =>
    HttpBuilder.configure((c) => {
      c.client.backend = own;
      c.client.proxy = 'http://127.0.0.1:3128';
    }),
  ).toThrow(/backend 'own' does not follow it/);
  expect(() =>
    HttpBuilder.configure((c) => {
      c.client.backend = { ...own, proxies: true };
      c.client.proxy = 'http://127.0.0.1:3128';
    }),
  ).not.toThrow();
});
