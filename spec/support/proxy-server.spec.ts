import { afterEach, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tls from 'node:tls';
import { parseChallenges, param } from './auth/auth-params.js';
import { ProxyServer, type ProxyServerOptions } from './proxy-server.js';
import { useTestServer } from './use-test-server.js';

interface Answer {
  status: number;
  reason: string;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: string;
  reusedSocket: boolean;
}

interface ViaProxyOptions {
  method?: string;
  headers?: http.OutgoingHttpHeaders;
  body?: string | string[];
  agent?: http.Agent;
}

function collect(req: http.ClientRequest, res: http.IncomingMessage): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('error', reject);
    res.on('end', () =>
      resolve({
        status: res.statusCode ?? 0,
        reason: res.statusMessage ?? '',
        headers: res.headers,
        rawHeaders: res.rawHeaders,
        body: Buffer.concat(chunks).toString(),
        reusedSocket: req.reusedSocket,
      }),
    );
  });
}

/** A request in absolute form to the proxy, as a proxy-aware client sends it (`target` is the request-target as written). */
function viaProxy(proxy: ProxyServer, target: string, options: ViaProxyOptions = {}): Promise<Answer> {
  const url = new URL(proxy.url);
  const targetUrl = /^[a-z]+:\/\//i.test(target) ? new URL(target) : undefined;
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(
      {
        method: options.method ?? 'GET',
        host: url.hostname,
        port: url.port,
        path: target,
        headers: { host: targetUrl?.host ?? 'nowhere', ...options.headers },
        agent: options.agent ?? false,
        ca: proxy.ca,
      },
      (res) => void collect(req, res).then(resolve, reject),
    );
    req.on('error', reject);
    const { body } = options;
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

interface Tunnel {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Whatever came after the response head on the socket (the body of a refusal). */
  head: Buffer;
  socket: net.Socket;
}

/** Sends `CONNECT authority` on a fresh connection; node emits 'connect' for every status (and adds `Connection: close`). */
function connect(proxy: ProxyServer, authority: string, headers: http.OutgoingHttpHeaders = {}): Promise<Tunnel> {
  const url = new URL(proxy.url);
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request({
      method: 'CONNECT',
      host: url.hostname,
      port: url.port,
      path: authority,
      headers: { host: authority, ...headers },
      agent: false,
      ca: proxy.ca,
    });
    req.on('connect', (res: http.IncomingMessage, socket: net.Socket, head: Buffer) =>
      resolve({ status: res.statusCode ?? 0, headers: res.headers, head, socket }),
    );
    req.on('error', reject);
    req.end();
  });
}

/** The rest of what the socket sends until it ends (after `head`). */
function readToEnd(socket: net.Socket, head: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks = [head];
    // node may have read the whole answer (and the FIN) along with the response head already
    if (socket.readableEnded || socket.destroyed) return resolve(head.toString());
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => resolve(Buffer.concat(chunks).toString()));
  });
}

/** An HTTP/1.1 GET over `socket` (TLS inside the tunnel when `ca` is given). */
function getOver(socket: net.Socket, path: string, host: string, ca?: string): Promise<Answer> {
  const connection = ca === undefined ? socket : tls.connect({ socket, ca, servername: 'localhost' });
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', path, headers: { host }, createConnection: () => connection },
      (res) => void collect(req, res).then(resolve, reject),
    );
    req.on('error', reject);
    req.end();
  });
}

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function until(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition() && waited < 1000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10));
}

// The Digest answer computed here from RFC 7616 §3.4.1 with node:crypto, independently of the proxy's checker.
interface DigestAnswerInput {
  challenge: string;
  method: string;
  uri: string;
  user: string;
  password: string;
  nc?: number;
  /** Override the echoed nonce (replay and unknown-nonce tests). */
  nonce?: string;
}

function digestAnswer(input: DigestAnswerInput): string {
  const [challenge] = parseChallenges(input.challenge);
  const get = (name: string): string | undefined => param(challenge, name);
  const algorithm = get('algorithm') ?? 'MD5';
  const h = (data: string): string =>
    createHash(algorithm === 'SHA-256' ? 'sha256' : 'md5')
      .update(data)
      .digest('hex');
  const realm = get('realm') ?? '';
  const nonce = input.nonce ?? get('nonce') ?? '';
  const ha1 = h(`${input.user}:${realm}:${input.password}`);
  const ha2 = h(`${input.method}:${input.uri}`);
  const parts = [`username="${input.user}"`, `realm="${realm}"`, `nonce="${nonce}"`, `uri="${input.uri}"`, `algorithm=${algorithm}`];
  const opaque = get('opaque');
  if (opaque !== undefined) parts.push(`opaque="${opaque}"`);
  if (get('qop') === undefined) {
    parts.push(`response="${h(`${ha1}:${nonce}:${ha2}`)}"`);
  } else {
    const nc = (input.nc ?? 1).toString(16).padStart(8, '0');
    const cnonce = randomBytes(8).toString('hex');
    parts.push(`qop=auth`, `nc=${nc}`, `cnonce="${cnonce}"`, `response="${h(`${ha1}:${nonce}:${nc}:${cnonce}:auth:${ha2}`)}"`);
  }
  return `Digest ${parts.join(', ')}`;
}

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

function challengesOf(headers: http.IncomingHttpHeaders, rawHeaders?: string[]): string[] {
  if (rawHeaders !== undefined) return rawHeaders.filter((_, i) => i % 2 === 1 && rawHeaders[i - 1].toLowerCase() === 'proxy-authenticate');
  const value = headers['proxy-authenticate'];
  return value === undefined ? [] : [value];
}

describe('ProxyServer', () => {
  const holder = useTestServer();
  const proxies: ProxyServer[] = [];
  async function startProxy(options?: ProxyServerOptions): Promise<ProxyServer> {
    const proxy = await ProxyServer.start(options);
    proxies.push(proxy);
    return proxy;
  }
  afterEach(async () => {
    await Promise.all(proxies.splice(0).map((p) => p.close()));
  });

  describe('absolute-form forwarding', () => {
    it('forwards method, path, Host and body, and returns status, reason, repeated headers and body', async () => {
      const { server } = holder;
      server.expect({
        method: 'POST',
        path: '/items',
        body: 'payload',
        respond: { status: 201, reason: 'Made It', headers: { 'Set-Cookie': ['a=1', 'b=2'], 'X-Up': 'yes' }, body: 'created' },
      });
      const proxy = await startProxy();
      const target = `${server.httpUrl}/items?q=1%202`;
      const res = await viaProxy(proxy, target, {
        method: 'POST',
        body: 'payload',
        headers: { 'Proxy-Connection': 'keep-alive', 'Proxy-Authorization': basic('u', 'p'), 'X-Custom': 'c' },
      });
      expect([res.status, res.reason, res.body, res.headers['x-up']]).toEqual([201, 'Made It', 'created', 'yes']);
      expect(res.headers['set-cookie']).toEqual(['a=1', 'b=2']);
      const [up] = server.requests;
      expect([up.method, up.target, up.body.toString(), up.headers.host, up.headers['x-custom']]).toEqual([
        'POST',
        '/items?q=1%202',
        'payload',
        new URL(server.httpUrl).host,
        'c',
      ]);
      expect(up.headers['proxy-authorization']).toBeUndefined();
      expect(up.headers['proxy-connection']).toBeUndefined();
      expect(proxy.seen).toEqual([
        {
          method: 'POST',
          target,
          headers: expect.objectContaining({ 'x-custom': 'c', 'proxy-connection': 'keep-alive', 'content-length': '7' }),
          connection: 1,
          status: 201,
          authorized: undefined,
        },
      ]);
    });

    it('streams a chunked request body and keeps the client connection alive', async () => {
      const { server } = holder;
      server.expect({ method: 'PUT', path: '/u', body: 'hello world', respond: { body: 'ok' } });
      server.expect({ method: 'GET', path: '/again', respond: { body: 'again' } });
      const proxy = await startProxy();
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const first = await viaProxy(proxy, `${server.httpUrl}/u`, { method: 'PUT', body: ['hello', ' ', 'world'], agent });
        const second = await viaProxy(proxy, `${server.httpUrl}/again`, { agent });
        expect([first.body, second.body]).toEqual(['ok', 'again']);
        expect(server.requests[0].chunked).toBe(true);
        expect([first.reusedSocket, second.reusedSocket]).toEqual([false, true]);
        expect(proxy.seen.map((s) => s.connection)).toEqual([1, 1]);
        expect(proxy.connections).toBe(1);
      } finally {
        agent.destroy();
      }
    });

    it('answers 400 to a request not in absolute form, and to an https:// one', async () => {
      const proxy = await startProxy();
      const relative = await viaProxy(proxy, '/x');
      expect(relative.status).toBe(400);
      expect(relative.body).toContain('not in absolute form');
      const secure = await viaProxy(proxy, `${holder.server.httpsUrl}/x`);
      expect(secure.status).toBe(400);
      expect(secure.body).toContain('CONNECT');
      expect(proxy.seen.map((s) => [s.method, s.target, s.status])).toEqual([
        ['GET', '/x', 400],
        ['GET', `${holder.server.httpsUrl}/x`, 400],
      ]);
      expect(holder.server.requests).toHaveLength(0);
    });

    it('answers 502 for a non-loopback target and for an unreachable one', async () => {
      const proxy = await startProxy();
      const remote = await viaProxy(proxy, 'http://example.invalid/x');
      const port = await closedPort();
      const down = await viaProxy(proxy, `http://127.0.0.1:${port}/x`);
      expect([remote.status, down.status]).toEqual([502, 502]);
      expect(remote.body).toContain('not a loopback host');
      expect(down.body).toContain('ECONNREFUSED');
      expect(proxy.seen.map((s) => s.status)).toEqual([502, 502]);
    });

    it('refuseForward answers every absolute-form request with that status', async () => {
      const proxy = await startProxy({ refuseForward: 403 });
      const res = await viaProxy(proxy, `${holder.server.httpUrl}/x`);
      expect(res.status).toBe(403);
      expect(holder.server.requests).toHaveLength(0);
      expect(proxy.seen[0].status).toBe(403);
    });
  });

  describe('CONNECT tunnels', () => {
    it('pipes bytes to the target and sees only the CONNECT', async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/secret', secure: true, respond: { body: 'tls inside' } });
      server.expect({ method: 'GET', path: '/plain', respond: { body: 'plain inside' } });
      const proxy = await startProxy();
      const authority = new URL(server.httpsUrl).host;
      const tunnel = await connect(proxy, authority, { 'X-Connect': '1' });
      expect(tunnel.status).toBe(200);
      const res = await getOver(tunnel.socket, '/secret', authority, server.ca);
      expect([res.status, res.body]).toEqual([200, 'tls inside']);
      // a plain HTTP request inside a tunnel is just bytes to the proxy as well
      const plainAuthority = new URL(server.httpUrl).host;
      const plain = await connect(proxy, plainAuthority);
      expect((await getOver(plain.socket, '/plain', plainAuthority)).body).toBe('plain inside');
      expect(proxy.seen).toEqual([
        {
          method: 'CONNECT',
          target: authority,
          headers: { host: authority, 'x-connect': '1', connection: 'close' },
          connection: 1,
          status: 200,
          authorized: undefined,
        },
        {
          method: 'CONNECT',
          target: plainAuthority,
          headers: { host: plainAuthority, connection: 'close' },
          connection: 2,
          status: 200,
          authorized: undefined,
        },
      ]);
      expect(server.requests.map((r) => [r.target, r.secure])).toEqual([
        ['/secret', true],
        ['/plain', false],
      ]);
      tunnel.socket.destroy();
      plain.socket.destroy();
    });

    it('carries large bodies both ways and a clean close from the target whole', async () => {
      const { server } = holder;
      const big = 'x'.repeat(2_000_000);
      const respond = (req: { body: Buffer }, res: http.ServerResponse): void => void res.end(`${req.body.length}:${big}`);
      server.expect({ method: 'POST', path: '/big', respond });
      server.expect({ method: 'GET', path: '/big', respond });
      const proxy = await startProxy();
      const forwarded = await viaProxy(proxy, `${server.httpUrl}/big`, { method: 'POST', body: big });
      expect(forwarded.body).toBe(`${big.length}:${big}`);
      const authority = new URL(server.httpUrl).host;
      const tunnel = await connect(proxy, authority);
      // HTTP/1.0 without keep-alive: the target ends the connection right after the body
      tunnel.socket.write(`GET /big HTTP/1.0\r\nHost: ${authority}\r\n\r\n`);
      const raw = await readToEnd(tunnel.socket, tunnel.head);
      expect(raw.startsWith('HTTP/1.1 200 OK')).toBe(true);
      expect(raw.endsWith(`0:${big}`)).toBe(true);
    });

    it.each([403, 502])('refuseConnect %i answers that status with a short body and closes', async (status) => {
      const proxy = await startProxy({ refuseConnect: status });
      const tunnel = await connect(proxy, new URL(holder.server.httpsUrl).host);
      expect(tunnel.status).toBe(status);
      expect(tunnel.headers.connection).toBe('close');
      expect(await readToEnd(tunnel.socket, tunnel.head)).toContain(`CONNECT refused by the proxy (${status})`);
      expect(proxy.seen.map((s) => [s.method, s.status])).toEqual([['CONNECT', status]]);
    });

    it('answers 502 for a non-loopback, unreachable or malformed target', async () => {
      const proxy = await startProxy();
      const port = await closedPort();
      const remote = await connect(proxy, 'example.invalid:443');
      const down = await connect(proxy, `127.0.0.1:${port}`);
      const malformed = await connect(proxy, 'no-port');
      expect([remote.status, down.status, malformed.status]).toEqual([502, 502, 400]);
      expect(await readToEnd(down.socket, down.head)).toContain('ECONNREFUSED');
      remote.socket.destroy();
      malformed.socket.destroy();
    });

    it('a client reset mid-tunnel closes both sides and the proxy keeps working', async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/x', respond: { body: 'x' } });
      const proxy = await startProxy();
      const tunnel = await connect(proxy, new URL(server.httpUrl).host);
      tunnel.socket.resetAndDestroy();
      await until(() => proxy.openConnections === 0);
      expect(proxy.openConnections).toBe(0);
      expect((await viaProxy(proxy, `${server.httpUrl}/x`)).body).toBe('x');
    });
  });

  describe('Basic proxy authentication', () => {
    const auth = { scheme: 'basic', user: 'alice', password: 'p@ss wörd' } as const;

    it('407 keeps an absolute-form connection alive; the right credentials are forwarded without them', async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/x', respond: { body: 'through' } });
      const proxy = await startProxy({ auth });
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      try {
        const challenged = await viaProxy(proxy, `${server.httpUrl}/x`, { agent });
        expect(challenged.status).toBe(407);
        expect(challenged.headers['proxy-authenticate']).toBe('Basic realm="proxy"');
        expect(challenged.body).toContain('Proxy authentication required');
        const wrong = await viaProxy(proxy, `${server.httpUrl}/x`, { agent, headers: { 'Proxy-Authorization': basic('alice', 'nope') } });
        expect(wrong.status).toBe(407);
        const ok = await viaProxy(proxy, `${server.httpUrl}/x`, { agent, headers: { 'Proxy-Authorization': basic('alice', 'p@ss wörd') } });
        expect([ok.status, ok.body, ok.reusedSocket]).toEqual([200, 'through', true]);
      } finally {
        agent.destroy();
      }
      expect(proxy.seen.map((s) => [s.status, s.authorized, s.rejection, s.connection])).toEqual([
        [407, false, undefined, 1],
        [407, false, 'wrong Basic user or password', 1],
        [200, true, undefined, 1],
      ]);
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0].headers['proxy-authorization']).toBeUndefined();
    });

    it('CONNECT: 407 with Content-Length 0 and Connection: close, then a tunnel with the right credentials', async () => {
      const proxy = await startProxy({ auth });
      const authority = new URL(holder.server.httpsUrl).host;
      const refused = await connect(proxy, authority);
      expect([refused.status, refused.headers['content-length'], refused.headers.connection]).toEqual([407, '0', 'close']);
      expect(refused.headers['proxy-authenticate']).toBe('Basic realm="proxy"');
      expect(await readToEnd(refused.socket, refused.head)).toBe('');
      const tunnel = await connect(proxy, authority, { 'Proxy-Authorization': basic('alice', 'p@ss wörd') });
      expect(tunnel.status).toBe(200);
      tunnel.socket.destroy();
      expect(proxy.seen.map((s) => [s.method, s.status, s.authorized])).toEqual([
        ['CONNECT', 407, false],
        ['CONNECT', 200, true],
      ]);
    });

    it('urlWith percent-encodes the user info', async () => {
      const proxy = await startProxy({ auth });
      const url = new URL(proxy.urlWith('alice', 'p@ss wörd'));
      expect([decodeURIComponent(url.username), decodeURIComponent(url.password), url.host]).toEqual(['alice', 'p@ss wörd', new URL(proxy.url).host]);
      expect(proxy.urlWith('a:b', 'c/d')).toBe(proxy.url.replace('//', '//a%3Ab:c%2Fd@'));
    });
  });

  describe('Digest proxy authentication', () => {
    const user = 'bob';
    const password = 'secret';

    it.each(['MD5', 'SHA-256'] as const)('%s: 407 then success for absolute form (uri = absolute URL) and CONNECT (uri = host:port)', async (algorithm) => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/d', respond: { body: 'digest ok' } });
      const proxy = await startProxy({ auth: { scheme: 'digest', user, password, algorithm, realm: 'corp' } });
      const target = `${server.httpUrl}/d`;
      const first = await viaProxy(proxy, target);
      expect(first.status).toBe(407);
      const challenge = first.headers['proxy-authenticate'] ?? '';
      expect(challenge).toMatch(new RegExp(`^Digest realm="corp", nonce="[^"]+", algorithm=${algorithm}, qop="auth", opaque="[0-9a-f]+"$`));
      const ok = await viaProxy(proxy, target, { headers: { 'Proxy-Authorization': digestAnswer({ challenge, method: 'GET', uri: target, user, password }) } });
      expect([ok.status, ok.body]).toEqual([200, 'digest ok']);

      const authority = new URL(server.httpsUrl).host;
      const refused = await connect(proxy, authority);
      const connectChallenge = refused.headers['proxy-authenticate'] ?? '';
      refused.socket.destroy();
      const answer = digestAnswer({ challenge: connectChallenge, method: 'CONNECT', uri: authority, user, password });
      const tunnel = await connect(proxy, authority, { 'Proxy-Authorization': answer });
      expect(tunnel.status).toBe(200);
      tunnel.socket.destroy();
      expect(proxy.seen.map((s) => [s.method, s.status, s.authorized])).toEqual([
        ['GET', 407, false],
        ['GET', 200, true],
        ['CONNECT', 407, false],
        ['CONNECT', 200, true],
      ]);
    });

    it('rejects a wrong password, a path-only uri, a replayed nc and an unknown nonce', async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/d', respond: { body: 'digest ok' } });
      const proxy = await startProxy({ auth: { scheme: 'digest', user, password } });
      const target = `${server.httpUrl}/d`;
      const challenge = (await viaProxy(proxy, target)).headers['proxy-authenticate'] ?? '';
      const send = (answer: Partial<DigestAnswerInput>): Promise<Answer> =>
        viaProxy(proxy, target, { headers: { 'Proxy-Authorization': digestAnswer({ challenge, method: 'GET', uri: target, user, password, ...answer }) } });
      expect((await send({ password: 'wrong' })).status).toBe(407);
      expect((await send({ uri: '/d' })).status).toBe(407);
      expect((await send({ nc: 1 })).status).toBe(200);
      expect((await send({ nc: 1 })).status).toBe(407);
      expect((await send({ nc: 2 })).status).toBe(200);
      expect((await send({ nonce: 'made-up' })).status).toBe(407);
      expect(proxy.seen.slice(1).map((s) => s.rejection)).toEqual([
        'response digest does not match (wrong password?)',
        'uri is not the request-target',
        undefined,
        'nc 00000001 was already used with this nonce',
        undefined,
        'nonce was never issued by this route',
      ]);
      expect(server.requests).toHaveLength(2);
    });

    it('acceptPathUri also accepts the origin-form path as uri (what curl sends)', async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/d', query: { a: 'b' }, respond: { body: 'ok' } });
      const proxy = await startProxy({ auth: { scheme: 'digest', user, password, acceptPathUri: true } });
      const target = `${server.httpUrl}/d?a=b`;
      const challenge = (await viaProxy(proxy, target)).headers['proxy-authenticate'] ?? '';
      const answer = (uri: string, nc: number): string => digestAnswer({ challenge, method: 'GET', uri, user, password, nc });
      expect((await viaProxy(proxy, target, { headers: { 'Proxy-Authorization': answer('/d?a=b', 1) } })).status).toBe(200);
      expect((await viaProxy(proxy, target, { headers: { 'Proxy-Authorization': answer(target, 2) } })).status).toBe(200);
      expect((await viaProxy(proxy, target, { headers: { 'Proxy-Authorization': answer('/other', 3) } })).status).toBe(407);
    });

    it("qop 'none' challenges without qop and checks the RFC 2069 answer", async () => {
      const proxy = await startProxy({ auth: { scheme: 'digest', user, password, qop: 'none' } });
      const authority = new URL(holder.server.httpsUrl).host;
      const refused = await connect(proxy, authority);
      const challenge = refused.headers['proxy-authenticate'] ?? '';
      refused.socket.destroy();
      expect(challenge).not.toContain('qop');
      const tunnel = await connect(proxy, authority, { 'Proxy-Authorization': digestAnswer({ challenge, method: 'CONNECT', uri: authority, user, password }) });
      expect(tunnel.status).toBe(200);
      tunnel.socket.destroy();
    });

    it('staleAfter answers 407 stale=true with a fresh nonce once a nonce has been used enough', async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/d', respond: { body: 'ok' } });
      const proxy = await startProxy({ auth: { scheme: 'digest', user, password, staleAfter: 2 } });
      const target = `${server.httpUrl}/d`;
      const challenge = (await viaProxy(proxy, target)).headers['proxy-authenticate'] ?? '';
      const send = (c: string, nc: number): Promise<Answer> =>
        viaProxy(proxy, target, { headers: { 'Proxy-Authorization': digestAnswer({ challenge: c, method: 'GET', uri: target, user, password, nc }) } });
      expect((await send(challenge, 1)).status).toBe(200);
      expect((await send(challenge, 2)).status).toBe(200);
      const stale = await send(challenge, 3);
      expect(stale.status).toBe(407);
      const fresh = stale.headers['proxy-authenticate'] ?? '';
      expect(fresh).toMatch(/, stale=true$/);
      expect(param(parseChallenges(fresh)[0], 'nonce')).not.toBe(param(parseChallenges(challenge)[0], 'nonce'));
      expect((await send(fresh, 1)).status).toBe(200);
      expect(proxy.seen.map((s) => s.rejection)).toEqual([undefined, undefined, undefined, 'nonce is stale', undefined]);
    });

    it("'both' offers Digest then Basic and accepts either", async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/d', respond: { body: 'ok' } });
      const proxy = await startProxy({ auth: { scheme: 'both', user, password } });
      const target = `${server.httpUrl}/d`;
      const first = await viaProxy(proxy, target);
      const challenges = challengesOf(first.headers, first.rawHeaders);
      expect(challenges).toHaveLength(2);
      expect(challenges[0]).toMatch(/^Digest /);
      expect(challenges[1]).toBe('Basic realm="proxy"');
      const viaBasic = await viaProxy(proxy, target, { headers: { 'Proxy-Authorization': basic(user, password) } });
      const viaDigest = await viaProxy(proxy, target, {
        headers: { 'Proxy-Authorization': digestAnswer({ challenge: challenges[0], method: 'GET', uri: target, user, password }) },
      });
      expect([viaBasic.status, viaDigest.status]).toEqual([200, 200]);
    });
  });

  describe('TLS proxy', () => {
    it('speaks TLS itself: absolute form, and a TLS tunnel inside the TLS connection', async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/p', respond: { body: 'plain target' } });
      server.expect({ method: 'GET', path: '/s', secure: true, respond: { body: 'tls target' } });
      const proxy = await startProxy({ tls: true, auth: { scheme: 'basic', user: 'u', password: 'p' } });
      expect(proxy.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(proxy.ca).toContain('BEGIN CERTIFICATE');
      const headers = { 'Proxy-Authorization': basic('u', 'p') };
      expect((await viaProxy(proxy, `${server.httpUrl}/p`, { headers })).body).toBe('plain target');
      const authority = new URL(server.httpsUrl).host;
      const tunnel = await connect(proxy, authority, headers);
      expect(tunnel.status).toBe(200);
      expect((await getOver(tunnel.socket, '/s', authority, server.ca)).body).toBe('tls target');
      tunnel.socket.destroy();
      expect(proxy.seen.map((s) => [s.method, s.status, s.connection])).toEqual([
        ['GET', 200, 1],
        ['CONNECT', 200, 2],
      ]);
    });
  });

  describe('lifecycle', () => {
    it('close() ends open tunnels and kept-alive connections, is idempotent, and the port is closed after', async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/x', respond: { body: 'x' } });
      const proxy = await ProxyServer.start();
      const agent = new http.Agent({ keepAlive: true });
      try {
        await viaProxy(proxy, `${server.httpUrl}/x`, { agent });
        const tunnel = await connect(proxy, new URL(server.httpUrl).host);
        const tunnelClosed = new Promise((resolve) => tunnel.socket.once('close', resolve));
        expect(proxy.openConnections).toBe(2);
        await proxy.close();
        expect(proxy.openConnections).toBe(0);
        await tunnelClosed;
        await proxy.close();
        await expect(viaProxy(proxy, `${server.httpUrl}/x`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
      } finally {
        agent.destroy();
      }
      // the target side was closed too: the test server sees no connection left
      await until(() => server.openConnections === 0);
      expect(server.openConnections).toBe(0);
    });

    it('reset() clears seen in place', async () => {
      const proxy = await startProxy();
      const { seen } = proxy;
      await viaProxy(proxy, '/x');
      proxy.reset();
      expect(seen).toHaveLength(0);
      expect(proxy.seen).toBe(seen);
    });
  });

  describe('curl as the reference client', () => {
    const curlVersion = new Promise<string | undefined>((resolve) => execFile('curl', ['--version'], (err, out) => resolve(err ? undefined : out)));
    let dir: string | undefined;
    afterEach(() => {
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
      dir = undefined;
    });

    /** Runs curl through the proxy; resolves with `%{http_code} %{http_connect}` and the body. */
    async function curl(proxy: ProxyServer, url: string, args: string[]): Promise<{ codes: string; body: string } | undefined> {
      if ((await curlVersion) === undefined) return undefined; // no curl here: nothing to compare with
      dir ??= mkdtempSync(join(tmpdir(), 'proxy-spec-'));
      const ca = join(dir, 'ca.pem');
      writeFileSync(ca, holder.server.ca);
      const tlsArgs = proxy.ca === undefined ? [] : ['--proxy-cacert', ca];
      return new Promise((resolve, reject) => {
        execFile(
          'curl',
          ['-sS', '--cacert', ca, ...tlsArgs, '-x', proxy.url, ...args, '-w', '\n%{http_code} %{http_connect}', url],
          { timeout: 5000 },
          (err, out, errOut) => {
            // curl fails (exit 56) when a CONNECT is refused; the codes still tell what happened
            if (err !== null && !/CONNECT tunnel failed|Proxy CONNECT aborted/.test(errOut)) return reject(new Error(`curl: ${errOut}`));
            const at = out.lastIndexOf('\n');
            resolve({ body: out.slice(0, at), codes: out.slice(at + 1) });
          },
        );
      });
    }

    const cases = [
      ['basic', 'MD5', false],
      ['digest', 'MD5', false],
      ['digest', 'SHA-256', false],
      ['basic', 'MD5', true],
      ['digest', 'SHA-256', true],
    ] as const;

    it.each(cases)('%s (%s), TLS proxy %s: http and https targets succeed, a wrong password gets 407', async (scheme, algorithm, tlsProxy) => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/c', secure: false, respond: { body: 'plain' } });
      server.expect({ method: 'GET', path: '/c', secure: true, respond: { body: 'secure' } });
      const proxy = await startProxy({ tls: tlsProxy, auth: { scheme, user: 'carol', password: 'pw:1', algorithm, acceptPathUri: true } });
      const flag = scheme === 'basic' ? '--proxy-basic' : '--proxy-digest';
      const right = [flag, '--proxy-user', 'carol:pw:1'];
      const wrong = [flag, '--proxy-user', 'carol:nope'];
      const plain = await curl(proxy, `${server.httpUrl}/c`, right);
      if (plain === undefined) return;
      expect(plain).toEqual({ body: 'plain', codes: '200 000' });
      expect(await curl(proxy, `${server.httpsUrl}/c`, right)).toEqual({ body: 'secure', codes: '200 200' });
      expect((await curl(proxy, `${server.httpUrl}/c`, wrong))?.codes).toBe('407 000');
      expect((await curl(proxy, `${server.httpsUrl}/c`, wrong))?.codes).toBe('000 407');
      // the proxy saw no request from inside the tunnels: every GET it saw was for the http target
      expect(proxy.seen.filter((s) => s.method === 'GET').every((s) => s.target.startsWith(server.httpUrl))).toBe(true);
      expect(server.requests.map((r) => [r.secure, r.headers['proxy-authorization']])).toEqual([
        [false, undefined],
        [true, undefined],
      ]);
    });

    it('curl answers a proxy Digest challenge with uri = the path, which the strict default rejects', async () => {
      const { server } = holder;
      const proxy = await startProxy({ auth: { scheme: 'digest', user: 'carol', password: 'pw' } });
      const result = await curl(proxy, `${server.httpUrl}/c`, ['--proxy-digest', '--proxy-user', 'carol:pw']);
      if (result === undefined) return;
      expect(result.codes).toBe('407 000');
      expect(proxy.seen.at(-1)?.rejection).toBe('uri is not the request-target');
    });
  });
});
