import { spawn, type ChildProcess } from 'node:child_process';
import { access, constants } from 'node:fs/promises';
import net from 'node:net';
import { freePort } from './free-port.js';

export const MICROSOCKS = '/usr/bin/microsocks';
/** Where microsocks connects to servers from (squid's flavours use 127.0.0.2 to .4, tinyproxy .5). */
const OUTGOING = '127.0.0.6';

/** A running microsocks: where it listens, its login, and what it logged of each tunnel. */
export interface SocksPeer {
  readonly port: number;
  readonly outgoingAddress: string;
  readonly login: { readonly user: string; readonly password: string } | undefined;
  /** `scheme://[user:password@]127.0.0.1:port`, the login percent-encoded (or `password` instead of the right one). */
  url(scheme: 'socks5' | 'socks5h', password?: string): string;
  /** The targets of the tunnels it opened since the last {@link clear}, as it logged them: `host:port`, a name or an address as sent. */
  connectedTo(): string[];
  clear(): void;
  stop(): Promise<void>;
}

/**
 * Starts microsocks (Debian `microsocks`), a SOCKS5 server, on a free 127.0.0.1 port, with an
 * RFC 1929 login when `login` is given (then no other method is accepted), connecting to
 * servers from 127.0.0.6. It logs `client[fd] ip: connected to host:port` with the target as
 * the client sent it: a name for socks5h, an address for socks5.
 */
export async function startMicrosocks(login?: { user: string; password: string }): Promise<SocksPeer> {
  await access(MICROSOCKS, constants.X_OK).catch(() => {
    throw new Error(`${MICROSOCKS} is missing: apt-get install -y --no-install-recommends microsocks`);
  });
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const args = ['-i', '127.0.0.1', '-p', String(port), '-b', OUTGOING, ...(login ? ['-u', login.user, '-P', login.password] : [])];
    const child = spawn(MICROSOCKS, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const lines: string[] = [];
    const collect = (chunk: Buffer) => lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    try {
      await ready(port, child);
    } catch (error) {
      await stopChild(child);
      if (attempt < 3 && lines.some((line) => /in use/i.test(line))) continue;
      throw new Error(`microsocks did not start on 127.0.0.1:${port}: ${lines.join(' | ')}`, { cause: error });
    }
    return {
      port,
      outgoingAddress: OUTGOING,
      login,
      url(scheme, password = login?.password) {
        const userInfo = login ? `${encodeURIComponent(login.user)}:${encodeURIComponent(password ?? '')}@` : '';
        return `${scheme}://${userInfo}127.0.0.1:${port}`;
      },
      connectedTo: () => lines.flatMap((line) => /: connected to (\S+)$/.exec(line)?.[1] ?? []),
      clear: () => void (lines.length = 0),
      stop: () => stopChild(child),
    };
  }
}

/** Resolves once microsocks answers a SOCKS5 greeting (within 5 s), rejects when it exits first. */
async function ready(port: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 5000;
  while (child.exitCode === null) {
    const answered = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port }, () => socket.write(Buffer.from([5, 1, 0])));
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data[0] === 5);
      });
      socket.once('error', () => resolve(false));
    });
    if (answered) return;
    if (Date.now() > deadline) throw new Error('no answer to a SOCKS5 greeting within 5 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`it exited with ${String(child.exitCode)}`);
}

/** Stops our own child by its pid (SIGTERM), and waits for it. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}
