import type http from 'node:http';
import { BODY_TIMEOUT, CONNECT_TIMEOUT, HEADERS_TIMEOUT, type WireRequest } from '../model/backend.js';
import { timeRequest } from './node-timings.js';
import { StallClock } from './stall-timer.js';

/**
 * The transport's limits on a node `ClientRequest`, shared by the node-based backends (native,
 * axios, got): the connect timeout, and the stall limits for the response headers and body;
 * and the attempt's timings stamped as it goes.
 */
export function limitRequest(
  req: http.ClientRequest,
  wire: Pick<WireRequest, 'connectTimeout' | 'headersTimeout' | 'bodyTimeout' | 'timings'>,
  /** `true` for a transport that sets the socket's timeout itself for each request (axios zeroes it). */
  resetsTimeout = false,
): void {
  timeRequest(req, wire.timings);
  limitConnect(req, wire.connectTimeout);
  const limited = req as Limited;
  const headersMs = (limited[HEADERS_MS] = wire.headersTimeout ?? 0);
  const bodyMs = (limited[BODY_MS] = wire.bodyTimeout ?? 0);
  const clock = (req as { agent?: Clocked }).agent?.[CLOCK];
  if (clock !== undefined) {
    // the library's agents (the usual case): the clock reads the limits off the request on its
    // socket, nothing is armed per request; only a limit too short for it gets a timer of its own
    const headersFine = clock.coarse(headersMs) ? 0 : headersMs;
    const bodyFine = clock.coarse(bodyMs) ? 0 : bodyMs;
    if (headersFine || bodyFine) limitStall(limited, headersFine, bodyFine);
    return;
  }
  // another agent (a got instance's own): its socket timeout, when it has the limits, or one per request
  const agentMs = (req as { agent?: { options?: { timeout?: number } } }).agent?.options?.timeout ?? 0;
  if (headersMs === agentMs && bodyMs === agentMs && !resetsTimeout) {
    // `on`, not `once` (no wrapper per request): onStall ends the request
    if (agentMs) req.on('timeout', onStall);
  } else limitStall(limited, headersMs, bodyMs);
}

/** Options of a node Agent the library makes: keep-alive; the stall limits are {@link STALL_CLOCK}'s, not a socket timeout. */
export const AGENT_OPTIONS = { keepAlive: true } as const;

/** Where an agent whose sockets {@link STALL_CLOCK} (or a test's clock) watches says so. */
export const CLOCK = Symbol('stallClock');
type Clocked = { [CLOCK]?: StallClock };

/** Marks `agent` as one whose every socket `clock` watches (the caller watches them as they are made). */
export function clockedBy(agent: object, clock: StallClock): void {
  (agent as Clocked)[CLOCK] = clock;
}

/** Whether `socket` is connected already (TLS: its handshake done; node sets `alpnProtocol` then, `null` before). */
function established(socket: { connecting?: boolean; encrypted?: boolean; alpnProtocol?: unknown }): boolean {
  if (socket.connecting) return false;
  return socket.encrypted ? socket.alpnProtocol !== null && socket.alpnProtocol !== undefined : true;
}

/**
 * Destroys `req` when its new connection (TLS handshake included) is not established within
 * `ms`. A reused keep-alive connection is established already: no timer.
 */
function limitConnect(req: http.ClientRequest, ms: number | undefined): void {
  if (!ms) return;
  req.once('socket', (socket) => {
    // a kept-alive socket, or one handed over connected to a request that waited (maxSockets): nothing to time
    if (req.reusedSocket || established(socket)) return;
    const event = 'encrypted' in socket ? 'secureConnect' : 'connect';
    const timer = setTimeout(() => {
      req.destroy(Object.assign(new Error(`the connection was not established within ${ms} ms`), { code: CONNECT_TIMEOUT }));
    }, ms);
    const clear = () => clearTimeout(timer);
    socket.once(event, clear);
    socket.once('close', clear);
  });
}

// The limits travel on the request itself: one shared listener each, no closure per request.
const HEADERS_MS = Symbol('headersTimeout');
const BODY_MS = Symbol('bodyTimeout');
const ARM_HEADERS = Symbol('armHeaders');
const ARM_BODY = Symbol('armBody');
const STALLED = Symbol('stalled');
type Limited = http.ClientRequest & {
  res?: http.IncomingMessage | null;
  [HEADERS_MS]?: number;
  [BODY_MS]?: number;
  [ARM_HEADERS]?: number;
  [ARM_BODY]?: number;
};

/**
 * The socket's inactivity timer: until the response headers, `headersMs`; then `bodyMs` for
 * the body (0: none, which also switches off a socket timeout of the agent's). Node re-arms it
 * on every byte and hands the socket back to its agent without it.
 */
function limitStall(req: Limited, headersMs: number, bodyMs: number): void {
  req[ARM_HEADERS] = headersMs;
  req[ARM_BODY] = bodyMs;
  req.on('timeout', onStall);
  req.once('socket', armHeadersSoon);
  if (headersMs !== bodyMs) req.once('response', armBody);
}

/**
 * Armed a tick after the socket is there: axios resets the timeout to 0 with a 'socket' listener
 * of its own, added after ours.
 */
function armHeadersSoon(this: Limited): void {
  process.nextTick(armHeaders, this);
}

function armHeaders(req: Limited): void {
  // 0 too: it switches off an agent's socket timeout for this request
  if (!req.destroyed) req.setTimeout(req[ARM_HEADERS] ?? 0);
}

function armBody(this: Limited): void {
  this.setTimeout(this[ARM_BODY] ?? 0);
}

function onStall(this: Limited): void {
  const res = this.res;
  const agentMs = (this as { agent?: { options?: { timeout?: number } } }).agent?.options?.timeout ?? 0;
  expire(this, (res ? this[BODY_MS] : this[HEADERS_MS]) || agentMs);
}

/** The stall limit of the phase `request` is in, as {@link STALL_CLOCK} reads it (0: none). */
function limitOf(request: object): number {
  const req = request as Limited;
  return (req.res ? req[BODY_MS] : req[HEADERS_MS]) ?? 0;
}

/**
 * Ends `request`, silent for `ms`: before the response headers the request fails; after them its
 * body does (the pipeline reads it as a read timeout), the error kept on the response for a
 * transport that reports the destroyed body as a reset of its own (got).
 */
function expire(request: object, ms: number): void {
  const req = request as Limited;
  const res = req.res as (http.IncomingMessage & { [STALLED]?: Error }) | null;
  if (!res) {
    req.destroy(Object.assign(new Error(`no response headers arrived within ${ms} ms`), { code: HEADERS_TIMEOUT }));
    return;
  }
  const error = Object.assign(new Error(`no more of the response body arrived within ${ms} ms`), { code: BODY_TIMEOUT });
  res[STALLED] = error;
  res.destroy(error);
}

/** How often {@link STALL_CLOCK} reads its sockets: limits of 1 s and more are its, reported at most 0.5 s late. */
export const STALL_TICK_MS = 250;

/** The clock of the stall limits of every connection of the library's node agents ({@link StallClock}). */
export const STALL_CLOCK = new StallClock(STALL_TICK_MS, limitOf, expire);

/** A clock of its own for `limitRequest`'s requests (tests: a finer tick). */
export function stallClock(tickMs: number): StallClock {
  return new StallClock(tickMs, limitOf, expire);
}

/** The error a response's body failed with when its stall limit expired, if it did. */
export function stallOf(res: http.IncomingMessage): Error | undefined {
  return (res as { [STALLED]?: Error })[STALLED];
}
