import dns from 'node:dns/promises';
import net from 'node:net';

/** How a {@link SocksServer} behaves. */
export interface SocksServerOptions {
  /** Demand an RFC 1929 login with these credentials (method 0x02 only); without, no login (method 0x00 only). */
  readonly login?: { readonly user: string; readonly password: string };
  /** Answer every CONNECT with this SOCKS5 reply code (e.g. 5, connection refused) instead of connecting. */
  readonly reply?: number;
  /** Accept connections and never answer (a stuck proxy). */
  readonly silent?: boolean;
  /** With `login`: pick the login method even when the client did not offer it (a proxy that misbehaves). */
  readonly forceLogin?: boolean;
}

/** One CONNECT the server received. */
export interface SocksSeen {
  /** The target as sent: an IP address, or a name. */
  readonly host: string;
  readonly port: number;
  /** What the client sent: an IPv4 or IPv6 address, or a domain name (ATYP 1, 4 or 3). */
  readonly kind: 'ipv4' | 'ipv6' | 'name';
  /** The RFC 1929 login the client sent before it, if any (the test checks what the client sent). */
  readonly user?: string;
}

/** A byte reader over a socket's data: the handshake's steps each wait for the bytes they need. */
class Bytes {
  #buffer = Buffer.alloc(0);
  #waiting: (() => void) | undefined;
  #ended = false;

  constructor(socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#waiting?.();
    });
    socket.on('close', () => {
      this.#ended = true;
      this.#waiting?.();
    });
  }

  async take(count: number): Promise<Buffer> {
    while (this.#buffer.length < count) {
      if (this.#ended) throw new Error('the client closed the connection');
      await new Promise<void>((resolve) => (this.#waiting = resolve));
    }
    const taken = this.#buffer.subarray(0, count);
    this.#buffer = this.#buffer.subarray(count);
    return taken;
  }

  /** What arrived after the handshake: the start of the tunnelled bytes. */
  rest(): Buffer {
    return this.#buffer;
  }
}

/**
 * A SOCKS5 server on 127.0.0.1 for tests (RFC 1928 CONNECT only, optional RFC 1929 login) that
 * records each CONNECT's target in {@link seen}, and says whether it was sent as an address or a name.
 */
export class SocksServer {
  readonly seen: SocksSeen[] = [];
  /** Logins refused (wrong user or password). */
  refusedLogins = 0;
  readonly #server: net.Server;
  readonly #sockets = new Set<net.Socket>();
  readonly #options: SocksServerOptions;

  private constructor(options: SocksServerOptions) {
    this.#options = options;
    this.#server = net.createServer((socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
      socket.on('error', () => {});
      if (!options.silent) this.#serve(socket).catch(() => socket.destroy());
    });
  }

  static async start(options: SocksServerOptions = {}): Promise<SocksServer> {
    const server = new SocksServer(options);
    await new Promise<void>((resolve) => server.#server.listen(0, '127.0.0.1', resolve));
    return server;
  }

  get port(): number {
    return (this.#server.address() as net.AddressInfo).port;
  }

  /** `socks5h://127.0.0.1:port` (or another scheme, with user info when given). */
  url(scheme: 'socks5' | 'socks5h' = 'socks5h', userInfo?: string): string {
    return `${scheme}://${userInfo === undefined ? '' : `${userInfo}@`}127.0.0.1:${this.port}`;
  }

  reset(): void {
    this.seen.length = 0;
    this.refusedLogins = 0;
  }

  close(): Promise<void> {
    for (const socket of this.#sockets) socket.destroy();
    return new Promise((resolve) => this.#server.close(() => resolve()));
  }

  async #serve(socket: net.Socket): Promise<void> {
    const bytes = new Bytes(socket);
    const [version, count] = await bytes.take(2);
    if (version !== 5) return void socket.destroy();
    const methods = [...(await bytes.take(count))];
    const wanted = this.#options.login ? 2 : 0;
    if (!methods.includes(wanted) && !this.#options.forceLogin) return void socket.end(Buffer.from([5, 0xff]));
    socket.write(Buffer.from([5, wanted]));
    let user: string | undefined;
    if (this.#options.login) {
      const [, userLength] = await bytes.take(2);
      user = (await bytes.take(userLength)).toString('utf8');
      const [passwordLength] = await bytes.take(1);
      const password = (await bytes.take(passwordLength)).toString('utf8');
      const ok = user === this.#options.login.user && password === this.#options.login.password;
      if (!ok) this.refusedLogins++;
      socket.write(Buffer.from([1, ok ? 0 : 1]));
      if (!ok) return void socket.end();
    }
    const [, command, , type] = await bytes.take(4);
    let host: string;
    let kind: SocksSeen['kind'];
    if (type === 1) [host, kind] = [[...(await bytes.take(4))].join('.'), 'ipv4'];
    else if (type === 4) [host, kind] = [ipv6(await bytes.take(16)), 'ipv6'];
    else [host, kind] = [(await bytes.take((await bytes.take(1))[0])).toString('latin1'), 'name'];
    const port = (await bytes.take(2)).readUInt16BE(0);
    this.seen.push({ host, port, kind, ...(user === undefined ? {} : { user }) });
    const answer = (code: number) => socket.write(Buffer.from([5, code, 0, 1, 0, 0, 0, 0, 0, 0]));
    if (command !== 1 || this.#options.reply !== undefined) {
      answer(command !== 1 ? 7 : (this.#options.reply ?? 1));
      return void socket.end();
    }
    const address = kind === 'name' ? (await dns.lookup(host, { family: 4 })).address : host;
    const upstream = net.connect({ host: address, port });
    this.#sockets.add(upstream);
    upstream.on('close', () => this.#sockets.delete(upstream));
    let connected = false;
    upstream.once('error', () => {
      if (!connected) answer(5);
      socket.destroy();
    });
    upstream.once('connect', () => {
      connected = true;
      answer(0);
      const early = bytes.rest();
      if (early.length > 0) upstream.write(early);
      socket.removeAllListeners('data');
      socket.pipe(upstream).pipe(socket);
      socket.on('close', () => upstream.destroy());
      upstream.on('close', () => socket.destroy());
    });
  }
}

function ipv6(bytes: Buffer): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return groups.join(':');
}
