// client.cache shared by derived clients that connect differently: a client certificate is a
// credential the headers do not show, and a Unix socket is another server for the same URL.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import http from 'node:http';
import http2 from 'node:http2';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { generate } from 'selfsigned';
import type { HttpBuilder } from '../../lib/index.js';
import { selfSignedCertificate } from '../support/tls-certificate.js';
import { conformance } from './kit.js';

const PRIVATE = { 'Content-Type': 'text/plain', 'Cache-Control': 'private, max-age=60' };
const PUBLIC = { 'Content-Type': 'text/plain', 'Cache-Control': 'public, max-age=60' };

/** A client certificate (self-signed: the server trusts it by name) for `name`. */
async function clientCertificate(name: string): Promise<{ cert: string; key: string }> {
  const pems = await generate([{ name: 'commonName', value: name }], { keySize: 2048, algorithm: 'sha256' });
  return { cert: pems.cert, key: pems.private };
}

// An HTTPS server (HTTP/1.1 and h2) that asks for a client certificate and answers each with its name
let mutual: http2.Http2SecureServer;
let mutualUrl = '';
let serverCa = '';
const certificates: Record<'alice' | 'bob', { cert: string; key: string }> = { alice: { cert: '', key: '' }, bob: { cert: '', key: '' } };
const mutualCalls: string[] = [];

// Two plain HTTP servers on Unix sockets: two daemons behind the same URL
const folder = mkdtempSync(join(tmpdir(), 'hb-cache-socket-'));
const sockets = { one: join(folder, 'one.sock'), two: join(folder, 'two.sock') };
const daemons: http.Server[] = [];
const socketCalls: string[] = [];

beforeAll(async () => {
  const [server, alice, bob] = await Promise.all([selfSignedCertificate(), clientCertificate('alice'), clientCertificate('bob')]);
  Object.assign(certificates, { alice, bob });
  serverCa = server.cert;
  mutual = http2.createSecureServer({ ...server, allowHTTP1: true, requestCert: true, rejectUnauthorized: true, ca: [alice.cert, bob.cert] }, (req, res) => {
    const name = String((req.socket as TLSSocket).getPeerCertificate().subject.CN);
    mutualCalls.push(`${req.url} ${name}`);
    res.writeHead(200, req.url === '/catalog' ? PUBLIC : PRIVATE);
    res.end(req.url === '/catalog' ? 'catalog' : `for ${name}`);
  });
  await new Promise<void>((resolve) => mutual.listen(0, '127.0.0.1', resolve));
  mutualUrl = `https://127.0.0.1:${(mutual.address() as AddressInfo).port}`;
  for (const [name, path] of Object.entries(sockets)) {
    const daemon = http.createServer((req, res) => {
      socketCalls.push(`${req.url} ${name}`);
      res.writeHead(200, req.url === '/catalog' ? PUBLIC : PRIVATE);
      res.end(`daemon ${name}`);
    });
    await new Promise<void>((resolve) => daemon.listen(path, resolve));
    daemons.push(daemon);
  }
}, 30_000);

afterAll(async () => {
  for (const server of [mutual, ...daemons]) {
    (server as http.Server).closeAllConnections?.();
    await new Promise((resolve) => server.close(resolve));
  }
  rmSync(folder, { recursive: true, force: true });
});

/** Where each GET of `path` by `client` came from, and its body. */
function read(client: HttpBuilder, path: string): Promise<unknown> {
  return client.get((c) => {
    c.request.uri.path = path;
    c.response.success((fromServer, body) => `${fromServer.cache} ${String(body)}`);
  });
}

conformance('HTTP cache: derived clients that connect differently', (kit) => {
  if (kit.secure) {
    it('each client certificate of derived clients gets its own response, private or public; each still gets hits', async () => {
      mutualCalls.length = 0;
      const parent = kit.client((c) => {
        c.request.uri = mutualUrl;
        c.client.cache = true;
      });
      const as = (user: 'alice' | 'bob') => parent.configure((c) => void (c.execution.tls = { ca: serverCa, ...certificates[user] }));
      const [alice, bob] = [as('alice'), as('bob')];
      try {
        const seen = [];
        for (const path of ['/me', '/catalog']) for (const client of [alice, bob, alice, bob]) seen.push(await read(client, path));
        expect(seen).toEqual(['miss for alice', 'miss for bob', 'hit for alice', 'hit for bob', 'miss catalog', 'miss catalog', 'hit catalog', 'hit catalog']);
        expect(mutualCalls).toEqual(['/me alice', '/me bob', '/catalog alice', '/catalog bob']);
      } finally {
        await Promise.all([alice.close(), bob.close()]);
      }
    });
  } else {
    it('derived clients on two Unix sockets (two servers behind one URL) each get their own server’s response, private or public', async () => {
      socketCalls.length = 0;
      const parent = kit.client((c) => {
        c.request.uri = 'http://daemon';
        c.client.cache = true;
      });
      const to = (name: 'one' | 'two') => parent.configure((c) => void (c.client.connection = { socketPath: sockets[name] }));
      const [one, two] = [to('one'), to('two')];
      try {
        const seen = [];
        for (const path of ['/info', '/catalog']) for (const client of [one, two, one, two]) seen.push(await read(client, path));
        expect(seen).toEqual([
          'miss daemon one',
          'miss daemon two',
          'hit daemon one',
          'hit daemon two',
          'miss daemon one',
          'miss daemon two',
          'hit daemon one',
          'hit daemon two',
        ]);
        expect(socketCalls).toEqual(['/info one', '/info two', '/catalog one', '/catalog two']);
      } finally {
        await Promise.all([one.close(), two.close()]);
      }
    });
  }
});
