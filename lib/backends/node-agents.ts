import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import type { ConnectionOptions, TransportOptions } from '../model/backend.js';
import { AGENT_OPTIONS } from './node-limits.js';
import { agentTls } from './node-response.js';

/** How long an idle kept-alive connection stays open unless `client.connection.idleTimeout` says (undici's default too). */
export const DEFAULT_IDLE_MS = 4000;

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
  const agentOptions = agentOptionsOf(connection);
  const idleMs = connection.idleTimeout ?? DEFAULT_IDLE_MS;
  return { http: new IdleHttpAgent(agentOptions, idleMs), https: new IdleHttpsAgent({ ...agentOptions, ...agentTls(options.tls) }, idleMs) };
}

function agentOptionsOf(connection: ConnectionOptions): http.AgentOptions {
  const options: http.AgentOptions & Record<string, unknown> = { ...AGENT_OPTIONS, keepAlive: connection.keepAlive ?? true };
  if (connection.maxSockets !== undefined) options.maxSockets = connection.maxSockets;
  // node hands an agent's options to every new connection (net.connect / tls.connect)
  if (connection.socketPath !== undefined) options.socketPath = connection.socketPath;
  if (connection.lookup !== undefined) options.lookup = connection.lookup;
  if (connection.family !== undefined) options.family = connection.family;
  if (connection.localAddress !== undefined) options.localAddress = connection.localAddress;
  return options;
}

/**
 * The socket timeout of an agent's connection is the request's stall limit while it serves one
 * (the agent's `timeout`), and the idle limit while it waits in the pool: node destroys a free
 * socket whose timeout fires.
 */
class IdleHttpAgent extends http.Agent {
  constructor(
    options: http.AgentOptions,
    private readonly idleMs: number,
  ) {
    super(options);
  }

  override keepSocketAlive(socket: Duplex): boolean {
    // node's returns whether it keeps the socket (its types say void)
    return keepIdle(super.keepSocketAlive(socket) as unknown as boolean, socket, this.idleMs);
  }

  override reuseSocket(socket: Duplex, request: http.ClientRequest): void {
    super.reuseSocket(socket, request);
    serveAgain(socket, AGENT_OPTIONS.timeout);
  }
}

class IdleHttpsAgent extends https.Agent {
  constructor(
    options: https.AgentOptions,
    private readonly idleMs: number,
  ) {
    super(options);
  }

  override keepSocketAlive(socket: Duplex): boolean {
    // node's returns whether it keeps the socket (its types say void)
    return keepIdle(super.keepSocketAlive(socket) as unknown as boolean, socket, this.idleMs);
  }

  override reuseSocket(socket: Duplex, request: http.ClientRequest): void {
    super.reuseSocket(socket, request);
    serveAgain(socket, AGENT_OPTIONS.timeout);
  }
}

function keepIdle(kept: boolean, socket: Duplex, idleMs: number): boolean {
  if (kept) (socket as Duplex & { setTimeout(ms: number): void }).setTimeout(idleMs);
  return kept;
}

function serveAgain(socket: Duplex, stallMs: number | undefined): void {
  (socket as Duplex & { setTimeout(ms: number): void }).setTimeout(stallMs ?? 0);
}
