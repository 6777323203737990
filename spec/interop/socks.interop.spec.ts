// SOCKS5 proxies on every backend against a real one: microsocks, open and with an RFC 1929
// login; http and https targets of the test server; socks5 (the client resolves) and socks5h
// (the proxy resolves). Witnesses: microsocks' log of each tunnel's target as it was sent (a
// name or an address), the address the target saw the request come from (the proxy's outgoing
// one), and curl --socks5 / --socks5-hostname doing the same through the same servers.
import { afterEach, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect, promisify } from 'node:util';
import { HttpBuilder, ProxyError, type BackendChoice } from '../../lib/index.js';
import { BACKENDS } from '../conformance/backends.js';
import { useTestServer } from '../support/use-test-server.js';
import { startMicrosocks, type SocksPeer } from './servers/index.js';
import { usePeers } from './servers/use-peer.js';

const execFileAsync = promisify(execFile);
const LOGIN = { user: 'socks-user', password: 'p@ss:w0rd é' };
const SCHEMES = ['socks5', 'socks5h'] as const;

/** Until microsocks has logged `count` tunnels (it logs as it connects, a moment after the client's request may be done). */
async function tunnels(peer: SocksPeer, count: number): Promise<string[]> {
  for (let waited = 0; peer.connectedTo().length < count && waited < 3000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  return peer.connectedTo();
}

describe('SOCKS5 on every backend (microsocks, open and with a login)', () => {
  const target = useTestServer();
  const peers = usePeers([() => startMicrosocks(), () => startMicrosocks(LOGIN)]);
  const open: HttpBuilder[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
    for (const peer of peers.servers) peer.clear();
  });

  function client(backend: BackendChoice, secure: boolean, proxy: string): HttpBuilder {
    const made = HttpBuilder.configure((c) => {
      c.request.uri = target.server.url(secure).replace('127.0.0.1', 'localhost');
      c.client.backend = backend;
      c.client.proxy = proxy;
      if (secure) c.execution.tls = { ca: target.server.ca };
    });
    open.push(made);
    return made;
  }

  for (const backend of BACKENDS) {
    for (const secure of [false, true]) {
      for (const scheme of SCHEMES) {
        for (const withLogin of [false, true]) {
          it(`${backend.name}, ${secure ? 'https' : 'http'} target, ${scheme}${withLogin ? ' with a login' : ''}: a GET and a POST reach the target through the tunnel`, async () => {
            const peer = peers.servers[withLogin ? 1 : 0];
            target.server.expect({ method: 'GET', path: '/hello', respond: { headers: { 'Content-Type': 'application/json' }, body: '{"hello":"socks"}' } });
            target.server.expect({
              method: 'POST',
              path: '/echo',
              respond: (request, response) => {
                response.setHeader('Content-Type', 'text/plain; charset=utf-8');
                response.end(request.body);
              },
            });
            const http = client(backend.choice, secure, peer.url(scheme));
            expect(await http.get((c) => void (c.request.uri.path = '/hello'))).toEqual({ hello: 'socks' });
            const echoed = await http.post((c) => {
              c.request.uri.path = '/echo';
              c.request.contentType = 'text/plain';
              c.request.body = 'über die Brücke';
            });
            expect(echoed).toBe('über die Brücke');
            expect(target.server.requests.map((r) => r.remoteAddress)).toEqual([peer.outgoingAddress, peer.outgoingAddress]);
            const port = new URL(target.server.url(secure)).port;
            const seen = await tunnels(peer, 1);
            expect(seen.length).toBeGreaterThanOrEqual(1);
            expect(new Set(seen)).toEqual(new Set([`${scheme === 'socks5h' ? 'localhost' : '127.0.0.1'}:${port}`]));
          });
        }
      }

      it(`${backend.name}, ${secure ? 'https' : 'http'} target: a wrong password and none at all are ProxyErrors that never show the password`, async () => {
        const peer = peers.servers[1];
        const wrong = client(backend.choice, secure, peer.url('socks5h', 'not-the-password'));
        const refused = await wrong.get().then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(refused).toBeInstanceOf(ProxyError);
        expect((refused as Error).message).toContain('refused the credentials');
        expect(inspect(refused, { depth: 10 })).not.toContain('not-the-password');
        const none = client(backend.choice, secure, `socks5h://127.0.0.1:${peer.port}`);
        const missing = await none.get().then(
          () => undefined,
          (error: unknown) => error,
        );
        expect(missing).toBeInstanceOf(ProxyError);
        expect((missing as Error).message).toContain('asks for a SOCKS5 login');
        expect(target.server.requests).toHaveLength(0);
      });
    }
  }

  it('curl --socks5 and --socks5-hostname through the same servers: the same tunnels as the client', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hb-socks-'));
    try {
      const ca = join(dir, 'ca.pem');
      writeFileSync(ca, target.server.ca);
      for (const [index, peer] of peers.servers.entries()) {
        for (const secure of [false, true]) {
          target.server.expect({ method: 'GET', path: '/curl', respond: { body: 'curl' } });
          const url = `${target.server.url(secure).replace('127.0.0.1', 'localhost')}/curl`;
          const login = index === 1 ? ['--proxy-user', `${LOGIN.user}:${LOGIN.password}`] : [];
          for (const flag of ['--socks5', '--socks5-hostname']) {
            const { stdout } = await execFileAsync('curl', ['-sS', '--max-time', '10', '--cacert', ca, flag, `127.0.0.1:${peer.port}`, ...login, url]);
            expect(stdout).toBe('curl');
          }
        }
        const port = (secure: boolean) => new URL(target.server.url(secure)).port;
        expect(await tunnels(peer, 4)).toEqual([`127.0.0.1:${port(false)}`, `localhost:${port(false)}`, `127.0.0.1:${port(true)}`, `localhost:${port(true)}`]);
        peer.clear();
      }
      expect(new Set(target.server.requests.map((r) => r.remoteAddress))).toEqual(new Set([peers.servers[0].outgoingAddress]));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
