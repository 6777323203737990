import { afterAll, afterEach, beforeAll, expect, it } from '@jest/globals';
import { AddressBlockedError, type HttpBuilder, type LookupFunction, type ProxyChoice } from '../../lib/index.js';
import { ProxyServer } from '../support/proxy-server.js';
import { SocksServer } from '../support/socks-server.js';
import { closedPort } from '../support/closed-port.js';
import { conformance, type Kit } from './kit.js';

// Made-up names resolve to loopback forms through connection.lookup: a test never dials anything
// but 127.0.0.1, and a "public" name that resolves to loopback is how DNS rebinding looks.
const NAMES: Readonly<Record<string, string>> = {
  'allowed.test': '127.0.0.1',
  'rebound.test': '127.0.0.1',
  'mapped.test': '::ffff:127.0.0.1',
  localhost: '127.0.0.1',
};
const TEXT = { headers: { 'Content-Type': 'text/plain' } };
type Answer = (error: Error | null, address?: string | Array<{ address: string; family: number }>, family?: number) => void;
const lookup = ((hostname: string, options: { all?: boolean } | Answer, callback?: Answer) => {
  const address = NAMES[hostname];
  const done = typeof options === 'function' ? options : callback!;
  if (address === undefined) return done(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
  const family = address.includes(':') ? 6 : 4;
  return typeof options === 'object' && options.all ? done(null, [{ address, family }]) : done(null, address, family);
}) as LookupFunction;

let proxy: ProxyServer;
let socks: SocksServer;
beforeAll(async () => {
  proxy = await ProxyServer.start({});
  socks = await SocksServer.start();
});
afterEach(() => {
  proxy.reset();
  socks.reset();
});
afterAll(() => Promise.all([proxy.close(), socks.close()]));

/** The kit's listener under another host name (the certificate is checked against localhost). */
function named(kit: Kit, host: string, path = '/p'): string {
  const url = new URL(path, kit.server.url(kit.secure));
  url.hostname = host;
  return url.href;
}

/** A client with the policy and the test's lookup; `proxied`: through the HTTP proxy (`true`), or this proxy choice. */
function client(kit: Kit, publicOnly: true | { allow: string[] }, proxied: true | ProxyChoice = false) {
  return kit.client((c) => {
    c.client.publicOnly = publicOnly;
    c.client.connection = { lookup };
    c.execution.tls = { ca: kit.server.ca, servername: 'localhost' };
    if (proxied !== false) c.client.proxy = proxied === true ? proxy.url : proxied;
  });
}

/** The proxies of the test (an HTTP one, a SOCKS5 one either way), on 127.0.0.1 or under another host name. */
function proxyUrls(host = '127.0.0.1'): string[] {
  return [proxy.url, socks.url('socks5'), socks.url('socks5h')].map((url) => url.replace('127.0.0.1', host));
}

async function blocked(call: Promise<unknown>): Promise<AddressBlockedError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AddressBlockedError);
  return error as AddressBlockedError;
}

/** What a GET of the kit's listener under `host` came to: `'blocked'` for an AddressBlockedError, else what it answered or threw. */
function outcome(kit: Kit, client: HttpBuilder, host: string): Promise<string> {
  return client
    .get((c) => void (c.request.uri = named(kit, host)))
    .then(
      (body) => `answered ${String(body)}`,
      (e: unknown) => (e instanceof AddressBlockedError ? 'blocked' : String(e)),
    );
}

function allBlocked(outcomes: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.keys(outcomes).map((key) => [key, 'blocked']));
}

conformance('client.publicOnly', (kit) => {
  it('refuses an IP literal host on loopback before anything is sent', async () => {
    const error = await blocked(client(kit, true).get((c) => void (c.request.uri = kit.server.url(kit.secure))));
    expect([error.code, error.address, error.host]).toEqual(['ERR_ADDRESS_BLOCKED', '127.0.0.1', '127.0.0.1']);
    expect(kit.server.requests).toHaveLength(0);
  });

  it('refuses a name that resolves to loopback (rebinding), and its IPv4-mapped form', async () => {
    const rebound = await blocked(client(kit, true).get((c) => void (c.request.uri = named(kit, 'rebound.test'))));
    expect([rebound.address, rebound.host]).toEqual(['127.0.0.1', 'rebound.test']);
    const mapped = await blocked(client(kit, true).get((c) => void (c.request.uri = named(kit, 'mapped.test'))));
    expect(mapped.address).toBe('::ffff:127.0.0.1');
    expect(kit.server.requests).toHaveLength(0);
  });

  it('lets through what allow names: an IP, a host name (exactly)', async () => {
    kit.server.expect({ method: 'GET', path: '/p', respond: { ...TEXT, body: 'ok' } });
    expect(await client(kit, { allow: ['127.0.0.0/8'] }).get((c) => void (c.request.uri = named(kit, 'rebound.test')))).toBe('ok');
    expect(await client(kit, { allow: ['allowed.test'] }).get((c) => void (c.request.uri = named(kit, 'allowed.test')))).toBe('ok');
    await blocked(client(kit, { allow: ['allowed.test'] }).get((c) => void (c.request.uri = named(kit, 'rebound.test'))));
  });

  it('checks every redirect hop: an allowed host redirecting to an internal one is refused at the hop, never dialled', async () => {
    // the hop's port has no listener: were it dialled, the call would fail as refused, not blocked
    const internal = new URL(named(kit, 'rebound.test', '/internal'));
    internal.port = String(await closedPort());
    kit.server.expect({ method: 'GET', path: '/start', respond: { status: 302, headers: { Location: internal.href } } });
    const error = await blocked(client(kit, { allow: ['allowed.test'] }).get((c) => void (c.request.uri = named(kit, 'allowed.test', '/start'))));
    expect([error.host, error.address]).toEqual(['rebound.test', '127.0.0.1']);
    expect(kit.server.requests.map((r) => r.path)).toEqual(['/start']);
  });

  it("through a proxy: the target's name is resolved and checked by the client; the proxy itself is not subject to the policy", async () => {
    const error = await blocked(client(kit, true, true).get((c) => void (c.request.uri = named(kit, 'rebound.test'))));
    expect(error.host).toBe('rebound.test');
    expect(proxy.seen).toHaveLength(0);
    // the test proxy forwards to loopback names only
    kit.server.expect({ method: 'GET', path: '/p', respond: { ...TEXT, body: 'via proxy' } });
    expect(await client(kit, { allow: ['localhost'] }, true).get((c) => void (c.request.uri = named(kit, 'localhost')))).toBe('via proxy');
    expect(proxy.seen.length).toBeGreaterThan(0);
  });

  it("a target on the proxy's own host is refused as any target: through the proxy every time, and directly after a proxied request", async () => {
    // the client must reach its proxy on 127.0.0.1; that is no leave for a target there (through `ssh -D`, the bastion's loopback)
    const outcomes: Record<string, string> = {};
    for (const url of proxyUrls()) {
      const through = client(kit, true, url);
      outcomes[`${url} 127.0.0.1`] = await outcome(kit, through, '127.0.0.1');
      outcomes[`${url} localhost`] = await outcome(kit, through, 'localhost');
      outcomes[`${url} 127.0.0.1 again`] = await outcome(kit, through, '127.0.0.1');
      const mixed = client(kit, true, { url, noProxy: ['127.0.0.1'] });
      outcomes[`${url} localhost, noProxy 127.0.0.1`] = await outcome(kit, mixed, 'localhost');
      outcomes[`${url} 127.0.0.1 direct after it`] = await outcome(kit, mixed, '127.0.0.1');
    }
    expect(outcomes).toEqual(allBlocked(outcomes));
    expect(kit.server.requests).toHaveLength(0);
    expect(proxy.seen).toHaveLength(0);
    expect(socks.seen).toEqual([]);
  });

  it('a target named as the proxy is refused as any target: through the proxy, and directly after a proxied request', async () => {
    const outcomes: Record<string, string> = {};
    for (const url of proxyUrls('localhost')) {
      const through = client(kit, true, url);
      outcomes[`${url} localhost`] = await outcome(kit, through, 'localhost');
      outcomes[`${url} localhost again`] = await outcome(kit, through, 'localhost');
      const mixed = client(kit, true, { url, noProxy: ['localhost'] });
      outcomes[`${url} rebound.test, noProxy localhost`] = await outcome(kit, mixed, 'rebound.test');
      outcomes[`${url} localhost direct after it`] = await outcome(kit, mixed, 'localhost');
    }
    expect(outcomes).toEqual(allBlocked(outcomes));
    expect(kit.server.requests).toHaveLength(0);
    expect(proxy.seen).toHaveLength(0);
    expect(socks.seen).toEqual([]);
  });
});

conformance('client.publicOnly and the rest of the client', (kit) => {
  it("a client without the policy does not fill the cache of one with it: the policy's client still refuses", async () => {
    kit.server.expect({ method: 'GET', path: '/cached', respond: { ...TEXT, headers: { ...TEXT.headers, 'Cache-Control': 'max-age=600' }, body: 'internal' } });
    const open = kit.client((c) => void (c.client.cache = true));
    expect(await open.get((c) => void (c.request.uri.path = '/cached'))).toBe('internal');
    const guarded = open.configure((c) => void (c.client.publicOnly = true));
    await blocked(guarded.get((c) => void (c.request.uri.path = '/cached')));
    await guarded.close();
  });

  it('with client.connection.socketPath it is a ConfigError: a Unix socket has no address to check', () => {
    expect(() => kit.client((c) => void ((c.client.publicOnly = true), (c.client.connection = { socketPath: '/tmp/none.sock' })))).toThrow(
      /client.publicOnly checks the IP address each connection dials, and client.connection.socketPath dials none/,
    );
  });
});
