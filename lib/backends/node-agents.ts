import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { DEFAULT_IDLE_MS, type ConnectionOptions, type TransportOptions } from '../model/backend.js';
import { AGENT_OPTIONS } from './node-limits.js';
import { answeringAll } from './lookup.js';
import { nodeTls } from './node-tls.js';
import { guardPins, pinsOf, unresumed } from './tls-pins.js';
import { timeAgent } from './node-timings.js';

export { DEFAULT_IDLE_MS } from '../model/backend.js';

/**
 * The keep-alive agent pair of a node-based backend (native, axios, got) for a client's
 * `client.connection` and `execution.tls`: `maxSockets` per origin (node queues the rest in
 * order), `keepAlive`, `socketPath`, `lookup`, `family` and `localAddress` as node's own agent
 * options, and `idleTimeout` for sockets waiting in the pool.
 *
 * @example
 * const { http, https } = nodeAgents({ tls: undefined, connection: { maxSockets: 6 } });
 */
export function nodeAgents(options: TransportOptions): { http: http.Agent; https: https.Agent } {
  const connection = options.connection ?? {};
  const agentOptions = nodeAgentOptions(connection);
  const idleMs = connection.idleTimeout ?? DEFAULT_IDLE_MS;
  return {
    http: keepingLimits(new http.Agent(agentOptions), idleMs),
    https: keepingLimits(pinning(new https.Agent({ ...agentOptions, ...nodeTls(options.tls), ...unresumed(options.tls) }), pinsOf(options.tls)), idleMs),
  };
}

/** `agent` with `execution.tls.pins` checked on each new connection it makes (node's own createConnection returns the socket at once). */
export function pinning<A extends https.Agent>(agent: A, pins: ReadonlySet<string> | undefined): A {
  if (pins === undefined) return agent;
  const create = agent.createConnection.bind(agent) as (options: https.RequestOptions, callback: unknown) => TLSSocket;
  agent.createConnection = (options: https.RequestOptions, callback: unknown) =>
    guardPins(create(options, callback), pins, options.servername || options.host || 'localhost');
  return agent;
}

/** A node Agent's options for `client.connection` (node hands them to every new connection: net.connect / tls.connect). */
export function nodeAgentOptions(connection: ConnectionOptions): http.AgentOptions {
  const options: http.AgentOptions & Record<string, unknown> = { ...AGENT_OPTIONS, keepAlive: connection.keepAlive ?? true };
  if (connection.maxSockets !== undefined) options.maxSockets = connection.maxSockets;
  if (connection.socketPath !== undefined) options.socketPath = connection.socketPath;
  if (connection.lookup !== undefined) options.lookup = answeringAll(connection.lookup);
  if (connection.family !== undefined) options.family = connection.family;
  if (connection.localAddress !== undefined) options.localAddress = connection.localAddress;
  return options;
}

type TimedSocket = Duplex & { timeout?: number; setTimeout(ms: number): void };

/**
 * `agent` with the two lives of its sockets' timeout: the request's stall limit (the agent's
 * `timeout`) while a socket serves one — put back before a socket goes to the next request,
 * whether it waited in the pool or is handed straight to a queued request — and the idle limit
 * while it waits in the pool (node destroys a free socket whose timeout fires; a server's
 * shorter `Keep-Alive: timeout` hint, which node applies, is kept). Closures per agent, none per request.
 */
export function keepingLimits<A extends http.Agent>(agent: A, idleMs: number): A {
  const stallMs = (agent as unknown as { options: { timeout?: number } }).options.timeout ?? 0;
  // before node's own 'free' listener, which may hand the socket to a queued request at once
  agent.prependListener('free', (socket: TimedSocket) => socket.setTimeout(stallMs));
  const keep = agent.keepSocketAlive.bind(agent);
  agent.keepSocketAlive = (socket: TimedSocket) => {
    // node's returns whether it keeps the socket (its types say void)
    const kept = keep(socket) as unknown as boolean;
    const hinted = socket.timeout;
    if (kept) socket.setTimeout(hinted && hinted < stallMs ? Math.min(idleMs, hinted) : idleMs);
    return kept as unknown as void;
  };
  const reuse = agent.reuseSocket.bind(agent);
  agent.reuseSocket = (socket: TimedSocket, request: http.ClientRequest) => {
    reuse(socket, request);
    socket.setTimeout(stallMs);
  };
  return timeAgent(agent);
}
