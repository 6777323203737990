import type http from 'node:http';
import { DEFAULT_STALL_MS } from '../config/execution-options.js';
import { BODY_TIMEOUT, CONNECT_TIMEOUT, HEADERS_TIMEOUT, type WireRequest } from '../model/backend.js';
import { timeRequest } from './node-timings.js';

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
  const headersMs = wire.headersTimeout ?? 0;
  const bodyMs = wire.bodyTimeout ?? 0;
  // the usual case: both limits are the agent's own socket timeout (agentOptions), which node
  // arms per socket: one listener is all a request needs. axios resets the socket's timeout to
  // 0 for each request: there it is armed per request.
  const agentMs = (req as { agent?: { options?: { timeout?: number } } }).agent?.options?.timeout ?? 0;
  if (headersMs === agentMs && bodyMs === agentMs && !resetsTimeout) {
    // `on`, not `once` (no wrapper per request): onStall ends the request
    if (agentMs) req.on('timeout', onStall);
  } else limitStall(req, headersMs, bodyMs);
}

/** Options of a node Agent the library makes: keep-alive, and the default stall limit as the socket timeout. */
export const AGENT_OPTIONS = { keepAlive: true, timeout: DEFAULT_STALL_MS } as const;

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
const STALLED = Symbol('stalled');
type Limited = http.ClientRequest & { [HEADERS_MS]?: number; [BODY_MS]?: number };

/**
 * The socket's inactivity timer: until the response headers, `headersMs`; then `bodyMs` for
 * the body. Node re-arms it on every byte and hands the socket back to its agent without it.
 */
function limitStall(req: Limited, headersMs: number, bodyMs: number): void {
  req[HEADERS_MS] = headersMs;
  req[BODY_MS] = bodyMs;
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
  if (!req.destroyed) req.setTimeout(req[HEADERS_MS] ?? 0);
}

function armBody(this: Limited): void {
  this.setTimeout(this[BODY_MS] ?? 0);
}

function onStall(this: Limited): void {
  const res = (this as { res?: http.IncomingMessage & { [STALLED]?: Error } }).res;
  const agentMs = (this as { agent?: { options?: { timeout?: number } } }).agent?.options?.timeout;
  if (!res) {
    this.destroy(Object.assign(new Error(`no response headers arrived within ${this[HEADERS_MS] ?? agentMs} ms`), { code: HEADERS_TIMEOUT }));
    return;
  }
  // the body fails, not the request (the pipeline reads it as a read timeout); kept on the response
  // for a transport that reports the destroyed body as a reset of its own (got)
  const error = Object.assign(new Error(`no more of the response body arrived within ${this[BODY_MS] ?? agentMs} ms`), { code: BODY_TIMEOUT });
  res[STALLED] = error;
  res.destroy(error);
}

/** The error a response's body failed with when its stall limit expired, if it did. */
export function stallOf(res: http.IncomingMessage): Error | undefined {
  return (res as { [STALLED]?: Error })[STALLED];
}
