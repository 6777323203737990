import { afterAll, afterEach, beforeAll, expect, it } from '@jest/globals';
import { inspect } from 'node:util';
import { AddressBlockedError, ConfigError, HttpBuilder, NetworkError, ProxyError } from '../../lib/index.js';
import { SocksServer } from '../support/socks-server.js';
import { conformance, type Kit } from './kit.js';

const SECRET = 'pa:ss w@rd';
const LOGIN = `proxy-user:${encodeURIComponent(SECRET)}`;

/** The SOCKS5 servers every scenario may use, started once: each keeps what it saw until the next test. */
const servers = {} as Record<'open' | 'login' | 'refusing' | 'silent', SocksServer>;
beforeAll(async () => {
  servers.open = await SocksServer.start();
  servers.login = await SocksServer.start({ login: { user: 'proxy-user', password: SECRET } });
  servers.refusing = await SocksServer.start({ reply: 5 });
  servers.silent = await SocksServer.start({ silent: true });
});
afterEach(() => Object.values(servers).forEach((server) => server.reset()));
afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.close()));
});

function errorOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (error: unknown) => error,
  );
}

/** The kit's server by name (`localhost`): what a socks5h proxy is sent as it is, and a socks5 client resolves. */
function byName(kit: Kit, path: string): string {
  return new URL(path, kit.server.url(kit.secure).replace('127.0.0.1', 'localhost')).href;
}

conformance('SOCKS5 proxies (client.proxy socks5:// and socks5h://)', (kit) => {
  const port = () => Number(new URL(kit.server.url(kit.secure)).port);

  function answer(path: string, body = 'through'): void {
    kit.server.expect({ method: 'GET', path, respond: { headers: { 'content-type': 'text/plain' }, body } });
  }

  it(`socks5h sends the name, socks5 the address the client resolved; over HTTP/1.1${kit.http2 ? ', client.http2 notwithstanding' : ''}`, async () => {
    for (const scheme of ['socks5h', 'socks5'] as const) {
      kit.server.expect({ method: 'POST', path: `/${scheme}`, respond: { headers: { 'content-type': 'text/plain' }, body: 'posted' } });
      const client = kit.client((c) => void (c.client.proxy = servers.open.url(scheme)));
      const result = await client.post((c) => {
        c.request.uri = byName(kit, `/${scheme}`);
        c.request.contentType = 'application/json';
        c.request.body = { via: scheme };
        c.response.success((fromServer, body) => `${fromServer.httpVersion} ${String(body)}`);
      });
      expect(result).toBe('1.1 posted');
    }
    expect(kit.server.requests.map((r) => `${r.method} ${r.path} ${r.body.toString()}`)).toEqual([
      'POST /socks5h {"via":"socks5h"}',
      'POST /socks5 {"via":"socks5"}',
    ]);
    expect(servers.open.seen).toEqual([
      { host: 'localhost', port: port(), kind: 'name' },
      { host: '127.0.0.1', port: port(), kind: 'ipv4' },
    ]);
  });

  it('a login the proxy asks for is sent (RFC 1929); tunnels are kept alive and reused', async () => {
    const client = kit.client((c) => void (c.client.proxy = servers.login.url('socks5h', LOGIN)));
    for (const path of ['/one', '/two', '/three']) {
      answer(path, path);
      expect(await client.get((c) => void (c.request.uri.path = path))).toBe(path);
      // undici hands a kept-alive connection back a little after the body was read
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const seen = servers.login.seen;
    expect(seen.length).toBeLessThan(3);
    expect(seen.every((s) => s.host === '127.0.0.1' && s.port === port() && s.kind === 'ipv4' && s.user === 'proxy-user')).toBe(true);
  });

  it('a refused login and a missing one are ProxyErrors naming the proxy, never the password', async () => {
    const wrong = kit.client((c) => void (c.client.proxy = servers.login.url('socks5', `proxy-user:${encodeURIComponent('wrong secret')}`)));
    const refused = await errorOf(wrong.get((c) => void (c.request.uri.path = '/never')));
    expect(refused).toBeInstanceOf(ProxyError);
    expect(refused).toMatchObject({ statusCode: 407 });
    expect((refused as Error).message).toMatch(/^the proxy socks5:\/\/\*\*\*@127\.0\.0\.1:\d+ refused the credentials/);
    expect(inspect(refused, { depth: 10 })).not.toContain('wrong secret');
    expect(servers.login.refusedLogins).toBe(1);
    const none = kit.client((c) => void (c.client.proxy = servers.login.url('socks5h')));
    const missing = await errorOf(none.get((c) => void (c.request.uri.path = '/never')));
    expect(missing).toBeInstanceOf(ProxyError);
    expect((missing as Error).message).toMatch(/asks for a SOCKS5 login, and its URL has no credentials/);
    expect(servers.login.seen).toEqual([]);
    expect(kit.server.requests).toHaveLength(0);
  });

  it("the proxy's refusal to connect is a ProxyError with the SOCKS5 reply; an unreachable proxy a NetworkError naming it", async () => {
    const client = kit.client((c) => void (c.client.proxy = servers.refusing.url('socks5h')));
    const refused = await errorOf(client.get((c) => void (c.request.uri.path = '/never')));
    expect(refused).toBeInstanceOf(ProxyError);
    expect(refused).toMatchObject({ statusCode: 502 });
    expect((refused as Error).message).toBe(
      `the proxy socks5h://127.0.0.1:${servers.refusing.port} refused a tunnel to 127.0.0.1:${port()}: SOCKS5 reply 5, connection refused`,
    );
    const closed = kit.client((c) => void (c.client.proxy = 'socks5://u:hidden@127.0.0.1:1'));
    const unreachable = await errorOf(closed.get((c) => void (c.request.uri.path = '/never')));
    expect(unreachable).toBeInstanceOf(NetworkError);
    expect((unreachable as Error).message).toMatch(/through the proxy socks5:\/\/\*\*\*@127\.0\.0\.1:1$/);
    expect(inspect(unreachable, { depth: 10 })).not.toContain('hidden');
  });

  it('the connect timeout covers the SOCKS5 handshake: a proxy that never answers is a TimeoutError (connect)', async () => {
    const client = kit.client((c) => {
      c.client.proxy = servers.silent.url('socks5h');
      c.execution.timeout = { connect: 150 };
    });
    const started = Date.now();
    const error = await errorOf(client.get((c) => void (c.request.uri.path = '/never')));
    expect(error).toMatchObject({ name: 'TimeoutError', phase: 'connect' });
    expect(Date.now() - started).toBeLessThan(3000);
    expect(kit.server.requests).toHaveLength(0);
  });

  it('noProxy sends a request direct; ALL_PROXY routes the rest through SOCKS', async () => {
    answer('/direct', 'direct');
    const exempt = kit.client((c) => void (c.client.proxy = { url: servers.open.url(), noProxy: ['127.0.0.1'] }));
    expect(await exempt.get((c) => void (c.request.uri.path = '/direct'))).toBe('direct');
    expect(servers.open.seen).toEqual([]);
    answer('/env', 'env');
    process.env.ALL_PROXY = servers.open.url('socks5h');
    try {
      const fromEnv = kit.client();
      expect(await fromEnv.get((c) => void (c.request.uri = byName(kit, '/env')))).toBe('env');
    } finally {
      delete process.env.ALL_PROXY;
    }
    expect(servers.open.seen).toEqual([{ host: 'localhost', port: port(), kind: 'name' }]);
  });

  it('client.publicOnly: the target is checked as for an HTTP proxy, by socks5 and socks5h alike; nothing reaches the proxy', async () => {
    for (const scheme of ['socks5', 'socks5h'] as const) {
      const client = kit.client((c) => {
        c.client.proxy = servers.open.url(scheme);
        c.client.publicOnly = true;
      });
      const blocked = await errorOf(client.get((c) => void (c.request.uri = byName(kit, '/never'))));
      expect(blocked).toBeInstanceOf(AddressBlockedError);
    }
    expect(servers.open.seen).toEqual([]);
  });

  it('a proxy URL that is no SOCKS5 one fails when the client is made, naming client.proxy and not the password', () => {
    const attempt = (proxy: string) => () => kit.client((c) => void (c.client.proxy = proxy));
    expect(attempt('socks4://u:hidden@127.0.0.1:1080')).toThrow(ConfigError);
    expect(attempt('socks4://u:hidden@127.0.0.1:1080')).toThrow(/^client\.proxy: socks4: proxies are not supported/);
    expect(attempt('socks5://u:hidden@127.0.0.1:1080/path')).toThrow(
      /^client\.proxy: a proxy URL is only scheme:\/\/.*'socks5:\/\/\*\*\*@127\.0\.0\.1:1080\/path'$/,
    );
    expect(() => HttpBuilder.configure((c) => void (c.client.proxy = 'socks5h://:hidden@127.0.0.1'))).toThrow(/has a password but no user name/);
  });
});
