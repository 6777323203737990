import type { TLSSocket } from 'node:tls';
import { DEFAULT_IDLE_MS, type TlsOptions, type TransportOptions, type WireRequest } from '../model/backend.js';
import { answeringAll } from './lookup.js';
import { nodeTls } from './node-tls.js';
import { pinFailure, pinsOf, unresumed } from './tls-pins.js';
import { timedConnector, type Connector } from './undici-timings.js';
import { keyOf } from '../model/origin-key.js';

export { originKey } from '../model/origin-key.js';

/**
 * A request's timeouts as undici's Agent options (it takes them per Agent, not per fetch), and
 * the key of the Agent that has them. `0` is off, for undici as for the pipeline (undici's own
 * 10 s connect timeout included: none unless asked, as on the other backends).
 */
export function transportLimits(request: WireRequest): { key: string; connectTimeout: number; headersTimeout: number; bodyTimeout: number } {
  const { connectTimeout = 0, headersTimeout = 0, bodyTimeout = 0 } = request;
  return { key: `${connectTimeout} ${headersTimeout} ${bodyTimeout}`, connectTimeout, headersTimeout, bodyTimeout };
}

/**
 * An undici `Agent`'s options for a client's TLS and `client.connection` settings, with a
 * connect timeout (`0`: none): `connections` bounds each origin (undici queues the rest in
 * order), `pipelining: 0` turns keep-alive off, and `socketPath`, `lookup`, `family` and
 * `localAddress` go to every new connection.
 */
export function undiciAgentOptions(options: TransportOptions, connectTimeout: number, headersTimeout?: number, bodyTimeout?: number): Record<string, unknown> {
  const connection = options.connection ?? {};
  const { socketPath, lookup, family, localAddress } = connection;
  // Uint8Array works where undici's types say Buffer
  const connect = {
    ...nodeTls(options.tls),
    timeout: connectTimeout,
    ...(socketPath !== undefined && { socketPath }),
    ...(lookup && { lookup: answeringAll(lookup) }),
    ...(family && { family }),
  };
  // a server's Keep-Alive hint may shorten the idle time, never lengthen it past ours
  const idle = connection.idleTimeout ?? DEFAULT_IDLE_MS;
  const agent: Record<string, unknown> = { connect, keepAliveTimeout: idle, keepAliveMaxTimeout: idle };
  if (connection.maxSockets !== undefined && connection.maxSockets !== Infinity) agent.connections = connection.maxSockets;
  if (connection.keepAlive === false) agent.pipelining = 0;
  if (localAddress !== undefined) agent.localAddress = localAddress;
  if (headersTimeout !== undefined) agent.headersTimeout = headersTimeout;
  if (bodyTimeout !== undefined) agent.bodyTimeout = bodyTimeout;
  if (options.http2) {
    agent.allowH2 = true;
    // undici's pool opens a connection per concurrent request until a session is up: one per origin
    // multiplexes them (an origin that answers HTTP/1.1 then gets one at a time, unless maxSockets says)
    agent.connections ??= 1;
  }
  return agent;
}

/** The connector options in {@link undiciAgentOptions}' result, to build a connector of one's own from. */
export interface Versions {
  /** The version of the last connection made to an origin (keyed by {@link originKey}): `'2.0'` when ALPN picked h2. */
  readonly byOrigin: Map<string, '1.1' | '2.0'>;
}

/** A socket as the connector sees it. */
interface ConnectedSocket {
  readonly alpnProtocol?: unknown;
  readonly bytesRead: number;
  on(event: 'error', listener: (this: ConnectedSocket, error: Error) => void): unknown;
}

/**
 * The Agent options with a connector of our own, built by undici's `buildConnector`: it marks
 * the errors of a connection that had read bytes before (a kept-alive one reused, which the
 * server may have closed: `onReusedConnection`), and with `client.http2` (`versions`) notes
 * which HTTP version ALPN picked per origin (undici's response carries none); and it times
 * each connection for the attempts' timings.
 */
export function withConnector(
  tls: TlsOptions | undefined,
  agentOptions: Record<string, unknown>,
  buildConnector: (
    options: object,
  ) => (options: { protocol: string; hostname: string; port: string }, callback: (error: Error | null, socket: unknown) => void) => void,
  versions: Versions | undefined,
): Record<string, unknown> {
  // each connection's instants stamped, for the requests written on it first (undici-timings.ts)
  const built = buildConnector({ ...(agentOptions.connect as object), ...unresumed(tls), ...(versions && { allowH2: true }) });
  const connector = pinnedConnector(timedConnector(built), pinsOf(tls));
  const connect = (options: { protocol: string; hostname: string; port: string }, callback: (error: Error | null, socket: unknown) => void) =>
    connector(options, (error, made) => {
      const socket = made as ConnectedSocket | null;
      socket?.on('error', markIfRead);
      // undici hands the connector an IPv6 address without its brackets
      const host = options.hostname.includes(':') ? `[${options.hostname}]` : options.hostname;
      if (socket && versions) versions.byOrigin.set(keyOf(options.protocol, host, options.port), socket.alpnProtocol === 'h2' ? '2.0' : '1.1');
      callback(error, socket);
    });
  return { ...agentOptions, connect };
}

/**
 * `connector` with `execution.tls.pins` checked on each new TLS connection, in its callback: undici
 * writes nothing on a socket before it has it, so a connection that fails them is destroyed unused.
 *
 * @example
 * const connect = pinnedConnector(undici.buildConnector(tlsOptions), pinsOf(settings));
 */
export function pinnedConnector<C extends Connector>(connector: C, pins: ReadonlySet<string> | undefined): C {
  if (pins === undefined) return connector;
  type Target = { protocol: string; hostname: string; servername?: string };
  return ((options: Target, callback: (error: Error | null, socket: unknown) => void) =>
    connector(options as never, (error, socket) => {
      const failure = error === null && options.protocol === 'https:' && pinFailure(socket as TLSSocket, pins, options.servername || options.hostname);
      if (!failure) return callback(error, socket);
      (socket as TLSSocket).destroy();
      callback(failure, null);
    })) as unknown as C;
}

/** A socket's 'error' listener (one function, no closure per connection): see {@link withConnector}. */
function markIfRead(this: ConnectedSocket, error: Error): void {
  if (this.bytesRead > 0) Object.assign(error, { reusedConnection: true });
}

/** Streams one HTTP/2 connection carries at once: undici's own `maxConcurrentStreams` (a server's lower SETTINGS value holds all the same). */
const H2_STREAMS = 100;

/** What {@link multiplexing} needs of an undici Agent: its `connect` event, with the Client that connected last among the targets. */
interface ConnectEvents {
  on(event: 'connect', listener: (origin: URL, targets: readonly unknown[]) => void): unknown;
}

/**
 * With `client.http2`: lets each connection that ALPN made HTTP/2 carry many requests at once.
 * undici's Client bounds the requests in flight on a connection by `pipelining` (1 unless set)
 * whatever its protocol (nodejs/undici#4143), so a session would carry one at a time and a
 * stalled response would hold the next request back; an HTTP/1.1 connection keeps the Agent's
 * own setting (`0` with keepAlive off). Set as each connection is made, before it sends.
 */
export function multiplexing(agent: ConnectEvents, agentOptions: Record<string, unknown>, versions: Versions): void {
  const http1 = (agentOptions.pipelining as number | undefined) ?? 1;
  agent.on('connect', (origin, targets) => {
    const client = targets[targets.length - 1] as { pipelining: number };
    client.pipelining = versions.byOrigin.get(keyOf(origin.protocol, origin.hostname, origin.port)) === '2.0' ? H2_STREAMS : http1;
  });
}
