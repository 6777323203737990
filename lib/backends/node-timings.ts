import type http from 'node:http';
import type { Socket } from 'node:net';
import type { Writable } from 'node:stream';
import type { TimingsRecorder } from '../core/timings.js';

// The instants of an attempt on a node `ClientRequest` (native, axios, got over HTTP/1.1), from
// the request's and its socket's events, as got's http-timer reads them. The recorder travels on
// the request: one shared listener per event, no closure per request, except for the events of a
// new connection (rare with keep-alive).

const TIMINGS = Symbol('timings');
type Timed = http.ClientRequest & { [TIMINGS]: TimingsRecorder };

/** The instants of a connection being made: `socket` when it was begun, the rest as they come. */
export interface ConnectionInstants {
  socket?: number;
  lookup?: number;
  connect?: number;
  secureConnect?: number;
}

/**
 * Stamps on `instants` when `socket`, a connection being made, resolves its host, connects and
 * (TLS) finishes its handshake. An IP literal makes no lookup: its `lookup` is its `socket`.
 * Shared by every node transport (node:http, undici's connector, HTTP/2 sessions).
 */
export function watchConnection(socket: Socket, instants: ConnectionInstants): void {
  socket.prependOnceListener('lookup', () => void (instants.lookup = performance.now()));
  socket.prependOnceListener('connect', () => {
    instants.connect = performance.now();
    instants.lookup ??= instants.socket; // an IP literal: no lookup was made
  });
  if ('encrypted' in socket) socket.prependOnceListener('secureConnect', () => void (instants.secureConnect = performance.now()));
}

/**
 * The connection instants `made` on an attempt's `timings` when the connection was begun for it
 * (not before the attempt started: one made earlier is, to this attempt, a connection it found),
 * else `socket` only, now. Returns whether they were taken.
 */
export function stampConnection(timings: TimingsRecorder, made: ConnectionInstants | undefined): boolean {
  if (made?.socket === undefined || made.socket < (timings.start ?? -Infinity)) {
    timings.socket = performance.now();
    return false;
  }
  timings.socket = made.socket;
  timings.lookup = made.lookup;
  timings.connect = made.connect;
  timings.secureConnect = made.secureConnect;
  return true;
}

const STREAM_TIMINGS = Symbol('timings');
type TimedStream = Writable & { [STREAM_TIMINGS]: TimingsRecorder };

/**
 * Stamps `timings` for a request whose HTTP/2 stream was just made on a session: its socket now
 * (or the session's connection, `made`, when that was made for it), its upload when the stream
 * has written everything. The response head is the caller's to stamp.
 */
export function timeStream(stream: Writable, timings: TimingsRecorder, made: ConnectionInstants | undefined): void {
  stampConnection(timings, made);
  if (stream.writableFinished) timings.upload = performance.now();
  else {
    (stream as TimedStream)[STREAM_TIMINGS] = timings;
    stream.prependOnceListener('finish', onStreamWritten);
  }
}

function onStreamWritten(this: TimedStream): void {
  this[STREAM_TIMINGS].upload = performance.now();
}

/**
 * Stamps `timings` as `req` gets its socket, connects and writes the request; the response head
 * is stamped by the pipeline as it takes it (a few microtasks later). `on`, not `once`: each
 * event comes once per request, and `once` makes a wrapper per request.
 */
export function timeRequest(req: http.ClientRequest, timings: TimingsRecorder | undefined): void {
  if (timings === undefined) return;
  (req as Timed)[TIMINGS] = timings;
  req.on('socket', onSocket);
}

function onSocket(this: Timed, socket: Socket): void {
  const timings = this[TIMINGS];
  timings.socket = performance.now();
  if (this.writableFinished) timings.upload = timings.socket;
  else this.on('finish', onUploaded);
  // a kept-alive socket, or one handed over connected: no lookup, connect or handshake to time
  if (socket.connecting) watchConnection(socket, timings);
}

function onUploaded(this: Timed): void {
  this[TIMINGS].upload = performance.now();
}
