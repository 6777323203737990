import type * as Undici from 'undici';
import type { ConnectionOptions, TlsOptions, WireRequest } from '../model/backend.js';
import { pinnedConnector, transportLimits, undiciAgentOptions } from './undici-limits.js';
import { nodeTls } from './node-tls.js';
import { pinsOf, unresumed } from './tls-pins.js';
import { absoluteForm, type ProxyRoute } from '../model/proxy-route.js';
import { ProxyChallenge } from './proxy-challenge.js';
import { openTunnel, proxyTls, unbracketed } from './proxy-tunnel.js';
import { socksOpener, type TunnelOpener } from './socks-agents.js';
import { timedConnector } from './undici-timings.js';

type Dispatcher = Undici.Dispatcher;
type Limits = ReturnType<typeof transportLimits>;
type Connector = Undici.buildConnector.connector;

/**
 * The undici dispatchers of proxied requests (the fetch and undici backends), per proxy and connect
 * timeout: for https targets an Agent whose connections are TLS to the target inside a
 * `CONNECT` tunnel; through a SOCKS5 proxy an Agent whose connections are SOCKS5 tunnels (TLS
 * inside for https targets; undici's own Socks5ProxyAgent lacks socks5 vs socks5h, the connect
 * timeout and abort); for http targets an Agent whose connections go to the proxy, composed
 * with an interceptor that sends the request in absolute form and turns the proxy's `407`
 * (which fetch would make a network error) into a {@link ProxyChallenge}. Loaded only when a
 * request goes through a proxy: this module needs `node:` modules, the fetch backend does not.
 */
export class UndiciProxies {
  readonly #undici: typeof Undici;
  readonly #tls: TlsOptions | undefined;
  /** `client.connection`: the pools' bounds and idle time (how to reach the proxy stays the tunnel's). */
  readonly #connection: ConnectionOptions | undefined;
  /** Per route, per target scheme and connect timeout (undici sets it per Agent). */
  readonly #dispatchers = new Map<ProxyRoute, Map<string, Dispatcher>>();
  /** Aborted by destroy(): tunnels still being opened stop, and none arriving later is kept. */
  readonly #destroyed = new AbortController();

  constructor(undici: typeof Undici, tls: TlsOptions | undefined, connection?: ConnectionOptions) {
    this.#undici = undici;
    this.#tls = tls;
    this.#connection = connection;
  }

  /** The dispatcher for `request` (an https or http target) through `route`. */
  dispatcher(route: ProxyRoute, request: WireRequest): Dispatcher {
    let byKind = this.#dispatchers.get(route);
    if (!byKind) this.#dispatchers.set(route, (byKind = new Map<string, Dispatcher>()));
    const limits = transportLimits(request);
    const kind = `${request.secure} ${limits.key}`;
    let dispatcher = byKind.get(kind);
    if (!dispatcher) {
      dispatcher = route.socks !== undefined || request.secure ? this.#tunnelling(route, limits, request.secure) : this.#forwarding(route, limits);
      byKind.set(kind, dispatcher);
    }
    return dispatcher;
  }

  /** The pool settings of `client.connection` (connections per origin, keep-alive, idle time). */
  #pool(): Record<string, unknown> {
    const { connect: _ignored, ...pool } = undiciAgentOptions({ tls: undefined, connection: this.#connection }, 0);
    return pool;
  }

  async destroy(): Promise<void> {
    this.#destroyed.abort(new Error('the client was closed while a proxy tunnel was being opened'));
    await Promise.all([...this.#dispatchers.values()].flatMap((byKind) => [...byKind.values()].map((dispatcher) => dispatcher.destroy())));
  }

  /** Connections through a tunnel (`CONNECT`, or SOCKS5 for either scheme), TLS to the target inside for `secure` ones. */
  #tunnelling(route: ProxyRoute, limits: Limits, secure: boolean): Dispatcher {
    const timeout = limits.connectTimeout;
    // undici's own connector runs TLS to the target over the socket it is given (httpSocket)
    // as the fetch backend's own Agents: Uint8Array works where undici's types say Buffer
    const toTarget = pinnedConnector(this.#undici.buildConnector({ ...nodeTls(this.#tls), ...unresumed(this.#tls), timeout }), pinsOf(this.#tls));
    const tls = this.#tls;
    const open: TunnelOpener =
      route.socks === undefined ? (target, tunnelLimits) => openTunnel(route, target, tls, tunnelLimits) : socksOpener(route, this.#connection ?? {});
    const signal = this.#destroyed.signal;
    const connect: Connector = (options, callback) => {
      open({ hostname: options.hostname, port: Number(options.port) || (secure ? 443 : 80) }, { timeout: timeout || undefined, signal }).then(
        (socket) => {
          try {
            if (signal.aborted) throw signal.reason as Error;
            if (!secure) return callback(null, socket as Parameters<Parameters<Connector>[1]>[1] & object);
            toTarget({ ...options, httpSocket: socket as Undici.buildConnector.Options['httpSocket'] }, callback);
          } catch (error) {
            socket.destroy(); // TLS options node refuses (a bad key), or a pool closed meanwhile
            callback(error as Error, null);
          }
        },
        (error: Error) => callback(error, null),
      );
    };
    return new this.#undici.Agent({ ...this.#pool(), connect, headersTimeout: limits.headersTimeout, bodyTimeout: limits.bodyTimeout });
  }

  #forwarding(route: ProxyRoute, limits: Limits): Dispatcher {
    const timeout = limits.connectTimeout;
    // timed as a direct connection is: the attempts' connection phases are those to the proxy
    const toProxy = timedConnector(this.#undici.buildConnector({ ...(route.secure ? proxyTls(this.#tls, route) : {}), timeout }));
    const proxy = {
      hostname: unbracketed(route.hostname),
      protocol: route.secure ? 'https:' : 'http:',
      port: String(route.port),
      servername: proxyTls(this.#tls, route).servername,
    };
    const connect: Connector = (_target, callback) => toProxy(proxy, callback);
    const agent = new this.#undici.Agent({ ...this.#pool(), connect, headersTimeout: limits.headersTimeout, bodyTimeout: limits.bodyTimeout });
    return new AbsoluteForm(agent) as unknown as Dispatcher;
  }
}

/**
 * An Agent to the proxy that sends each request in absolute form, and stops at a 407 with a
 * {@link ProxyChallenge}. Not by undici's `compose`: its interceptors hand the handler on
 * without `onRequestSent`, which the attempt's timings need (`upload`).
 */
class AbsoluteForm {
  constructor(private readonly agent: Dispatcher) {}

  dispatch(options: Undici.Dispatcher.DispatchOptions, handler: Undici.Dispatcher.DispatchHandler): boolean {
    const origin = new URL(String(options.origin));
    const secure = origin.protocol === 'https:';
    const path = absoluteForm({ secure, hostname: origin.hostname, port: Number(origin.port) || (secure ? 443 : 80), target: options.path });
    return this.agent.dispatch({ ...options, path }, new ChallengeHandler(handler as LegacyHandler));
  }

  close(): Promise<void> {
    return this.agent.close();
  }

  destroy(): Promise<void> {
    return this.agent.destroy();
  }
}

/** The handler methods fetch's handler has (undici's older handler API), all passed on. */
interface LegacyHandler {
  onConnect?(abort: (reason?: Error) => void, context?: object): void;
  onHeaders?(statusCode: number, headers: Buffer[], resume: () => void, statusText: string): boolean;
  onResponseStarted?(): void;
  onData?(chunk: Buffer): boolean;
  onComplete?(trailers: string[] | null): void;
  onError?(error: Error): void;
  onUpgrade?(statusCode: number, headers: Buffer[] | string[] | null, socket: unknown): void;
  onBodySent?(chunk: unknown): void;
  onRequestSent?(): void;
}

class ChallengeHandler implements LegacyHandler {
  #abort: ((reason?: Error) => void) | undefined;

  constructor(private readonly handler: LegacyHandler) {}

  onConnect(abort: (reason?: Error) => void, context?: object): void {
    this.#abort = abort;
    this.handler.onConnect?.(abort, context);
  }

  onHeaders(statusCode: number, headers: Buffer[], resume: () => void, statusText: string): boolean {
    if (statusCode !== 407) return this.handler.onHeaders?.(statusCode, headers, resume, statusText) ?? true;
    const pairs: Array<readonly [string, string]> = [];
    for (let i = 0; i < headers.length; i += 2) pairs.push([headers[i].toString('latin1'), headers[i + 1].toString('latin1')]);
    this.#abort?.(new ProxyChallenge(statusCode, statusText, pairs));
    return false;
  }

  onResponseStarted(): void {
    this.handler.onResponseStarted?.();
  }
  onData(chunk: Buffer): boolean {
    return this.handler.onData?.(chunk) ?? true;
  }
  onComplete(trailers: string[] | null): void {
    this.handler.onComplete?.(trailers);
  }
  onError(error: Error): void {
    this.handler.onError?.(error);
  }
  onUpgrade(statusCode: number, headers: Buffer[] | string[] | null, socket: unknown): void {
    this.handler.onUpgrade?.(statusCode, headers, socket);
  }
  onBodySent(chunk: unknown): void {
    this.handler.onBodySent?.(chunk);
  }
  onRequestSent(): void {
    this.handler.onRequestSent?.();
  }
}
