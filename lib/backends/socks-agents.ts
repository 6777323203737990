import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { ConnectionOptions } from '../model/backend.js';
import type { ProxyRoute } from '../model/proxy-route.js';
import { answeringAll } from './lookup.js';
import type { TunnelLimits, TunnelTarget } from './proxy-tunnel.js';
import { openSocksTunnel } from './socks-tunnel.js';

/** Opens the socket a proxied connection runs over: a `CONNECT` tunnel, or a SOCKS5 one. */
export type TunnelOpener = (target: TunnelTarget, limits: TunnelLimits) => Promise<Duplex>;

/** Options node hands an agent's createConnection: the request's (see proxiedRequest), plus the agent's. */
export type NodeConnectOptions = http.RequestOptions & { readonly connectTimeout?: number; readonly tunnelSignal?: AbortSignal };

/**
 * The opener of SOCKS5 tunnels through `route`: a `socks5://` proxy's targets resolved as
 * `client.connection` says (`lookup`, `family`; under `client.publicOnly` the checking lookup).
 */
export function socksOpener(route: ProxyRoute, connection: ConnectionOptions): TunnelOpener {
  const resolution = { lookup: connection.lookup && answeringAll(connection.lookup), family: connection.family };
  return (target, limits) => openSocksTunnel(route, target, limits, resolution);
}

/** What node's createConnection calls back with. */
export type ConnectCallback = (error: Error | null, socket: Duplex) => void;

/**
 * One of node's createConnection calls through a tunnel: opens it to the target `options` name
 * (bounded by the request's connect timeout and abort signal, and by the agent's `destroyed`),
 * then calls back with `wrap(socket)` (TLS to the target, or the socket itself). Returns
 * `undefined`: node waits for the callback.
 */
export function connectThrough(
  open: TunnelOpener,
  options: NodeConnectOptions,
  destroyed: AbortSignal,
  defaultPort: number,
  callback: ConnectCallback | undefined,
  wrap: (socket: Duplex, target: TunnelTarget) => Duplex,
): undefined {
  const done = callback ?? (() => {});
  const target = { hostname: options.hostname ?? options.host ?? 'localhost', port: Number(options.port ?? defaultPort) };
  const signal = options.tunnelSignal ? AbortSignal.any([options.tunnelSignal, destroyed]) : destroyed;
  open(target, { timeout: options.connectTimeout, signal }).then(
    (socket) => {
      try {
        if (destroyed.aborted) throw destroyed.reason as Error;
        done(null, wrap(socket, target));
      } catch (error) {
        socket.destroy(); // TLS options node refuses (a bad key), or a pool closed meanwhile
        done(error as Error, undefined as unknown as Duplex);
      }
    },
    (error: Error) => done(error, undefined as unknown as Duplex),
  );
  return undefined;
}

/** An http Agent whose new connections are SOCKS5 tunnels to the target (http targets: HTTP/1.1 in the clear inside). */
export class SocksHttpAgent extends http.Agent {
  readonly #open: TunnelOpener;
  /** Aborted by destroy(): tunnels still being opened stop, and none arriving later is kept. */
  readonly #destroyed = new AbortController();

  constructor(open: TunnelOpener, options: http.AgentOptions) {
    super(options);
    this.#open = open;
  }

  override createConnection(options: NodeConnectOptions, callback?: ConnectCallback): Duplex | null | undefined {
    return connectThrough(this.#open, options, this.#destroyed.signal, 80, callback, (socket) => socket);
  }

  override destroy(): void {
    this.#destroyed.abort(new Error('the client was closed while a SOCKS5 tunnel was being opened'));
    super.destroy();
  }
}
