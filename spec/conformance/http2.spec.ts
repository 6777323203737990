// client.http2 on every backend that can, against node's own HTTP/2 server (which also speaks
// HTTP/1.1 to clients that do not offer h2), and an HTTP/1.1-only https server.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { ConfigError, HttpBuilder, HttpException, NetworkError, TimeoutError } from '../../lib/index.js';
import { selfSignedCertificate } from '../support/tls-certificate.js';
import { BACKENDS } from './backends.js';

let h2: http2.Http2SecureServer;
let h1: https.Server;
let plain: http.Server;
let ca = '';
const sessions = new Set<http2.ServerHttp2Session>();
let sessionsOpened = 0;
const seen: Array<{ version: string; method: string; path: string; authorization?: string; body: string }> = [];

/** What the servers answer, by path; the HTTP version of each request is recorded. */
function answer(req: http.IncomingMessage | http2.Http2ServerRequest, res: http.ServerResponse | http2.Http2ServerResponse): void {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const path = req.url ?? '';
    seen.push({ version: req.httpVersion, method: req.method ?? '', path, authorization: req.headers.authorization, body: Buffer.concat(chunks).toString() });
    const reply = (status: number, headers: Record<string, string>, body: string | Buffer) => {
      res.writeHead(status, headers);
      res.end(body);
    };
    if (path === '/json') reply(200, { 'content-type': 'application/json' }, '{"ok":true}');
    else if (path === '/echo') reply(200, { 'content-type': 'text/plain' }, `${req.method} ${Buffer.concat(chunks).toString()}`);
    else if (path === '/gzip') reply(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }, gzipSync('squeezed'));
    else if (path === '/moved') reply(302, { location: '/json' }, '');
    else if (path === '/private') {
      if (req.headers.authorization === `Basic ${Buffer.from('ada:pw').toString('base64')}`) reply(200, { 'content-type': 'text/plain' }, 'in');
      else reply(401, { 'www-authenticate': 'Basic realm="h2"' }, '');
    } else if (path === '/never') {
      // no answer: the client's response timeout ends it
    } else if (path === '/reset' && 'stream' in req) req.stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
    else reply(404, { 'content-type': 'text/plain' }, 'no');
  });
}

beforeAll(async () => {
  const { key, cert } = await selfSignedCertificate();
  ca = cert;
  h2 = http2.createSecureServer({ key, cert, allowHTTP1: true }, answer);
  h2.on('session', (session) => {
    sessionsOpened++;
    sessions.add(session);
    session.once('close', () => sessions.delete(session));
  });
  h1 = https.createServer({ key, cert }, answer);
  plain = http.createServer(answer);
  for (const server of [h2, h1, plain]) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  for (const session of sessions) session.destroy();
  h1.closeAllConnections();
  plain.closeAllConnections();
  await Promise.all([h2, h1, plain].map((server) => new Promise((resolve) => server.close(resolve))));
});

const url = (server: { address(): AddressInfo | string | null }, scheme = 'https') => `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`;

for (const backend of BACKENDS) {
  describe(`client.http2 on ${backend.name}`, () => {
    if (backend.name === 'axios') {
      it('is a ConfigError naming the backend (axios has no HTTP/2 transport)', () => {
        expect(() =>
          HttpBuilder.configure((c) => {
            c.client.backend = 'axios';
            c.client.http2 = true;
          }),
        ).toThrow(ConfigError);
        expect(() =>
          HttpBuilder.configure((c) => {
            c.client.backend = 'axios';
            c.client.http2 = true;
          }),
        ).toThrow(/'axios' backend cannot speak HTTP\/2/);
      });
      return;
    }

    const clients: HttpBuilder[] = [];
    const client = (origin: string, more?: (c: Parameters<Parameters<typeof HttpBuilder.configure>[0] & object>[0]) => void) => {
      const made = HttpBuilder.configure((c) => {
        c.request.uri = origin;
        c.client.backend = backend.choice;
        c.client.http2 = true;
        c.execution.tls = { ca };
        more?.(c);
      });
      clients.push(made);
      return made;
    };
    afterAll(async () => {
      await Promise.all(clients.map((made) => made.close()));
    });

    it('speaks HTTP/2 where the server picks it: the usual results, httpVersion 2.0, one connection for many requests', async () => {
      seen.length = 0;
      const before = sessionsOpened;
      const http = client(url(h2));
      const version = await http.get((c) => {
        c.request.uri.path = '/json';
        c.response.success((fromServer) => fromServer.httpVersion);
      });
      expect(version).toBe('2.0');
      const results = await Promise.all(Array.from({ length: 5 }, () => http.get((c) => void (c.request.uri.path = '/json'))));
      expect(results).toEqual(Array(5).fill({ ok: true }));
      expect(seen.every((request) => request.version === '2.0')).toBe(true);
      // got's HTTP/2 (http2-wrapper) may open a second session while its first is being set up
      expect(sessionsOpened - before).toBeLessThanOrEqual(backend.name === 'got' ? 2 : 1);
    });

    it('bodies in memory and streamed, gzip, redirects and Basic auth behave as over HTTP/1.1', async () => {
      const http = client(url(h2), (c) => c.request.auth.basic('ada', 'pw'));
      expect(
        await http.post((c) => {
          c.request.uri.path = '/echo';
          c.request.contentType = 'text/plain';
          c.request.body = 'in memory';
        }),
      ).toBe('POST in memory');
      expect(
        await http.put((c) => {
          c.request.uri.path = '/echo';
          c.request.contentType = 'application/octet-stream';
          c.request.body = Readable.from([Buffer.from('stre'), Buffer.from('amed')]);
        }),
      ).toBe('PUT streamed');
      expect(await http.get(String, (c) => void (c.request.uri.path = '/gzip'))).toBe('squeezed');
      expect(await http.get((c) => void (c.request.uri.path = '/moved'))).toEqual({ ok: true });
      expect(await http.get((c) => void (c.request.uri.path = '/private'))).toBe('in');
      await expect(client(url(h2)).get((c) => void (c.request.uri.path = '/nowhere'))).rejects.toBeInstanceOf(HttpException);
    });

    it('a stream the server resets is a NetworkError; a response that never comes a TimeoutError; the session keeps working', async () => {
      const http = client(url(h2));
      await expect(http.get((c) => void (c.request.uri.path = '/reset'))).rejects.toBeInstanceOf(NetworkError);
      const late = http.get((c) => {
        c.request.uri.path = '/never';
        c.execution.timeout = { response: 200 };
      });
      await expect(late).rejects.toBeInstanceOf(TimeoutError);
      expect(await http.get((c) => void (c.request.uri.path = '/json'))).toEqual({ ok: true });
    });

    it('HTTP/1.1 where the server does not offer h2, and on plain http', async () => {
      for (const origin of [url(h1), url(plain, 'http')]) {
        const version = await client(origin).get((c) => {
          c.request.uri.path = '/json';
          c.response.success((fromServer) => fromServer.httpVersion);
        });
        expect(version).toBe('1.1');
      }
    });
  });
}

it('without client.http2 every backend speaks HTTP/1.1, even to a server that offers h2', async () => {
  for (const backend of BACKENDS) {
    const http = HttpBuilder.configure((c) => {
      c.request.uri = url(h2);
      c.client.backend = backend.choice;
      c.execution.tls = { ca };
    });
    const version = await http.get((c) => {
      c.request.uri.path = '/json';
      c.response.success((fromServer) => fromServer.httpVersion);
    });
    await http.close();
    expect([backend.name, version]).toEqual([backend.name, '1.1']);
  }
});
