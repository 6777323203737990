import { describe, expect, it } from '@jest/globals';
import * as http from 'node:http';
import * as https from 'node:https';
import { STATUS_CODES } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { TestServer } from './test-server.js';
import { useTestServer } from './use-test-server.js';

interface SendOptions {
  method?: string;
  target?: string;
  headers?: http.OutgoingHttpHeaders;
  /** Written in one piece with Content-Length, or in these pieces with chunked encoding. */
  body?: string | string[];
  secure?: boolean;
  agent?: http.Agent;
}

interface Received {
  status: number;
  reason: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  reusedSocket: boolean;
}

// A bare node:http(s) client: unlike fetch it adds no headers and decodes nothing, so the test
// sees exactly what the server sent. `agent: false` (default) closes the socket afterwards.
function send(server: TestServer, options: SendOptions = {}): Promise<Received> {
  const secure = options.secure ?? false;
  const url = new URL(server.url(secure));
  const requestOptions: https.RequestOptions = {
    method: options.method ?? 'GET',
    host: url.hostname,
    port: url.port,
    path: options.target ?? '/',
    headers: options.headers,
    agent: options.agent ?? false,
    ca: server.ca,
  };
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(requestOptions, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          reason: res.statusMessage ?? '',
          headers: res.headers,
          body: Buffer.concat(chunks),
          reusedSocket: req.reusedSocket,
        }),
      );
    });
    req.on('error', reject);
    const body = options.body;
    if (Array.isArray(body)) {
      req.setHeader('Transfer-Encoding', 'chunked');
      for (const piece of body) req.write(piece);
      req.end();
    } else if (body !== undefined) {
      req.setHeader('Content-Length', Buffer.byteLength(body));
      req.end(body);
    } else {
      req.end();
    }
  });
}

describe('TestServer', () => {
  const holder = useTestServer();

  describe('matching expectations', () => {
    it('answers over HTTP and counts calls', async () => {
      const { server } = holder;
      const handle = server.expect({ method: 'GET', path: '/hello', respond: { body: 'hi', headers: { 'X-Test': 'yes' } } });
      const first = await send(server, { target: '/hello' });
      const second = await send(server, { target: '/hello' });
      expect([first.status, first.reason, first.body.toString(), first.headers['x-test']]).toEqual([200, 'OK', 'hi', 'yes']);
      expect(first.headers['content-length']).toBe('2');
      expect(second.status).toBe(200);
      expect(handle.calls).toBe(2);
      expect(server.requests.map((r) => [r.method, r.target, r.secure, r.matched])).toEqual([
        ['GET', '/hello', false, true],
        ['GET', '/hello', false, true],
      ]);
      expect(server.httpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    });

    it('answers over HTTPS with a certificate trusted through ca', async () => {
      const { server } = holder;
      const handle = server.expect({ method: 'GET', path: '/tls', secure: true, respond: { status: 201, body: 'secure' } });
      const res = await send(server, { target: '/tls', secure: true });
      expect([res.status, res.body.toString()]).toEqual([201, 'secure']);
      expect(handle.calls).toBe(1);
      expect(server.requests[0].secure).toBe(true);
      expect(server.httpsUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      // `secure: true` does not answer the plain listener
      const plain = await send(server, { target: '/tls' });
      expect(plain.status).toBe(404);
      expect(plain.body.toString()).toContain('listener: expected HTTPS, actual HTTP');
    });

    it('the certificate also verifies for host name localhost', async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/', respond: { body: 'ok' } });
      const port = new URL(server.httpsUrl).port;
      const body = await new Promise<string>((resolve, reject) => {
        const req = https.get({ host: '127.0.0.1', servername: 'localhost', port, path: '/', ca: server.ca, agent: false }, (res) => {
          res.setEncoding('utf8');
          let text = '';
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve(text));
        });
        req.on('error', reject);
      });
      expect(body).toBe('ok');
    });

    it('lets the first registered matching expectation answer', async () => {
      const { server } = holder;
      const a = server.expect({ method: 'GET', path: '/x', respond: { body: 'a' } });
      const b = server.expect({ method: 'GET', path: '/x', respond: { body: 'b' } });
      expect((await send(server, { target: '/x' })).body.toString()).toBe('a');
      expect([a.calls, b.calls]).toEqual([1, 0]);
    });

    it('sends status, custom and default reason phrases', async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/teapot', respond: { status: 418, reason: 'Short And Stout' } });
      server.expect({ method: 'GET', path: '/gone', respond: { status: 410 } });
      const teapot = await send(server, { target: '/teapot' });
      const gone = await send(server, { target: '/gone' });
      expect([teapot.status, teapot.reason, teapot.body.length]).toEqual([418, 'Short And Stout', 0]);
      expect([gone.status, gone.reason]).toEqual([410, STATUS_CODES[410]]);
    });
  });

  describe('query', () => {
    it('parses repeated names in order, percent-decodes and keeps +', async () => {
      const { server } = holder;
      const handle = server.expect({
        method: 'GET',
        path: '/q',
        query: { a: ['1', '2'], 'b c': 'x y+z', flag: '' },
        respond: { body: 'matched' },
      });
      const res = await send(server, { target: '/q?a=1&b%20c=x%20y+z&a=2&flag' });
      expect(res.body.toString()).toBe('matched');
      expect(handle.calls).toBe(1);
      const [req] = server.requests;
      expect(req.path).toBe('/q');
      expect(req.query).toEqual({ a: ['1', '2'], 'b c': ['x y+z'], flag: [''] });
      expect(req.hasQueryString).toBe(true);
    });

    it('does not match other values, another order, or extra names', async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/q', query: { a: ['1', '2'] }, respond: { body: 'matched' } });
      const reordered = await send(server, { target: '/q?a=2&a=1' });
      const extra = await send(server, { target: '/q?a=1&a=2&b=3' });
      expect(reordered.status).toBe(404);
      expect(reordered.body.toString()).toContain('query parameter "a": expected ["1","2"], actual ["2","1"]');
      expect(extra.status).toBe(404);
      expect(extra.body.toString()).toContain('query parameter "b": not expected, actual ["3"]');
    });

    it('treats query {} as "no ? at all", even a bare one fails', async () => {
      const { server } = holder;
      const handle = server.expect({ method: 'GET', path: '/p', query: {}, respond: { body: 'none' } });
      expect((await send(server, { target: '/p' })).status).toBe(200);
      const bare = await send(server, { target: '/p?' });
      expect(bare.status).toBe(404);
      expect(bare.body.toString()).toContain('query: expected no query string, actual "?"');
      expect(handle.calls).toBe(1);
      expect(server.requests.map((r) => [r.target, r.path, r.hasQueryString, r.query])).toEqual([
        ['/p', '/p', false, {}],
        ['/p?', '/p', true, {}],
      ]);
    });
  });

  describe('headers and cookies', () => {
    it('matches header values exactly, names case-insensitively', async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/h', headers: { 'x-api-key': 'k1', Accept: 'text/plain' }, respond: { body: 'ok' } });
      const ok = await send(server, { target: '/h', headers: { 'X-Api-Key': 'k1', accept: 'text/plain' } });
      const wrong = await send(server, { target: '/h', headers: { 'X-Api-Key': 'k2' } });
      expect(ok.status).toBe(200);
      expect(wrong.status).toBe(404);
      const message = wrong.body.toString();
      expect(message).toContain('header x-api-key: expected "k1", actual "k2"');
      expect(message).toContain('header Accept: expected "text/plain", actual (absent)');
      expect(server.requests[0].rawHeaders).toContainEqual(['X-Api-Key', 'k1']);
      expect(server.requests[0].headers['x-api-key']).toBe('k1');
    });

    it('parses cookies and matches the whole map', async () => {
      const { server } = holder;
      const handle = server.expect({ method: 'GET', path: '/c', cookies: { a: '1', b: 'x=y' }, respond: { body: 'ok' } });
      expect((await send(server, { target: '/c', headers: { Cookie: 'a=1;  b=x=y' } })).status).toBe(200);
      const extra = await send(server, { target: '/c', headers: { Cookie: 'a=1; b=x=y; c=3' } });
      expect(extra.status).toBe(404);
      expect(extra.body.toString()).toContain('cookie "c": not expected, actual "3"');
      expect(handle.calls).toBe(1);
      expect(server.requests[0].cookies).toEqual({ a: '1', b: 'x=y' });
    });

    it('treats cookies {} as "no Cookie header"', async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/c', cookies: {}, respond: { body: 'ok' } });
      expect((await send(server, { target: '/c' })).status).toBe(200);
      const withCookie = await send(server, { target: '/c', headers: { Cookie: 's=1' } });
      expect(withCookie.status).toBe(404);
      expect(withCookie.body.toString()).toContain('cookies: expected no Cookie header, actual "s=1"');
    });
  });

  describe('request body', () => {
    it('matches the raw body exactly', async () => {
      const { server } = holder;
      const handle = server.expect({ method: 'POST', path: '/b', body: 'abc', respond: { status: 204 } });
      expect((await send(server, { method: 'POST', target: '/b', body: 'abc' })).status).toBe(204);
      const wrong = await send(server, { method: 'POST', target: '/b', body: 'abd' });
      expect(wrong.status).toBe(404);
      expect(wrong.body.toString()).toContain('body: expected "abc" (3 bytes), actual "abd" (3 bytes); first difference at byte 2');
      const empty = await send(server, { method: 'POST', target: '/b' });
      expect(empty.body.toString()).toContain('body: expected "abc" (3 bytes), actual (empty)');
      expect(handle.calls).toBe(1);
    });

    it('records Content-Length and chunked bodies', async () => {
      const { server } = holder;
      server.expect({ method: 'PUT', path: '/u', body: 'hello world', respond: { body: 'ok' } });
      expect((await send(server, { method: 'PUT', target: '/u', body: 'hello world' })).status).toBe(200);
      expect((await send(server, { method: 'PUT', target: '/u', body: ['hello', ' ', 'world'] })).status).toBe(200);
      const [fixed, chunked] = server.requests;
      expect([fixed.chunked, fixed.headers['content-length'], fixed.body.toString()]).toEqual([false, '11', 'hello world']);
      expect([chunked.chunked, chunked.headers['transfer-encoding'], chunked.body.toString()]).toEqual([true, 'chunked', 'hello world']);
      expect(chunked.headers['content-length']).toBeUndefined();
    });
  });

  describe('response encoding', () => {
    const original = 'compress me please, '.repeat(50);
    const decoders = { gzip: gunzipSync, deflate: inflateSync, br: brotliDecompressSync } as const;

    it.each(['gzip', 'deflate', 'br'] as const)('%s: sends a compressed body the client can decode', async (encoding) => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/z', respond: { body: original, encoding } });
      const res = await send(server, { target: '/z' });
      expect(res.headers['content-encoding']).toBe(encoding);
      expect(res.body.length).toBeLessThan(original.length);
      expect(res.headers['content-length']).toBe(String(res.body.length));
      expect(decoders[encoding](res.body).toString()).toBe(original);
    });
  });

  describe('unmatched requests', () => {
    it('answers 404 explaining each candidate and records matched:false', async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/other', respond: {} });
      server.expect({ method: 'POST', path: '/items', headers: { 'content-type': 'application/json' }, respond: {} });
      server.expect({ method: 'POST', path: '/items', body: '{"a":1}', respond: {} });
      const res = await send(server, { method: 'POST', target: '/items', headers: { 'Content-Type': 'text/plain' }, body: '{"a":2}' });
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      const lines = res.body.toString().split('\n');
      expect(lines[0]).toBe('No expectation matched POST /items (HTTP).');
      expect(lines).toContain('Expectation #2 (POST /items) did not match:');
      expect(lines).toContain('  - header content-type: expected "application/json", actual "text/plain"');
      expect(lines).toContain('Expectation #3 (POST /items) did not match:');
      expect(lines).toContain('  - body: expected "{\\"a\\":1}" (7 bytes), actual "{\\"a\\":2}" (7 bytes); first difference at byte 5');
      expect(lines).toContain('  Content-Type: text/plain');
      expect(lines.join('\n')).not.toContain('#1');
      expect(server.requests.map((r) => r.matched)).toEqual([false]);
    });

    it('lists the registered routes when none has the same method and path', async () => {
      const { server } = holder;
      const res = await send(server, { method: 'DELETE', target: '/nothing' });
      expect(res.body.toString()).toContain('No expectations are registered.');
      server.expect({ method: 'GET', path: '/a', respond: {} });
      const again = await send(server, { method: 'DELETE', target: '/nothing' });
      expect(again.body.toString()).toContain('No expectation is registered for DELETE /nothing. Registered:\n  #1 GET /a\n');
    });

    it('compares the method case-sensitively', async () => {
      const { server } = holder;
      // node's client upper-cases methods and llhttp rejects lower-case ones, so test the other side
      const handle = server.expect({ method: 'get', path: '/m', respond: {} });
      expect((await send(server, { method: 'GET', target: '/m' })).status).toBe(404);
      expect(handle.calls).toBe(0);
      expect(server.requests[0].method).toBe('GET');
    });
  });

  describe('responders and lifecycle', () => {
    it('reset() forgets expectations and requests', async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/r', respond: {} });
      expect((await send(server, { target: '/r' })).status).toBe(200);
      expect(server.requests).toHaveLength(1);
      server.reset();
      expect(server.requests).toHaveLength(0);
      expect((await send(server, { target: '/r' })).status).toBe(404);
      expect(server.requests.map((r) => r.matched)).toEqual([false]);
    });

    it('runs a function responder with the recorded request', async () => {
      const { server } = holder;
      const handle = server.expect({
        method: 'POST',
        path: '/fn',
        respond: async (req, res) => {
          await new Promise((resolve) => setTimeout(resolve, 5));
          res.writeHead(202, { 'X-Echo-Length': String(req.body.length) });
          res.end(`echo:${req.body.toString()}:${req.query.k.join(',')}`);
        },
      });
      const res = await send(server, { method: 'POST', target: '/fn?k=v', body: 'payload' });
      expect([res.status, res.headers['x-echo-length'], res.body.toString()]).toEqual([202, '7', 'echo:payload:v']);
      expect(handle.calls).toBe(1);
      expect(server.requests[0].matched).toBe(true);
    });

    it('answers 500 when a responder throws before writing', async () => {
      const { server } = holder;
      server.expect({
        method: 'GET',
        path: '/boom',
        respond: () => {
          throw new Error('responder broke');
        },
      });
      const res = await send(server, { target: '/boom' });
      expect(res.status).toBe(500);
      expect(res.body.toString()).toContain('responder broke');
    });

    it('keeps connections alive for pooling clients', async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/k', respond: { body: 'k' } });
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const first = await send(server, { target: '/k', agent });
        const second = await send(server, { target: '/k', agent });
        expect(first.headers.connection).toBe('keep-alive');
        expect([first.reusedSocket, second.reusedSocket]).toEqual([false, true]);
      } finally {
        agent.destroy();
      }
    });

    it('close() ends connections whose responder never answers', async () => {
      const server = await TestServer.start();
      let arrived!: () => void;
      const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
      server.expect({ method: 'GET', path: '/hang', respond: () => arrived() });
      const pending = send(server, { target: '/hang' });
      await requestArrived;
      await server.close();
      await expect(pending).rejects.toMatchObject({ code: 'ECONNRESET' });
      await server.close(); // idempotent
      await expect(send(server, { target: '/hang' })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    });
  });
});
