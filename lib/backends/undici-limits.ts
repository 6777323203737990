import type { TransportOptions, WireRequest } from '../model/backend.js';

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
    ...options.tls,
    timeout: connectTimeout,
    ...(socketPath !== undefined && { socketPath }),
    ...(lookup && { lookup }),
    ...(family && { family }),
  };
  // a server's Keep-Alive hint may shorten the idle time, never lengthen it past ours
  const idle = connection.idleTimeout ?? 4000;
  const agent: Record<string, unknown> = { connect, keepAliveTimeout: idle, keepAliveMaxTimeout: idle };
  if (connection.maxSockets !== undefined && connection.maxSockets !== Infinity) agent.connections = connection.maxSockets;
  if (connection.keepAlive === false) agent.pipelining = 0;
  if (localAddress !== undefined) agent.localAddress = localAddress;
  if (headersTimeout !== undefined) agent.headersTimeout = headersTimeout;
  if (bodyTimeout !== undefined) agent.bodyTimeout = bodyTimeout;
  return agent;
}
