import type http from 'node:http';
import { BODY_TIMEOUT, CONNECT_TIMEOUT, HEADERS_TIMEOUT, type WireRequest } from '../model/backend.js';

/**
 * The transport's limits on a node `ClientRequest`, shared by the node-based backends (native,
 * axios, got): the connect timeout, and the stall limits for the response headers and body.
 */
export function limitRequest(req: http.ClientRequest, wire: Pick<WireRequest, 'connectTimeout' | 'headersTimeout' | 'bodyTimeout'>): void {
  limitConnect(req, wire.connectTimeout);
  limitStall(req, wire.headersTimeout, wire.bodyTimeout);
}

/**
 * Destroys `req` when its new connection (TLS handshake included) is not established within
 * `ms`. A reused keep-alive connection is established already: no timer.
 */
function limitConnect(req: http.ClientRequest, ms: number | undefined): void {
  if (!ms) return;
  req.once('socket', (socket) => {
    if (req.reusedSocket) return;
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
function limitStall(req: Limited, headersMs: number | undefined, bodyMs: number | undefined): void {
  if (!headersMs && !bodyMs) return;
  req[HEADERS_MS] = headersMs;
  req[BODY_MS] = bodyMs;
  req.once('timeout', onStall);
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
  if (req[HEADERS_MS] && !req.destroyed) req.setTimeout(req[HEADERS_MS]);
}

function armBody(this: Limited): void {
  this.setTimeout(this[BODY_MS] ?? 0);
}

function onStall(this: Limited): void {
  const res = (this as { res?: http.IncomingMessage & { [STALLED]?: Error } }).res;
  if (!res) {
    this.destroy(Object.assign(new Error(`no response headers arrived within ${this[HEADERS_MS]} ms`), { code: HEADERS_TIMEOUT }));
    return;
  }
  // the body fails, not the request (the pipeline reads it as a read timeout); kept on the response
  // for a transport that reports the destroyed body as a reset of its own (got)
  const error = Object.assign(new Error(`no more of the response body arrived within ${this[BODY_MS]} ms`), { code: BODY_TIMEOUT });
  res[STALLED] = error;
  res.destroy(error);
}

/** The error a response's body failed with when its stall limit expired, if it did. */
export function stallOf(res: http.IncomingMessage): Error | undefined {
  return (res as { [STALLED]?: Error })[STALLED];
}
