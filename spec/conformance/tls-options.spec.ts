// execution.tls beyond a CA: pins (SPKI SHA-256, any certificate of the chain the server sends),
// client certificates from PEM or PKCS#12, TLS versions and ciphers, on every backend over HTTPS
// and HTTP/2, directly and through a CONNECT tunnel. Certificates are made at test time.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { ConfigError, HttpBuilder, NetworkError, type TlsOptions } from '../../lib/index.js';
import { axiosBackend } from '../../lib/backends/axios.js';
import { gotBackend } from '../../lib/backends/got.js';
import { ProxyServer } from '../support/proxy-server.js';
import { pinOf, tlsChain, type TlsChain } from '../support/tls-chain.js';
import { conformance, type Kit } from './kit.js';

const NOWHERE = `${'A'.repeat(43)}=`;

let chain: TlsChain;
let proxy: ProxyServer;
/** Each request the servers answered: `<server> <path>`. */
const answered: string[] = [];

/** An HTTPS server (HTTP/1.1 and h2) that sends leaf + intermediate, asks for a client certificate, and says what it saw. */
function chainServer(name: string, options: http2.SecureServerOptions = {}): Promise<{ server: http2.Http2SecureServer; url: string }> {
  const server = http2.createSecureServer(
    { key: chain.leafKey, cert: chain.leaf + chain.intermediate, ca: chain.root, allowHTTP1: true, requestCert: true, rejectUnauthorized: false, ...options },
    (req, res) => {
      answered.push(`${name} ${req.url}`);
      const socket = req.socket as TLSSocket;
      const peer = socket.getPeerCertificate();
      const who = socket.authorized ? String(peer.subject.CN) : 'anonymous';
      res.writeHead(200, { 'Content-Type': 'text/plain', ...(req.url === '/cached' && { 'Cache-Control': 'max-age=600' }) });
      res.end(`HTTP/${req.httpVersion} ${who} ${socket.getProtocol()} ${socket.getCipher().name}`);
    },
  );
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `https://localhost:${(server.address() as AddressInfo).port}` })));
}

let open: { server: http2.Http2SecureServer; url: string };
let strict: { server: http2.Http2SecureServer; url: string };
beforeAll(async () => {
  chain = tlsChain();
  proxy = await ProxyServer.start();
  open = await chainServer('open');
  // TLS 1.2 with one cipher only
  strict = await chainServer('strict', { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256' });
}, 30_000);
afterEach(() => {
  answered.length = 0;
  proxy.reset();
});
afterAll(async () => {
  await proxy.close();
  for (const { server } of [open, strict]) await new Promise((resolve) => server.close(resolve));
});

function client(kit: Kit, url: string, tls: TlsOptions, proxied = false) {
  return kit.client((c) => {
    c.request.uri = url;
    c.execution.tls = tls;
    if (proxied) c.client.proxy = proxy.url;
  });
}

async function failure(call: Promise<unknown>): Promise<Error> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(error).toBeInstanceOf(Error);
  return error!;
}

conformance('execution.tls: pins, client certificates, versions, ciphers', (kit) => {
  if (!kit.secure) {
    it('plain HTTP: TLS settings, pins included, do not get in the way', async () => {
      kit.server.expect({ method: 'GET', path: '/plain', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'plain' } });
      expect(
        await kit.client((c) => void (c.execution.tls = { pins: [NOWHERE], minVersion: 'TLSv1.3' })).get((c) => void (c.request.uri.path = '/plain')),
      ).toBe('plain');
    });
    return;
  }
  const version = kit.http2 ? 'HTTP/2.0' : 'HTTP/1.1';

  it('a pin of the leaf or of the intermediate (the chain the server sends) lets the connection through', async () => {
    for (const pin of [pinOf(chain.leaf), pinOf(chain.intermediate)]) {
      expect(await client(kit, open.url, { ca: chain.root, pins: [NOWHERE, pin] }).get()).toMatch(new RegExp(`^${version} anonymous`));
    }
  });

  it('no pin matching refuses the connection with a NetworkError naming the pins, before any request is sent', async () => {
    const error = (await failure(client(kit, open.url, { ca: chain.root, pins: [NOWHERE] }).get())) as NetworkError;
    expect(error).toBeInstanceOf(NetworkError);
    expect(error.reason).toBe('tls');
    expect(error.message).toContain(
      `the certificate of localhost matches none of execution.tls.pins (its chain: sha256//${pinOf(chain.leaf)}, sha256//${pinOf(chain.intermediate)}`,
    );
    expect(error.message).not.toContain('set execution.tls.ca');
    expect(answered).toEqual([]);
  });

  it('every new connection is pinned: a second one (no resumed TLS session, which shows no certificate) passes too', async () => {
    const client = kit.client((c) => {
      c.request.uri = open.url;
      c.execution.tls = { ca: chain.root, pins: [pinOf(chain.intermediate)] };
      c.client.connection = { keepAlive: false };
    });
    for (let i = 0; i < 3; i++) expect(await client.get()).toMatch(/anonymous/);
  });

  it('a pin failure names the host of an IP URL too', async () => {
    const byIp = open.url.replace('localhost', '127.0.0.1');
    await expect(client(kit, byIp, { ca: chain.root, pins: [NOWHERE] }).get()).rejects.toThrow(
      /the certificate of 127\.0\.0\.1 matches none of execution\.tls\.pins/,
    );
  });

  it('pins hold with rejectUnauthorized: false too (node skips its own identity check then)', async () => {
    expect(await client(kit, open.url, { rejectUnauthorized: false, pins: [pinOf(chain.intermediate)] }).get()).toMatch(/anonymous/);
    await expect(client(kit, open.url, { rejectUnauthorized: false, pins: [NOWHERE] }).get()).rejects.toMatchObject({ name: 'NetworkError', reason: 'tls' });
    expect(answered).toEqual(['open /']);
  });

  it('pins hold through a CONNECT tunnel: the pinned certificate is the target’s, not the proxy’s', async () => {
    await expect(client(kit, open.url, { ca: chain.root, pins: [NOWHERE] }, true).get()).rejects.toMatchObject({ name: 'NetworkError', reason: 'tls' });
    expect(answered).toEqual([]);
    expect(proxy.seen.map((seen) => seen.method)).toContain('CONNECT');
    expect(await client(kit, open.url, { ca: chain.root, pins: [pinOf(chain.leaf)] }, true).get()).toMatch(/anonymous/);
  });

  it('a client certificate as PEM cert and key, or as a PKCS#12 file with its passphrase', async () => {
    const pem = await client(kit, open.url, { ca: chain.root, cert: chain.client.cert, key: chain.client.key }).get();
    expect(pem).toMatch(new RegExp(`^${version} client `));
    const pfx = await client(kit, open.url, { ca: chain.root, pfx: chain.client.pfx, passphrase: chain.client.passphrase }).get();
    expect(pfx).toMatch(new RegExp(`^${version} client `));
  });

  it('a wrong passphrase is a ConfigError when the client is made, naming the options, never showing the passphrase', () => {
    const made = () => client(kit, open.url, { ca: chain.root, pfx: chain.client.pfx, passphrase: 'not-the-passphrase' });
    expect(made).toThrow(ConfigError);
    expect(made).toThrow(/^execution.tls cannot be used \(ca, pfx, passphrase\): /);
    expect(made).not.toThrow(/not-the-passphrase/);
  });

  it('maxVersion and ciphers choose what is negotiated; minVersion or ciphers the server lacks fail as TLS', async () => {
    const tls12 = await client(kit, open.url, { ca: chain.root, maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES256-GCM-SHA384' }).get();
    expect(tls12).toMatch(/ TLSv1\.2 ECDHE-ECDSA-AES256-GCM-SHA384$/);
    expect(await client(kit, open.url, { ca: chain.root, minVersion: 'TLSv1.3' }).get()).toMatch(/ TLSv1\.3 /);
    for (const tls of [{ minVersion: 'TLSv1.3' }, { ciphers: 'ECDHE-ECDSA-AES256-GCM-SHA384' }] as const) {
      await expect(client(kit, strict.url, { ca: chain.root, ...tls }).get()).rejects.toMatchObject({ name: 'NetworkError', reason: 'tls' });
    }
    expect(answered.filter((seen) => seen.startsWith('strict'))).toEqual([]);
  });

  it('a cipher list naming no known cipher, or a CA that is not PEM, is a ConfigError when the client is made', () => {
    expect(() => client(kit, open.url, { ciphers: 'NO-SUCH-CIPHER' })).toThrow(/^execution.tls.ciphers names no cipher this node's OpenSSL has: /);
    expect(() => client(kit, open.url, { ca: ['not a certificate'] })).toThrow(/^execution.tls.ca holds no PEM certificate/);
    expect(() => client(kit, open.url, { ca: chain.root, cert: chain.client.cert, key: chain.leafKey })).toThrow(
      /^execution.tls cannot be used \(ca, cert, key\): .*key values mismatch/,
    );
  });
});

conformance('execution.tls and the HTTP cache', (kit) => {
  if (!kit.secure) {
    it('plain HTTP: the cache of a client with TLS settings serves hits as usual', async () => {
      kit.server.expect({
        method: 'GET',
        path: '/shared',
        respond: { headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'max-age=600' }, body: 'shared' },
      });
      const client = kit.client((c) => void ((c.client.cache = true), (c.execution.tls = { ca: chain.root, pins: [NOWHERE] })));
      for (let i = 0; i < 2; i++) expect(await client.get((c) => void (c.request.uri.path = '/shared'))).toBe('shared');
      expect(kit.server.requests.map((r) => r.path)).toEqual(['/shared']);
    });
    return;
  }

  it('a client with the chain checks off does not fill the cache of one that pins: the pinned client still refuses', async () => {
    const unchecked = kit.client((c) => {
      c.request.uri = open.url;
      c.execution.tls = { rejectUnauthorized: false };
      c.client.cache = true;
    });
    expect(await unchecked.get((c) => void (c.request.uri.path = '/cached'))).toMatch(/anonymous/);
    const pinned = unchecked.configure((c) => void (c.execution.tls = { rejectUnauthorized: false, pins: [NOWHERE] }));
    await expect(pinned.get((c) => void (c.request.uri.path = '/cached'))).rejects.toMatchObject({ name: 'NetworkError', reason: 'tls' });
    await pinned.close();
  });
});

describe('execution.tls.pins and a Backend object of your own', () => {
  it('is a ConfigError when the client is made (your axios or got instance would connect unpinned)', async () => {
    const { default: axios } = await import('axios');
    const { default: got } = await import('got');
    for (const backend of [axiosBackend(axios.create()), gotBackend(got)]) {
      expect(() =>
        HttpBuilder.configure((c) => {
          c.client.backend = backend;
          c.execution.tls = { pins: [NOWHERE] };
        }),
      ).toThrow(/^execution.tls.pins needs a built-in backend \(native, undici, axios, got, fetch\), which checks each connection's certificate/);
    }
  });
});
