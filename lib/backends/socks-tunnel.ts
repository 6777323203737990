import type dns from 'node:dns';
import net from 'node:net';
import { ProxyError } from '../core/errors.js';
import { unbracketed } from '../core/host-literals.js';
import { CONNECT_TIMEOUT, type LookupFunction } from '../model/backend.js';
import type { ProxyRoute } from '../model/proxy-route.js';
import type { TunnelLimits, TunnelTarget } from './proxy-tunnel.js';

/** How a `socks5://` proxy's client resolves target names: `client.connection.lookup` and `family`. */
export interface SocksResolution {
  readonly lookup?: LookupFunction;
  readonly family?: number;
}

/** The SOCKS5 replies (RFC 1928 §6) in words, by the names the `socks` package gives them. */
const REPLIES: Readonly<Record<string, string>> = {
  Failure: '1, general SOCKS server failure',
  NotAllowed: '2, connection not allowed by ruleset',
  NetworkUnreachable: '3, network unreachable',
  HostUnreachable: '4, host unreachable',
  ConnectionRefused: '5, connection refused',
  TTLExpired: '6, TTL expired',
  CommandNotSupported: '7, command not supported',
  AddressNotSupported: '8, address type not supported',
};

/** No timer of the `socks` package's own: ours (the connect timeout) bounds the whole setup. */
const NO_TIMEOUT = 2 ** 31 - 1;

let loading: Promise<typeof import('socks')> | undefined;

/**
 * Opens a SOCKS5 `CONNECT` tunnel through `route` to `target` (RFC 1928), logging in with the
 * proxy URL's credentials when it has some (RFC 1929): the socket to speak HTTP, or TLS, over.
 * A `socks5://` proxy is sent the address the client resolved (with `resolution`), a
 * `socks5h://` one the name. The `socks` package is loaded on the first tunnel.
 *
 * A refused or missing login, and a reply other than "succeeded", reject with ProxyError (no
 * cause: the package's errors hold the password); the proxy unreachable, with node's error.
 *
 * @example
 * const socket = await openSocksTunnel(route, { hostname: 'api.example.com', port: 443 }, { timeout: 10_000 });
 */
export async function openSocksTunnel(route: ProxyRoute, target: TunnelTarget, limits: TunnelLimits, resolution: SocksResolution = {}): Promise<net.Socket> {
  const { SocksClient } = await (loading ??= import('socks'));
  const { timeout, signal } = limits;
  signal?.throwIfAborted();
  let socket: net.Socket | undefined;
  let cleanup = () => {};
  let given = false;
  const stopped = new Promise<never>((_resolve, reject) => {
    const timer =
      timeout === undefined
        ? undefined
        : setTimeout(
            () =>
              reject(
                Object.assign(new Error(`the SOCKS5 tunnel through the proxy ${route.shown} was not established within ${timeout} ms`), {
                  code: CONNECT_TIMEOUT,
                }),
              ),
            timeout,
          );
    const onAbort = () => reject(signal!.reason as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    cleanup = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
  });
  const open = async (): Promise<net.Socket> => {
    const host = route.socks === 'socks5' ? await resolveTarget(target.hostname, resolution) : unbracketed(target.hostname);
    if (given) throw new Error('the SOCKS5 tunnel was given up');
    socket = net.connect({ host: unbracketed(route.hostname), port: route.port });
    await new Promise<void>((resolve, reject) => {
      const closed = () => reject(new Error(`the connection to the proxy ${route.shown} closed`));
      socket!.once('connect', resolve).once('error', reject).once('close', closed);
    });
    socket.removeAllListeners('error').removeAllListeners('close');
    const login = route.socksLogin?.();
    try {
      await SocksClient.createConnection({
        proxy: { host: unbracketed(route.hostname), port: route.port, type: 5, userId: login?.user, password: login?.password },
        destination: { host, port: target.port },
        command: 'connect',
        existing_socket: socket,
        timeout: NO_TIMEOUT,
      });
    } catch (error) {
      throw socksFailure(error, route, `${target.hostname}:${target.port}`);
    }
    return socket;
  };
  const opening = open();
  opening.catch(() => {}); // a late failure after a timeout or an abort: already reported
  try {
    return await Promise.race([opening, stopped]);
  } catch (error) {
    given = true;
    socket?.destroy();
    throw error;
  } finally {
    cleanup();
  }
}

/** A `socks5://` target's address: an IP literal as it is, a name by the client's lookup. */
function resolveTarget(hostname: string, { lookup, family }: SocksResolution): Promise<string> {
  const host = unbracketed(hostname);
  if (net.isIP(host)) return Promise.resolve(host);
  return new Promise((resolve, reject) =>
    (lookup ?? (process.getBuiltinModule('node:dns').lookup as LookupFunction))(
      host,
      { family: family ?? 0 },
      (error: Error | null, address: string | dns.LookupAddress[]) => {
        if (error) return reject(error);
        const first = Array.isArray(address) ? address[0]?.address : address;
        return first ? resolve(first) : reject(Object.assign(new Error(`${host} resolved to no address`), { code: 'ENOTFOUND' }));
      },
    ),
  );
}

/**
 * What a failed SOCKS5 handshake means, from the `socks` package's message: a ProxyError for a
 * login refused or missing (`407`, as an HTTP proxy's) and for a refusing reply (`403` for "not
 * allowed", else `502`); a plain error (a NetworkError later) for a proxy that broke off.
 */
function socksFailure(error: unknown, route: ProxyRoute, authority: string): Error {
  const message = error instanceof Error ? error.message : String(error);
  const noLogin = `the proxy ${route.shown} asks for a SOCKS5 login, and its URL has no credentials (socks5://user:password@host:port)`;
  if (message.startsWith('Socks5 Authentication failed')) {
    // a proxy may pick the login method though the client offered none: then nothing of the URL was refused
    return new ProxyError(
      route.hasCredentials ? `the proxy ${route.shown} refused the credentials of its URL (SOCKS5 username/password login, RFC 1929)` : noLogin,
      407,
    );
  }
  if (message.includes('no accepted authentication type')) {
    return new ProxyError(
      route.hasCredentials ? `the proxy ${route.shown} accepts neither of the SOCKS5 login methods the client offers (none, username/password)` : noLogin,
      407,
    );
  }
  const rejected = /^Socks5 proxy rejected connection - (\w+)/.exec(message)?.[1];
  if (rejected !== undefined) {
    const reply = Object.hasOwn(REPLIES, rejected) ? `SOCKS5 reply ${REPLIES[rejected]}` : 'a SOCKS5 reply code RFC 1928 does not define';
    return new ProxyError(`the proxy ${route.shown} refused a tunnel to ${authority}: ${reply}`, rejected === 'NotAllowed' ? 403 : 502);
  }
  // no cause: the package's error carries its options, the password among them
  const closed = message === 'Socket closed';
  return Object.assign(new Error(`the proxy ${route.shown} broke off the SOCKS5 handshake (${closed ? 'it closed the connection' : message})`), {
    code: closed ? 'ECONNRESET' : 'ERR_SOCKS_HANDSHAKE',
  });
}
