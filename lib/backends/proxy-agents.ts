import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import type { ConnectionOptions, TlsOptions, WireRequest } from '../model/backend.js';
import { absoluteForm, targetAuthority, type ProxyRoute } from '../model/proxy-route.js';
import { nodeTls } from './node-tls.js';
import { guardPins, pinsOf, unresumed } from './tls-pins.js';
import { DEFAULT_IDLE_MS, keepingLimits, nodeAgentOptions } from './node-agents.js';
import { openTunnel, proxyTls, unbracketed } from './proxy-tunnel.js';

/** Where node sends a proxied request, and on which agent: options that replace the direct request's. */
export interface ProxiedOptions {
  readonly transport: typeof http | typeof https;
  readonly hostname: string;
  readonly port: number;
  readonly path: string;
  readonly headers: http.OutgoingHttpHeaders;
  readonly agent: http.Agent;
}

/**
 * A proxied request as node's `request()` takes it: `options` (the direct request's) redirected
 * to the proxy, with the request's connect timeout and abort signal for the tunnel agent (node
 * hands a request's options, less `signal`, to its agent's createConnection). Built in one literal, never with `delete` (a deleted key
 * turns the object into a slow dictionary, on every proxied request): `hostname` wins over the
 * direct request's `host`, and the agent's own TLS options over the request's.
 */
export function proxiedRequest(
  proxied: ProxiedOptions,
  options: http.RequestOptions,
  wire: Pick<WireRequest, 'connectTimeout' | 'signal'>,
  callback?: (res: http.IncomingMessage) => void,
): http.ClientRequest {
  const transport = proxied.transport;
  const merged = {
    ...options,
    hostname: proxied.hostname,
    port: proxied.port,
    path: proxied.path,
    headers: proxied.headers,
    agent: proxied.agent,
    protocol: transport === https ? 'https:' : 'http:',
    connectTimeout: wire.connectTimeout,
    tunnelSignal: wire.signal,
  } as http.RequestOptions;
  return callback ? transport.request(merged, callback) : transport.request(merged);
}

/**
 * The keep-alive agents of a node-based backend's proxied requests, per proxy: one carrying
 * absolute-form requests to the proxy (http targets; its connections serve every target), and
 * one whose connections are `CONNECT` tunnels with TLS to the target inside (https targets;
 * node pools them per target origin). TLS to targets and to an `https://` proxy follows `execution.tls`.
 */
export class ProxyAgents {
  readonly #tls: TlsOptions | undefined;
  readonly #connection: ConnectionOptions;
  readonly #forward = new Map<ProxyRoute, http.Agent>();
  readonly #tunnel = new Map<ProxyRoute, TunnelAgent>();

  constructor(tls: TlsOptions | undefined, connection: ConnectionOptions = {}) {
    this.#tls = tls;
    this.#connection = connection;
  }

  /**
   * How node sends `request` through `route`: `path` is the target as the transport would send
   * it, `headers` the headers it would send (a transport's hooks may have added some).
   */
  options(request: WireRequest, route: ProxyRoute, path: string, headers: http.OutgoingHttpHeaders): ProxiedOptions {
    if (request.secure) {
      // the target's name and port: node opens (through the agent's tunnel) and checks TLS to it
      return { transport: https, hostname: unbracketed(request.hostname), port: request.port, path, headers, agent: this.#tunnelAgent(route) };
    }
    // absolute form to the proxy; `Host` still names the target (node would write the proxy's)
    if (!Object.keys(headers).some(isHost)) headers = { Host: targetAuthority(request), ...headers };
    const target = absoluteForm(request, path);
    return {
      transport: route.secure ? https : http,
      hostname: unbracketed(route.hostname),
      port: route.port,
      path: target,
      headers,
      agent: this.#forwardAgent(route),
    };
  }

  get #idleMs(): number {
    return this.#connection.idleTimeout ?? DEFAULT_IDLE_MS;
  }

  destroy(): void {
    for (const agent of [...this.#forward.values(), ...this.#tunnel.values()]) agent.destroy();
    this.#forward.clear();
    this.#tunnel.clear();
  }

  #forwardAgent(route: ProxyRoute): http.Agent {
    let agent = this.#forward.get(route);
    if (!agent) {
      const options = nodeAgentOptions(this.#connection);
      agent = keepingLimits(route.secure ? new https.Agent({ ...options, ...proxyTls(this.#tls, route) }) : new http.Agent(options), this.#idleMs);
      this.#forward.set(route, agent);
    }
    return agent;
  }

  #tunnelAgent(route: ProxyRoute): TunnelAgent {
    let agent = this.#tunnel.get(route);
    if (!agent) this.#tunnel.set(route, (agent = keepingLimits(new TunnelAgent(route, this.#tls, nodeAgentOptions(this.#connection)), this.#idleMs)));
    return agent;
  }
}

/** Options node hands an agent's createConnection: the request's (see {@link proxiedRequest}), plus the agent's. */
type NodeConnectOptions = https.RequestOptions & { readonly connectTimeout?: number; readonly tunnelSignal?: AbortSignal };

/** An https Agent whose new connections are TLS to the target inside a `CONNECT` tunnel through the proxy. */
class TunnelAgent extends https.Agent {
  readonly #route: ProxyRoute;
  readonly #tls: TlsOptions | undefined;
  readonly #pins: ReadonlySet<string> | undefined;
  /** Aborted by destroy(): tunnels still being opened stop, and none arriving later is kept. */
  readonly #destroyed = new AbortController();

  constructor(route: ProxyRoute, tls: TlsOptions | undefined, options: http.AgentOptions) {
    super({ ...options, ...nodeTls(tls), ...unresumed(tls) });
    this.#route = route;
    this.#tls = tls;
    this.#pins = pinsOf(tls);
  }

  override createConnection(options: NodeConnectOptions, callback?: (error: Error | null, socket: Duplex) => void): Duplex | null | undefined {
    const done = callback ?? (() => {});
    const target = { hostname: options.hostname ?? options.host ?? 'localhost', port: Number(options.port ?? 443) };
    const destroyed = this.#destroyed.signal;
    const signal = options.tunnelSignal ? AbortSignal.any([options.tunnelSignal, destroyed]) : destroyed;
    openTunnel(this.#route, target, this.#tls, { timeout: options.connectTimeout, signal }).then(
      (socket) => {
        try {
          if (destroyed.aborted) throw destroyed.reason as Error;
          // https.Agent's own createConnection: TLS (with its session cache) over the tunnel, checked against the target
          const secure = super.createConnection({ ...options, socket } as https.RequestOptions, undefined) as TLSSocket;
          done(null, guardPins(secure, this.#pins, target.hostname));
        } catch (error) {
          socket.destroy(); // TLS options node refuses (a bad key), or a pool closed meanwhile
          done(error as Error, undefined as unknown as Duplex);
        }
      },
      (error: Error) => done(error, undefined as unknown as Duplex),
    );
    return undefined; // node waits for the callback
  }

  override destroy(): void {
    this.#destroyed.abort(new Error('the client was closed while a proxy tunnel was being opened'));
    super.destroy();
  }
}

function isHost(name: string): boolean {
  return name.toLowerCase() === 'host';
}
