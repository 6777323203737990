import http from 'node:http';
import https from 'node:https';
import type { Duplex } from 'node:stream';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { DEFAULT_IDLE_MS, type ConnectionOptions, type TransportOptions } from '../model/backend.js';
import { AGENT_OPTIONS, STALL_CLOCK, clockedBy } from './node-limits.js';
import type { StallClock } from './stall-timer.js';
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

type PooledSocket = Duplex & { _httpMessage?: { res?: http.IncomingMessage | null } | null; [IDLE]?: IdleTimer };
type IdleTimer = { timer: ReturnType<typeof setTimeout> | undefined; ms: number };
const IDLE = Symbol('idleTimer');

/**
 * `agent` with the limits of its sockets' two lives: while a socket serves a request, the
 * request's stall limits, which `clock` checks on every socket the agent makes (no socket
 * timeout, nothing armed per request: see {@link StallClock}); while it waits in the pool, the
 * idle limit (a server's shorter `Keep-Alive: timeout` hint, less node's second of margin,
 * wins), one timer per socket made once and refreshed as the socket comes back to the pool, which
 * closes the socket if it is still there when the timer fires. Closures per agent, none per request.
 */
export function keepingLimits<A extends http.Agent>(agent: A, idleMs: number, clock: StallClock = STALL_CLOCK): A {
  const keep = agent.keepSocketAlive.bind(agent);
  agent.keepSocketAlive = (socket: PooledSocket) => {
    const hinted = idleMs && serverHintMs(socket);
    // node's returns whether it keeps the socket (its types say void)
    const kept = keep(socket) as unknown as boolean;
    if (kept) idleFor(socket, hinted && hinted < idleMs ? hinted : idleMs, agent);
    return kept as unknown as void;
  };
  const internal = agent as unknown as {
    createSocket?(req: http.ClientRequest, options: unknown, callback: (error: Error | null, socket?: Duplex) => void): void;
  };
  // an Agent without node's createSocket (another runtime's): the stall limits get a timer per request
  if (typeof internal.createSocket === 'function') {
    const create = internal.createSocket.bind(agent);
    internal.createSocket = (req, options, callback) =>
      create(req, options, (error, socket) => {
        if (socket !== undefined) clock.watch(socket as Socket);
        callback(error, socket);
      });
    clockedBy(agent, clock);
  }
  return timeAgent(agent);
}

/** The idle limit a server's `Keep-Alive: timeout=N` asks for, as node reads it (N s less 1 s), if any. */
function serverHintMs(socket: PooledSocket): number | undefined {
  const hint = socket._httpMessage?.res?.headers['keep-alive'];
  if (typeof hint !== 'string') return undefined;
  // a server says the same on every response: read once
  if (hint !== lastHint.text) lastHint = { text: hint, ms: hintedMs(hint) };
  return lastHint.ms;
}

let lastHint: { readonly text: string; readonly ms: number | undefined } = { text: '', ms: undefined };

function hintedMs(hint: string): number | undefined {
  const seconds = /^timeout=(\d+)/.exec(hint)?.[1];
  return seconds === undefined ? undefined : Number(seconds) * 1000 - 1000;
}

/** (Re)starts the idle timer of `socket`, which has just come back to `agent`'s pool; 0: none. */
function idleFor(socket: PooledSocket, ms: number, agent: http.Agent): void {
  let idle = socket[IDLE];
  if (idle === undefined) {
    if (ms === 0) return;
    socket.once('close', stopIdle);
    idle = socket[IDLE] = { timer: undefined, ms: 0 };
  }
  if (idle.timer !== undefined && idle.ms === ms) {
    idle.timer.refresh();
    return;
  }
  clearTimeout(idle.timer);
  idle.ms = ms;
  idle.timer = ms > 0 ? setTimeout(closeIfIdle, ms, socket, agent).unref() : undefined;
}

/** The idle timer fired: a socket still in the pool closes (node takes it out on 'close'); one serving a request stays. */
function closeIfIdle(socket: PooledSocket, agent: http.Agent): void {
  for (const name in agent.freeSockets) if (agent.freeSockets[name]?.includes(socket as Socket)) return void socket.destroy();
}

function stopIdle(this: PooledSocket): void {
  const idle = this[IDLE];
  if (idle === undefined) return;
  clearTimeout(idle.timer);
  idle.timer = undefined;
}
