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

/** An http Agent whose new connections are SOCKS5 tunnels to the target (http targets: HTTP/1.1 in the clear inside). */
export class SocksHttpAgent extends http.Agent {
  readonly #open: TunnelOpener;
  /** Aborted by destroy(): tunnels still being opened stop, and none arriving later is kept. */
  readonly #destroyed = new AbortController();

  constructor(open: TunnelOpener, options: http.AgentOptions) {
    super(options);
    this.#open = open;
  }

  override createConnection(options: NodeConnectOptions, callback?: (error: Error | null, socket: Duplex) => void): Duplex | null | undefined {
    const done = callback ?? (() => {});
    const target = { hostname: options.hostname ?? options.host ?? 'localhost', port: Number(options.port ?? 80) };
    const destroyed = this.#destroyed.signal;
    const signal = options.tunnelSignal ? AbortSignal.any([options.tunnelSignal, destroyed]) : destroyed;
    this.#open(target, { timeout: options.connectTimeout, signal }).then(
      (socket) => {
        if (!destroyed.aborted) return done(null, socket);
        socket.destroy();
        done(destroyed.reason as Error, undefined as unknown as Duplex);
      },
      (error: Error) => done(error, undefined as unknown as Duplex),
    );
    return undefined; // node waits for the callback
  }

  override destroy(): void {
    this.#destroyed.abort(new Error('the client was closed while a SOCKS5 tunnel was being opened'));
    super.destroy();
  }
}
