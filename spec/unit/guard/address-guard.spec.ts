import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { AddressBlockedError, HttpBuilder, type LookupFunction } from '../../../lib/index.js';
import { ProxyServer } from '../../support/proxy-server.js';

// node's backends dial an HTTP proxy of http targets (absolute form) with client.connection.lookup:
// under client.publicOnly the lookup that lets the proxy's own host through, and for that dial only.
// (Their CONNECT and SOCKS5 dials, and undici's, make no lookup of the client's: spec/conformance/public-only.spec.ts.)
const NAMES: Readonly<Record<string, string>> = { 'proxy.test': '127.0.0.1', localhost: '127.0.0.1' };
const lookup = ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
  const address = NAMES[hostname];
  if (address === undefined) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
  return options?.all ? callback(null, [{ address, family: 4 }]) : callback(null, address, 4);
}) as LookupFunction;

let target: http.Server;
let proxy: ProxyServer;
const hits: string[] = [];
beforeAll(async () => {
  target = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    res.setHeader('Content-Type', 'text/plain');
    res.end('target');
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  proxy = await ProxyServer.start();
});
afterEach(() => {
  hits.length = 0;
  proxy.reset();
});
afterAll(async () => {
  await proxy.close();
  await new Promise((resolve) => target.close(resolve));
});

const port = () => (target.address() as AddressInfo).port;
const proxyUrl = () => proxy.url.replace('127.0.0.1', 'proxy.test');

describe('client.publicOnly: a proxy reached by name', () => {
  for (const backend of ['native', 'axios', 'got'] as const) {
    it(`${backend}: the proxy's name resolves to loopback and is dialled; as a target's name it is refused`, async () => {
      const client = HttpBuilder.configure((c) => {
        c.client.backend = backend;
        c.client.publicOnly = { allow: ['localhost'] };
        c.client.connection = { lookup };
        c.client.proxy = { url: proxyUrl(), noProxy: ['proxy.test'] };
      });
      try {
        expect(await client.get((c) => void (c.request.uri = `http://localhost:${port()}/via`))).toBe('target');
        expect(proxy.seen.map((seen) => seen.target)).toEqual([`http://localhost:${port()}/via`]);
        const direct = await client.get((c) => void (c.request.uri = `http://proxy.test:${port()}/direct`)).catch((e: unknown) => e);
        expect(direct).toBeInstanceOf(AddressBlockedError);
        expect((direct as AddressBlockedError).host).toBe('proxy.test');
        expect(hits).toEqual(['/via']);
      } finally {
        await client.close();
      }
    });
  }
});
