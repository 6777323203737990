import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, HttpBuilder } from '../../lib/index.js';
import { conformance } from './kit.js';

const OK = { headers: { 'Content-Type': 'text/plain' }, body: 'ok' };

/** Waits `ms`. */
function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// A plain HTTP server on a Unix domain socket, for socketPath (Docker's kind of API)
const folder = mkdtempSync(join(tmpdir(), 'hb-socket-'));
const socketPath = join(folder, 'api.sock');
let unixServer: http.Server;
const unixHosts: string[] = [];
beforeAll(async () => {
  unixServer = http.createServer((req, res) => {
    unixHosts.push(req.headers.host ?? '');
    res.setHeader('Content-Type', 'text/plain');
    res.end(`unix ${req.url}`);
  });
  await new Promise<void>((resolve) => unixServer.listen(socketPath, resolve));
});
afterAll(async () => {
  unixServer.closeAllConnections();
  await new Promise((resolve) => unixServer.close(resolve));
  rmSync(folder, { recursive: true, force: true });
});

conformance('connections (client.connection)', (kit) => {
  it('maxSockets bounds the connections the server sees at once; the rest wait, in order', async () => {
    let open = 0;
    let most = 0;
    kit.server.expect({
      method: 'GET',
      path: '/slow',
      respond: async (_req, res) => {
        most = Math.max(most, ++open);
        await pause(60);
        open--;
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('slow');
      },
    });
    const client = kit.client((c) => void (c.client.connection = { maxSockets: 2 }));
    const calls = Array.from({ length: 6 }, (_, i) =>
      client.get((c) => {
        c.request.uri.path = '/slow';
        c.request.uri.query = { i: String(i) };
      }),
    );
    expect(await Promise.all(calls)).toEqual(Array(6).fill('slow'));
    // over HTTP/2 one connection carries all six at once (multiplexed): none waits
    expect(most).toBe(kit.http2 ? 6 : 2);
    const sockets = new Set(kit.server.requests.map((r) => r.remotePort));
    expect(sockets.size).toBeLessThanOrEqual(2);
    const order = kit.server.requests.map((r) => Number(r.query.i?.[0]));
    // the queued ones went out in the order they were made (over HTTP/2 none waited: all six, in any order)
    if (kit.http2) expect(order.sort()).toEqual([0, 1, 2, 3, 4, 5]);
    else expect(order.slice(2)).toEqual([2, 3, 4, 5]);
  });

  // keepAlive and idleTimeout shape HTTP/1.1 connections; over HTTP/2 an origin's one connection carries every request
  it(`keepAlive: false opens a connection per request${kit.http2 ? ' over HTTP/1.1; over HTTP/2 every request shares one' : ''}`, async () => {
    for (let i = 0; i < 3; i++) kit.server.expect({ method: 'GET', path: '/each', respond: OK });
    const client = kit.client((c) => void (c.client.connection = { keepAlive: false }));
    for (let i = 0; i < 3; i++) await client.get((c) => void (c.request.uri.path = '/each'));
    expect(new Set(kit.server.requests.map((r) => r.remotePort)).size).toBe(kit.http2 ? 1 : 3);
  });

  if (!kit.http2)
    it('idleTimeout closes a kept-alive connection that waits longer; the next request opens a new one', async () => {
      kit.server.expect({ method: 'GET', path: '/idle', respond: OK });
      const client = kit.client((c) => void (c.client.connection = { idleTimeout: 150 }));
      await client.get((c) => void (c.request.uri.path = '/idle'));
      await pause(1500); // undici checks its keep-alive timers coarsely (about a second)
      expect(kit.server.openConnections).toBe(0);
      await client.get((c) => void (c.request.uri.path = '/idle'));
      expect(new Set(kit.server.requests.map((r) => r.remotePort)).size).toBe(2);
    });

  it('localAddress binds the connections to that interface', async () => {
    kit.server.expect({ method: 'GET', path: '/from', respond: OK });
    await kit.client((c) => void (c.client.connection = { localAddress: '127.0.0.2' })).get((c) => void (c.request.uri.path = '/from'));
    expect(kit.server.requests[0].remoteAddress).toMatch(/127\.0\.0\.2$/);
  });

  it('a request that waited for a socket (maxSockets) gets no connect timeout of a connection it did not open', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/held',
      respond: async (_req, res) => {
        await pause(250);
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('held');
      },
    });
    const client = kit.client((c) => {
      c.client.connection = { maxSockets: 1 };
      c.execution.timeout = { connect: 150 };
    });
    const calls = [0, 1].map(() => client.get((c) => void (c.request.uri.path = '/held')));
    expect(await Promise.all(calls)).toEqual(['held', 'held']);
  });

  it('a lookup written for one address answers node, which asks for all of them', async () => {
    kit.server.expect({ method: 'GET', path: '/single', respond: OK });
    const port = new URL(kit.server.url(kit.secure)).port;
    const client = kit.client((c) => {
      c.request.uri = `${kit.secure ? 'https' : 'http'}://single.internal:${port}`;
      c.client.connection = { lookup: (_hostname, _options, callback) => callback(null, '127.0.0.1', 4) };
      c.execution.tls = { ca: kit.server.ca, servername: 'localhost' };
    });
    expect(await client.get((c) => void (c.request.uri.path = '/single'))).toBe('ok');
  });

  it('lookup resolves the host of every new connection; family narrows it', async () => {
    kit.server.expect({ method: 'GET', path: '/named', respond: OK });
    const asked: string[] = [];
    const port = new URL(kit.server.url(kit.secure)).port;
    const client = kit.client((c) => {
      c.request.uri = `${kit.secure ? 'https' : 'http'}://service.internal:${port}`;
      c.client.connection = {
        family: 4,
        lookup: (hostname, options, callback) => {
          asked.push(hostname);
          // node asks for all addresses (autoSelectFamily), undici for one
          if ((options as { all?: boolean }).all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
          else callback(null, '127.0.0.1', 4);
        },
      };
      // the certificate names localhost: check it against that name
      c.execution.tls = { ca: kit.server.ca, servername: 'localhost' };
    });
    expect(await client.get((c) => void (c.request.uri.path = '/named'))).toBe('ok');
    expect(asked).toContain('service.internal');
    expect(kit.server.requests[0].headers.host).toBe(`service.internal:${port}`);
  });

  if (!kit.secure) {
    it("socketPath goes to the socket even with the environment's proxy set; with an explicit proxy it is a ConfigError", async () => {
      const saved = process.env.http_proxy;
      process.env.http_proxy = 'http://127.0.0.1:9';
      try {
        const client = kit.client((c) => {
          c.request.uri = 'http://docker';
          c.client.connection = { socketPath };
        });
        expect(await client.get((c) => void (c.request.uri.path = '/_ping'))).toBe('unix /_ping');
      } finally {
        if (saved === undefined) delete process.env.http_proxy;
        else process.env.http_proxy = saved;
      }
      expect(() =>
        kit.client((c) => {
          c.client.connection = { socketPath };
          c.client.proxy = 'http://127.0.0.1:3128';
        }),
      ).toThrow(/client\.proxy and client\.connection\.socketPath cannot be combined/);
    });

    it('socketPath sends to a Unix domain socket; the URL still gives Host and path', async () => {
      unixHosts.length = 0;
      const client = kit.client((c) => {
        c.request.uri = 'http://docker/v1.43';
        c.client.connection = { socketPath };
      });
      expect(await client.get((c) => void (c.request.uri.path = 'containers/json'))).toBe('unix /v1.43/containers/json');
      expect(unixHosts).toEqual(['docker']);
    });
  }
});

it('bad client.connection values are ConfigErrors naming the member, before anything is sent', async () => {
  const set = (connection: unknown) => () => HttpBuilder.configure((c) => void (c.client.connection = connection as never));
  expect(set({ maxSockets: 0 })).toThrow(/client\.connection\.maxSockets must be a whole number/);
  expect(set({ maxSockets: 1.5 })).toThrow(/maxSockets/);
  expect(set({ keepAlive: 'yes' })).toThrow(/client\.connection\.keepAlive must be true or false/);
  expect(set({ idleTimeout: -1 })).toThrow(/client\.connection\.idleTimeout/);
  expect(set({ socketPath: '' })).toThrow(/client\.connection\.socketPath/);
  expect(set({ lookup: 'dns' })).toThrow(/client\.connection\.lookup must be a dns\.lookup-compatible function/);
  expect(set({ family: 5 })).toThrow(/client\.connection\.family must be 4 or 6/);
  expect(set({ localAddress: 'eth0' })).toThrow(/client\.connection\.localAddress must be an IPv4 or IPv6 address/);
  expect(set({ localAddress: '1:2:3' })).toThrow(/localAddress/);
  expect(set({ localAddress: '::1' })).not.toThrow();
  expect(set({ maxSocket: 2 })).toThrow(/client\.connection has no setting 'maxSocket'/);
  expect(set('fast')).toThrow(ConfigError);
  const client = HttpBuilder.configure();
  await expect(client.get((c) => void (c.client.connection = { maxSockets: 2 }))).rejects.toThrow(/client\.connection/);
  await client.close();
});
