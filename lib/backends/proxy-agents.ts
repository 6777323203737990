import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import type { ConnectionOptions, TlsOptions, WireRequest } from '../model/backend.js';
import { absoluteForm, targetAuthority, type ProxyRoute } from '../model/proxy-route.js';
import { nodeTls } from './node-tls.js';
import { guardPins, pinsOf, unresumed } from './tls-pins.js';
import { DEFAULT_IDLE_MS, keepingLimits, nodeAgentOptions } from './node-agents.js';
import { proxyDialLookup } from './proxy-dial.js';
import { openTunnel, proxyTls, unbracketed } from './proxy-tunnel.js';
import { connectThrough, SocksHttpAgent, socksOpener, type ConnectCallback, type NodeConnectOptions, type TunnelOpener } from './socks-agents.js';

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
 * hands a request's options, less `signal`, to its agent's createConnection). Built in one step,
 * never with `delete` (a deleted key turns the object into a slow dictionary, on every proxied
 * request): `hostname` wins over the direct request's `host`, and the agent's own TLS options
 * over the request's.
 */
export function proxiedRequest(
  proxied: ProxiedOptions,
  options: http.RequestOptions,
  wire: Pick<WireRequest, 'connectTimeout' | 'signal'>,
  callback?: (res: http.IncomingMessage) => void,
): http.ClientRequest {
  const transport = proxied.transport;
  // Object.assign, not `{ ...options, hostname, … }`: a spread followed by keys its source lacks
  // costs a new hidden class on every call (docs/performance.md, "Hot path rules")
  const merged: http.RequestOptions = Object.assign({}, options, {
    hostname: proxied.hostname,
    port: proxied.port,
    path: proxied.path,
    headers: proxied.headers,
    agent: proxied.agent,
    protocol: transport === https ? 'https:' : 'http:',
    connectTimeout: wire.connectTimeout,
    tunnelSignal: wire.signal,
  });
  return callback ? transport.request(merged, callback) : transport.request(merged);
}

/**
 * The keep-alive agents of a node-based backend's proxied requests, per proxy: one carrying
 * absolute-form requests to the proxy (http targets; its connections serve every target), and
 * one whose connections are `CONNECT` tunnels with TLS to the target inside (https targets;
 * node pools them per target origin). A SOCKS5 proxy has a pair of agents whose connections are
 * SOCKS5 tunnels, TLS inside for https targets. TLS to targets and to an `https://` proxy follows `execution.tls`.
 */
export class ProxyAgents {
  readonly #tls: TlsOptions | undefined;
  readonly #connection: ConnectionOptions;
  readonly #forward = new Map<ProxyRoute, http.Agent>();
  readonly #tunnel = new Map<ProxyRoute, TunnelAgent>();
  /** SOCKS5 proxies' agents: http targets, then https ones. */
  readonly #socks = new Map<ProxyRoute, Array<http.Agent | undefined>>();

  constructor(tls: TlsOptions | undefined, connection: ConnectionOptions = {}) {
    this.#tls = tls;
    this.#connection = connection;
  }

  /**
   * How node sends `request` through `route`: `path` is the target as the transport would send
   * it, `headers` the headers it would send (a transport's hooks may have added some).
   */
  options(request: WireRequest, route: ProxyRoute, path: string, headers: http.OutgoingHttpHeaders): ProxiedOptions {
    if (route.socks !== undefined) {
      // SOCKS5: every target through a tunnel, node speaking to it as to a direct one
      const agent = this.#socksAgent(route, request.secure);
      return { transport: request.secure ? https : http, hostname: unbracketed(request.hostname), port: request.port, path, headers, agent };
    }
    if (request.secure) {
      // the target's name and port: node opens (through the agent's tunnel) and checks TLS to it
      return { transport: https, hostname: unbracketed(request.hostname), port: request.port, path, headers, agent: this.#tunnelAgent(route) };
    }
    // absolute form to the proxy; `Host` still names the target (node would write the proxy's)
    if (!hasHost(headers)) headers = { Host: targetAuthority(request), ...headers };
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
    const socks = [...this.#socks.values()].flat().filter((agent) => agent !== undefined);
    for (const agent of [...this.#forward.values(), ...this.#tunnel.values(), ...socks]) agent.destroy();
    this.#forward.clear();
    this.#tunnel.clear();
    this.#socks.clear();
  }

  #forwardAgent(route: ProxyRoute): http.Agent {
    let agent = this.#forward.get(route);
    if (!agent) {
      // its connections go to the proxy itself: under client.publicOnly, resolved with the lookup that lets the proxy through
      const options = nodeAgentOptions({ ...this.#connection, lookup: proxyDialLookup(this.#connection.lookup) });
      agent = keepingLimits(route.secure ? new https.Agent({ ...options, ...proxyTls(this.#tls, route) }) : new http.Agent(options), this.#idleMs);
      this.#forward.set(route, agent);
    }
    return agent;
  }

  #socksAgent(route: ProxyRoute, secure: boolean): http.Agent {
    let agents = this.#socks.get(route);
    if (!agents) this.#socks.set(route, (agents = [undefined, undefined]));
    const index = secure ? 1 : 0;
    const existing = agents[index];
    if (existing) return existing;
    const open = socksOpener(route, this.#connection);
    const options = nodeAgentOptions(this.#connection);
    const agent = secure ? new TunnelAgent(route, this.#tls, options, open) : new SocksHttpAgent(open, options);
    agents[index] = keepingLimits(agent, this.#idleMs);
    return agent;
  }

  #tunnelAgent(route: ProxyRoute): TunnelAgent {
    let agent = this.#tunnel.get(route);
    if (!agent) this.#tunnel.set(route, (agent = keepingLimits(new TunnelAgent(route, this.#tls, nodeAgentOptions(this.#connection)), this.#idleMs)));
    return agent;
  }
}

/** An https Agent whose new connections are TLS to the target inside a tunnel through the proxy (`CONNECT`, or SOCKS5 with `open`). */
class TunnelAgent extends https.Agent {
  readonly #open: TunnelOpener;
  readonly #pins: ReadonlySet<string> | undefined;
  /** Aborted by destroy(): tunnels still being opened stop, and none arriving later is kept. */
  readonly #destroyed = new AbortController();

  constructor(route: ProxyRoute, tls: TlsOptions | undefined, options: http.AgentOptions, open?: TunnelOpener) {
    super({ ...options, ...nodeTls(tls), ...unresumed(tls) });
    this.#open = open ?? ((target, limits) => openTunnel(route, target, tls, limits));
    this.#pins = pinsOf(tls);
  }

  override createConnection(options: NodeConnectOptions, callback?: ConnectCallback): Duplex | null | undefined {
    return connectThrough(this.#open, options, this.#destroyed.signal, 443, callback, (socket, target) => {
      // https.Agent's own createConnection: TLS (with its session cache) over the tunnel, checked against the target
      const secure = super.createConnection({ ...options, socket } as https.RequestOptions, undefined) as TLSSocket;
      return guardPins(secure, this.#pins, target.hostname);
    });
  }

  override destroy(): void {
    this.#destroyed.abort(new Error('the client was closed while a proxy tunnel was being opened'));
    super.destroy();
  }
}

/** Whether `headers` name a `Host` (a loop over the names: no array of them per request). */
function hasHost(headers: http.OutgoingHttpHeaders): boolean {
  for (const name in headers) if (name.length === 4 && name.toLowerCase() === 'host') return true;
  return false;
}
