import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import net from 'node:net';
import { inspect } from 'node:util';
import { ProxyError } from '../../../lib/core/errors.js';
import { openSocksTunnel } from '../../../lib/backends/socks-tunnel.js';
import { proxyRouter } from '../../../lib/proxy/router.js';
import type { ProxyRoute } from '../../../lib/model/proxy-route.js';
import { SocksServer, type SocksServerOptions } from '../../support/socks-server.js';

/** The route `client.proxy = url` gives every target. */
function routeOf(url: string): ProxyRoute {
  return proxyRouter(url)!.route({ secure: false, hostname: 'target.test', port: 80 })!;
}

function failureOf(promise: Promise<net.Socket>): Promise<unknown> {
  return promise.then(
    (socket) => {
      socket.destroy();
      return undefined;
    },
    (error: unknown) => error,
  );
}

describe('openSocksTunnel: what a SOCKS5 proxy answers becomes a clear error', () => {
  const servers: SocksServer[] = [];
  const start = async (options: SocksServerOptions) => {
    const server = await SocksServer.start(options);
    servers.push(server);
    return server;
  };
  let target: net.Server;
  beforeAll(async () => {
    target = net.createServer((socket) => socket.end('hello'));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
    await new Promise((resolve) => target.close(resolve));
  });
  const targetPort = () => (target.address() as net.AddressInfo).port;

  it.each([
    [2, 403, 'SOCKS5 reply 2, connection not allowed by ruleset'],
    [4, 502, 'SOCKS5 reply 4, host unreachable'],
    [1, 502, 'SOCKS5 reply 1, general SOCKS server failure'],
    [9, 502, 'a SOCKS5 reply code RFC 1928 does not define'],
  ])('reply %d: ProxyError %d naming the proxy and the reply', async (reply, statusCode, words) => {
    const server = await start({ reply });
    const error = await failureOf(openSocksTunnel(routeOf(server.url('socks5h', 'u:hidden')), { hostname: 'example.test', port: 443 }, {}));
    expect(error).toBeInstanceOf(ProxyError);
    expect(error).toMatchObject({ statusCode, message: `the proxy socks5h://***@127.0.0.1:${server.port} refused a tunnel to example.test:443: ${words}` });
    expect((error as Error).cause).toBeUndefined();
    expect(inspect(error, { depth: 10 })).not.toContain('hidden');
  });

  it('a proxy that picks the login method the client did not offer: ProxyError 407 saying the URL has no credentials', async () => {
    const server = await start({ login: { user: 'u', password: 'p' }, forceLogin: true });
    const error = await failureOf(openSocksTunnel(routeOf(server.url('socks5h')), { hostname: 'example.test', port: 443 }, {}));
    expect(error).toBeInstanceOf(ProxyError);
    expect(error).toMatchObject({
      statusCode: 407,
      message: `the proxy socks5h://127.0.0.1:${server.port} asks for a SOCKS5 login, and its URL has no credentials (socks5://user:password@host:port)`,
    });
  });

  it('socks5: a name the client cannot resolve fails before the proxy is asked (ENOTFOUND)', async () => {
    const server = await start({});
    const error = await failureOf(openSocksTunnel(routeOf(server.url('socks5')), { hostname: 'no-such-host.invalid', port: 80 }, {}));
    expect(error).toMatchObject({ code: 'ENOTFOUND' });
    expect(server.seen).toEqual([]);
  });

  it('socks5 resolves with the lookup it is given; the tunnel carries bytes both ways', async () => {
    const server = await start({});
    const lookup = (_host: string, _options: unknown, callback: (error: null, address: string, family: number) => void) => callback(null, '127.0.0.1', 4);
    const socket = await openSocksTunnel(routeOf(server.url('socks5')), { hostname: 'made-up.test', port: targetPort() }, {}, { lookup });
    const answer = await new Promise<string>((resolve) => {
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString())).on('end', () => resolve(text));
    });
    expect(answer).toBe('hello');
    expect(server.seen).toEqual([{ host: '127.0.0.1', port: targetPort(), kind: 'ipv4' }]);
  });

  it('an abort stops a handshake under way, with the signal reason', async () => {
    const server = await start({ silent: true });
    const controller = new AbortController();
    const opening = failureOf(openSocksTunnel(routeOf(server.url()), { hostname: 'example.test', port: 80 }, { signal: controller.signal }));
    setTimeout(() => controller.abort(new Error('stopped by the caller')), 50);
    expect(await opening).toMatchObject({ message: 'stopped by the caller' });
  });

  it('a proxy that closes the connection mid-handshake is a plain reset (a NetworkError later), naming the proxy', async () => {
    const closing = net.createServer((socket) => socket.once('data', () => socket.destroy()));
    await new Promise<void>((resolve) => closing.listen(0, '127.0.0.1', resolve));
    try {
      const port = (closing.address() as net.AddressInfo).port;
      const error = await failureOf(openSocksTunnel(routeOf(`socks5h://u:hidden@127.0.0.1:${port}`), { hostname: 'example.test', port: 80 }, {}));
      expect(error).not.toBeInstanceOf(ProxyError);
      expect(error).toMatchObject({
        code: 'ECONNRESET',
        message: `the proxy socks5h://***@127.0.0.1:${port} broke off the SOCKS5 handshake (it closed the connection)`,
      });
    } finally {
      await new Promise((resolve) => closing.close(resolve));
    }
  });
});
