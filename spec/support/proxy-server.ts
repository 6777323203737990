// A recording forward proxy for the test suite: absolute-form forwarding, CONNECT tunnels and
// Basic/Digest proxy authentication (RFC 7235 §4.3-4.4, RFC 7617, RFC 7616). The Digest checks
// come from spec/support/auth (written from the RFCs), never from lib/: the point is to check
// the client, not to agree with it.
import { randomBytes } from 'node:crypto';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import { AuthSyntaxError, param, parseCredentials, quoteString } from './auth/auth-params.js';
import { checkDigest } from './auth/digest-check.js';
import { NonceBook, type NonceContext } from './auth/nonce-book.js';
import { selfSignedCertificate } from './tls-certificate.js';

/** Proxy authentication the {@link ProxyServer} demands (407 until it gets it). */
export interface ProxyAuthOptions {
  /** `'both'` offers a Digest and a Basic challenge in one 407 (two `Proxy-Authenticate` field lines, Digest first) and accepts either answer. */
  readonly scheme: 'basic' | 'digest' | 'both';
  readonly user: string;
  readonly password: string;
  /** Default `proxy`. */
  readonly realm?: string;
  /** Digest only; default `MD5`. */
  readonly algorithm?: 'MD5' | 'SHA-256';
  /** Digest only; default `auth`. `none`: no `qop` parameter (RFC 2069 style, no `nc`/`cnonce`). */
  readonly qop?: 'auth' | 'none';
  /**
   * Digest: after this many accepted answers with one nonce, the next right answer with it gets
   * 407 with `stale=true` and a fresh nonce. Without it a nonce stays valid; any `nc` not yet used
   * with the nonce is accepted (so concurrent requests may arrive out of order), a repeat is a replay (407).
   */
  readonly staleAfter?: number;
  /**
   * Digest on absolute-form requests: also accept a `uri` that is the target's origin-form path
   * (`/x?y`), as curl sends it. Default false: `uri` must be the request-target as received
   * (the absolute URL, RFC 7616 §3.4).
   */
  readonly acceptPathUri?: boolean;
}

/** Options of {@link ProxyServer.start}. */
export interface ProxyServerOptions {
  /** An `https://` proxy: TLS to the proxy itself, with the self-signed certificate for 127.0.0.1/localhost (see {@link ProxyServer.ca}). */
  readonly tls?: boolean;
  readonly auth?: ProxyAuthOptions;
  /** Answer every CONNECT (once authorized, when auth is configured) with this status, a short text body, and close. */
  readonly refuseConnect?: number;
  /** Answer every absolute-form request (once authorized, when auth is configured) with this status. */
  readonly refuseForward?: number;
}

/** One request or CONNECT the proxy received. */
export interface ProxySeen {
  /** `CONNECT` or the method as received. */
  readonly method: string;
  /** `host:port` for CONNECT, the absolute URL for forwarded requests, the raw request-target otherwise. */
  readonly target: string;
  /** Lower-case names, values as received (repeated ones joined with `, `). */
  readonly headers: Readonly<Record<string, string>>;
  /** Id of the client connection it came on (1, 2, ...): equal ids mean a reused connection. */
  readonly connection: number;
  /** What the proxy answered: 200 for an established tunnel, 407, the forwarded status, ...; 0 while not answered yet. */
  readonly status: number;
  /** With auth configured: whether the `Proxy-Authorization` was accepted. Undefined without auth, and for requests answered 400 before any check. */
  readonly authorized: boolean | undefined;
  /** Why a `Proxy-Authorization` that was sent got rejected (names the parameter at fault, never a secret). */
  readonly rejection?: string;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type Entry = Mutable<ProxySeen>;

// Lenient like TestServer: odd requests are still recorded; no repeated header is dropped.
const serverOptions = { requireHostHeader: false, joinDuplicateHeaders: true } as const;
const TEXT = 'text/plain; charset=utf-8';
// Tests must never reach the internet: only these target hosts are forwarded to.
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);
// RFC 7230 §6.1 hop-by-hop fields (plus the de-facto Proxy-Connection). Transfer-Encoding stays:
// node re-frames a body the same way when the header says chunked, so the framing is kept end to end.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'upgrade']);

/**
 * A real forward proxy on 127.0.0.1 (plain or TLS) that records what it receives in {@link seen}:
 *
 * - absolute-form requests (`GET http://127.0.0.1:P/x HTTP/1.1`) are forwarded to loopback
 *   targets with node:http (body streamed both ways, hop-by-hop and proxy headers dropped,
 *   `Host` kept); the client connection is kept alive. Other targets get 502; a request
 *   that is not in absolute form gets 400 (the client forgot it talks to a proxy), as does
 *   an absolute-form request for a scheme other than http (https goes through CONNECT).
 * - `CONNECT host:port` opens a byte pipe to a loopback target (else 502; unreachable: 502).
 *   The proxy sees nothing inside the tunnel.
 * - With {@link ProxyServerOptions.auth}, a missing or wrong `Proxy-Authorization` gets 407
 *   with a fresh challenge (Digest: `realm`, `nonce`, `algorithm`, `qop`, `opaque`, then
 *   `stale=true` when it applies; the answer is checked by spec/support/auth/digest-check.ts): for absolute form a keep-alive response with a text body, for
 *   CONNECT `Content-Length: 0`, `Connection: close` and the socket closed.
 */
export class ProxyServer {
  /** Every request and CONNECT received, in arrival order (cleared in place by {@link reset}). */
  readonly seen: ProxySeen[] = [];
  /** The PEM certificate of a TLS proxy (clients pass it as `ca`); undefined for a plain one. */
  readonly ca: string | undefined;
  readonly #options: ProxyServerOptions;
  readonly #server: http.Server | https.Server;
  readonly #auth: ProxyAuth | undefined;
  readonly #agent = new http.Agent({ keepAlive: true });
  // Raw TCP sockets of clients (TLS ones included), and sockets to targets: close() ends them all.
  readonly #clientSockets = new Set<net.Socket>();
  readonly #upstreamSockets = new Set<net.Socket>();
  readonly #ids = new WeakMap<net.Socket, number>();
  #connections = 0;
  #port = 0;
  #closing: Promise<void> | undefined;

  private constructor(options: ProxyServerOptions, cert: { key: string; cert: string } | undefined) {
    this.#options = options;
    this.ca = cert?.cert;
    this.#auth = options.auth === undefined ? undefined : new ProxyAuth(options.auth);
    const onRequest = (req: http.IncomingMessage, res: http.ServerResponse): void => this.#request(req, res);
    this.#server = cert === undefined ? http.createServer(serverOptions, onRequest) : https.createServer({ ...serverOptions, ...cert }, onRequest);
    this.#server.on('connection', (socket: net.Socket) => {
      this.#clientSockets.add(socket);
      socket.on('error', () => undefined); // a client reset is no failure of the proxy
      socket.once('close', () => this.#clientSockets.delete(socket));
      if (cert === undefined) this.#ids.set(socket, ++this.#connections);
    });
    // For TLS the requests come on the TLSSocket, so that one gets the id (a failed handshake is no connection).
    this.#server.on('secureConnection', (socket: net.Socket) => this.#ids.set(socket, ++this.#connections));
    this.#server.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => this.#connect(req, socket, head));
  }

  /** Starts the proxy on 127.0.0.1 with a port chosen by the OS. */
  static async start(options: ProxyServerOptions = {}): Promise<ProxyServer> {
    const cert = options.tls === true ? await selfSignedCertificate() : undefined;
    const proxy = new ProxyServer(options, cert);
    proxy.#port = await listen(proxy.#server);
    return proxy;
  }

  /** e.g. `http://127.0.0.1:41234`, or `https://...` for a TLS proxy. */
  get url(): string {
    return `${this.ca === undefined ? 'http' : 'https'}://127.0.0.1:${this.#port}`;
  }

  /** {@link url} with user info (percent-encoded), e.g. `http://user:p%40ss@127.0.0.1:41234`. */
  urlWith(user: string, password: string): string {
    return this.url.replace('://', `://${encodeURIComponent(user)}:${encodeURIComponent(password)}@`);
  }

  /** Client connections accepted so far (for a TLS proxy: those that completed the handshake). */
  get connections(): number {
    return this.#connections;
  }

  /** Client sockets open right now, tunnels included: a leaked client socket stays counted. */
  get openConnections(): number {
    return this.#clientSockets.size;
  }

  /** From now on demands `scheme` (a proxy that changes its mind, or a forged 407 on the way); with auth configured only. */
  demand(scheme: ProxyAuthOptions['scheme']): void {
    if (this.#auth === undefined) throw new Error('ProxyServer.demand(): this proxy has no auth configured');
    this.#auth.scheme = scheme;
  }

  /** Forgets what was seen (the connection counter and issued nonces stay). */
  reset(): void {
    this.seen.length = 0;
  }

  /** Ends every socket (client side and target side, even mid-tunnel) and stops listening. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      // Collected before server.close(), which destroys idle kept-alive sockets itself.
      const sockets = [...this.#clientSockets, ...this.#upstreamSockets];
      const allClosed = Promise.all(sockets.map((s) => new Promise((resolve) => s.once('close', resolve))));
      const stopped = stop(this.#server);
      this.#server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
      this.#agent.destroy();
      await Promise.all([stopped, allClosed]);
    })();
    return this.#closing;
  }

  #record(req: http.IncomingMessage): Entry {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    const entry: Entry = {
      method: req.method ?? '',
      target: req.url ?? '',
      headers,
      connection: this.#ids.get(req.socket) ?? 0,
      status: 0,
      authorized: undefined,
    };
    this.seen.push(entry);
    return entry;
  }

  /** Runs the auth check; false (after the 407 went out through `refuse`) when it failed. */
  #authorize(entry: Entry, req: http.IncomingMessage, path: string | undefined, refuse: (challenges: string[], reason: string | undefined) => void): boolean {
    if (this.#auth === undefined) return true;
    const verdict = this.#auth.check(req.headers['proxy-authorization'], entry.method, entry.target, path);
    entry.authorized = verdict.ok;
    if (verdict.ok) return true;
    if (verdict.reason !== undefined) entry.rejection = verdict.reason;
    entry.status = 407;
    refuse(this.#auth.challenges(verdict.stale), verdict.reason);
    return false;
  }

  #request(req: http.IncomingMessage, res: http.ServerResponse): void {
    const entry = this.#record(req);
    req.on('error', () => undefined); // the client went away mid-body
    const reply = (status: number, text: string, headers: Record<string, string | string[]> = {}): void => {
      entry.status = status;
      res.writeHead(status, { 'Content-Type': TEXT, 'Content-Length': Buffer.byteLength(text), ...headers });
      res.end(text);
    };
    const target = splitAbsolute(entry.target);
    if (target === undefined) return reply(400, `Not a proxy request: request-target ${JSON.stringify(entry.target)} is not in absolute form\n`);
    if (target.scheme !== 'http') return reply(400, `Only http:// targets are forwarded; ${target.scheme} goes through CONNECT\n`);
    const authorized = this.#authorize(entry, req, target.path, (challenges, reason) =>
      reply(407, `Proxy authentication required${reason === undefined ? '' : `: ${reason}`}\n`, { 'Proxy-Authenticate': challenges }),
    );
    if (!authorized) return;
    if (this.#options.refuseForward !== undefined) return reply(this.#options.refuseForward, `Request refused by the proxy (${this.#options.refuseForward})\n`);
    if (!LOOPBACK.has(target.host.toLowerCase())) return reply(502, `Target ${target.host} is not a loopback host; the test proxy only reaches loopback\n`);

    const upstream = http.request({
      host: target.host,
      port: target.port,
      method: entry.method,
      path: target.path,
      headers: forwardedHeaders(req.rawHeaders),
      agent: this.#agent,
      setHost: false,
    });
    upstream.on('socket', (socket) => this.#trackUpstream(socket));
    upstream.on('response', (answer) => {
      entry.status = answer.statusCode ?? 0;
      res.writeHead(entry.status, answer.statusMessage, forwardedHeaders(answer.rawHeaders));
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', (err) => {
      if (!res.headersSent) reply(502, `Upstream ${target.host}:${target.port} failed: ${err.message}\n`);
      else res.destroy();
    });
    // The client gone before the answer was complete: stop talking to the target too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  #connect(req: http.IncomingMessage, socket: net.Socket, head: Buffer): void {
    socket.on('error', () => socket.destroy()); // node removed its own listeners when it handed the socket over
    const entry = this.#record(req);
    const refuse = (status: number, body: string, headers: string[] = []): void => {
      entry.status = status;
      const lines = [
        `HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Unknown'}`,
        ...headers,
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
      ];
      socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
      // Read (and drop) what the client still sends so it gets the answer instead of a reset;
      // the server side is half-open, so close once the client has ended too (or soon anyway).
      socket.resume();
      socket.once('end', () => socket.destroy());
      setTimeout(() => socket.destroy(), 1000).unref();
    };
    const authorized = this.#authorize(entry, req, undefined, (challenges) =>
      refuse(
        407,
        '',
        challenges.map((c) => `Proxy-Authenticate: ${c}`),
      ),
    );
    if (!authorized) return;
    if (this.#options.refuseConnect !== undefined)
      return refuse(this.#options.refuseConnect, `CONNECT refused by the proxy (${this.#options.refuseConnect})\n`);
    const target = splitAuthority(entry.target);
    if (target === undefined) return refuse(400, `CONNECT target ${JSON.stringify(entry.target)} is not host:port\n`);
    if (!LOOPBACK.has(target.host.toLowerCase())) return refuse(502, `Target ${target.host} is not a loopback host; the test proxy only reaches loopback\n`);

    const upstream = net.connect({ host: target.host, port: target.port });
    this.#trackUpstream(upstream);
    let established = false;
    upstream.once('connect', () => {
      established = true;
      entry.status = 200;
      socket.write('HTTP/1.1 200 Connection established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      // Half-closes travel through (both sides allow half-open); errors end both sides.
      socket.pipe(upstream);
      upstream.pipe(socket);
    });
    upstream.on('error', (err) => {
      if (!established) refuse(502, `Upstream ${entry.target} failed: ${err.message}\n`);
      else socket.destroy();
    });
    socket.once('close', () => upstream.destroy());
    upstream.once('close', () => {
      if (!established) return;
      // After a clean end (pipe ended the socket) it closes itself once flushed; otherwise at once.
      if (!socket.writableEnded) socket.destroy();
    });
  }

  #trackUpstream(socket: net.Socket): void {
    if (this.#upstreamSockets.has(socket)) return; // a kept-alive socket handed out again
    this.#upstreamSockets.add(socket);
    socket.once('close', () => this.#upstreamSockets.delete(socket));
  }
}

type Verdict = { ok: true } | { ok: false; stale: boolean; reason: string | undefined };

/** The proxy's credentials check and challenges (one nonce book per proxy). */
class ProxyAuth {
  readonly #options: ProxyAuthOptions;
  /** What it demands: the options' scheme until {@link ProxyServer.demand} changes it. */
  scheme: ProxyAuthOptions['scheme'];
  readonly #realm: string;
  readonly #book = new NonceBook();
  readonly #context: NonceContext;
  readonly #accepted = new Map<string, number>();

  constructor(options: ProxyAuthOptions) {
    this.#options = options;
    this.scheme = options.scheme;
    this.#realm = options.realm ?? 'proxy';
    this.#context = {
      realm: this.#realm,
      algorithm: options.algorithm ?? 'MD5',
      qop: options.qop === 'none' ? [] : ['auth'],
      opaque: randomBytes(16).toString('hex'),
      userhash: false,
    };
  }

  /** `Proxy-Authenticate` values, Digest first; a Digest one with a fresh nonce. */
  challenges(stale: boolean): string[] {
    const { scheme } = this;
    const realm = quoteString(this.#realm);
    const out: string[] = [];
    if (scheme !== 'basic') {
      const params = [`realm=${realm}`, `nonce=${quoteString(this.#book.issue(this.#context))}`, `algorithm=${this.#context.algorithm}`];
      if (this.#context.qop.length > 0) params.push('qop="auth"');
      params.push(`opaque=${quoteString(this.#context.opaque ?? '')}`);
      if (stale) params.push('stale=true');
      out.push(`Digest ${params.join(', ')}`);
    }
    if (scheme !== 'digest') out.push(`Basic realm=${realm}`);
    return out;
  }

  /** Checks a `Proxy-Authorization` value; `target` is what `uri` must equal for Digest (or `path`, see `acceptPathUri`). */
  check(header: string | undefined, method: string, target: string, path: string | undefined): Verdict {
    const reject = (reason: string | undefined): Verdict => ({ ok: false, stale: false, reason });
    if (header === undefined) return reject(undefined);
    let credentials;
    try {
      credentials = parseCredentials(header);
    } catch (err) {
      if (err instanceof AuthSyntaxError) return reject(`malformed Proxy-Authorization: ${err.message}`);
      throw err;
    }
    const scheme = credentials.scheme.toLowerCase();
    if (scheme === 'basic' && this.scheme !== 'digest') {
      const token = credentials.token68 ?? '';
      const decoded = Buffer.from(token, 'base64');
      if (token === '' || decoded.toString('base64') !== token) return reject('Basic credentials are not base64');
      return decoded.equals(Buffer.from(`${this.#options.user}:${this.#options.password}`, 'utf8')) ? { ok: true } : reject('wrong Basic user or password');
    }
    if (scheme === 'digest' && this.scheme !== 'basic') {
      const uri = this.#options.acceptPathUri === true && path !== undefined && param(credentials, 'uri') === path ? path : target;
      // Proxy auth covers no body (qop=auth only), so auth-int never comes up.
      const verdict = checkDigest(
        credentials,
        { method, target: uri, body: Buffer.alloc(0), user: this.#options.user, password: this.#options.password },
        this.#book,
      );
      if (!verdict.ok) return verdict;
      const count = (this.#accepted.get(verdict.nonce) ?? 0) + 1;
      this.#accepted.set(verdict.nonce, count);
      if (this.#options.staleAfter !== undefined && count >= this.#options.staleAfter) verdict.entry.expired = true;
      return { ok: true };
    }
    return reject(`scheme ${credentials.scheme} was not offered`);
  }
}

/**
 * Splits an absolute-form request-target (RFC 7230 §5.3.2) into scheme, host, port and the
 * origin-form path as sent (not normalised: the target sees the bytes the client wrote).
 */
function splitAbsolute(target: string): { scheme: string; host: string; port: number; path: string } | undefined {
  const match = /^([a-zA-Z][a-zA-Z0-9+.-]*):\/\/([^/?#]*)(.*)$/.exec(target);
  if (match === null) return undefined;
  const [, scheme, authority, rest] = match;
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  const parsed = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(hostPort);
  if (parsed === null || parsed[1] === '') return undefined;
  const lower = scheme.toLowerCase();
  const port = parsed[2] === undefined || parsed[2] === '' ? (lower === 'https' ? 443 : 80) : Number(parsed[2]);
  return { scheme: lower, host: parsed[1].replace(/^\[(.*)\]$/, '$1'), port, path: rest.startsWith('/') ? rest : `/${rest}` };
}

/** The `host:port` of a CONNECT (RFC 7230 §5.3.3 authority-form), brackets removed from an IPv6 host. */
function splitAuthority(target: string): { host: string; port: number } | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]/@]+):(\d{1,5})$/.exec(target);
  if (match === null) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return undefined;
  return { host: match[1].replace(/^\[(.*)\]$/, '$1'), port };
}

/** Raw header pairs (flat, as node gives them) without hop-by-hop fields and the ones `Connection` names. */
function forwardedHeaders(raw: string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].toLowerCase() === 'connection') for (const name of raw[i + 1].split(',')) named.add(name.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) out.push(raw[i], raw[i + 1]);
  }
  return out;
}

/** Listens on 127.0.0.1 with an OS-chosen port; resolves with that port. */
function listen(server: net.Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new Error('ProxyServer: no TCP address'));
      else resolve(address.port);
    });
  });
}

function stop(server: net.Server): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!server.listening) return resolve();
    server.close((err) => (err ? reject(err) : resolve()));
  });
}
