import type http from 'node:http';
import type { Socket } from 'node:net';
import type { TimingsRecorder } from '../core/timings.js';

// The instants of an attempt on a node `ClientRequest` (native, axios, got over HTTP/1.1), from
// the request's and its socket's events, as got's http-timer reads them. The recorder travels on
// the request: one shared listener per event, no closure per request, except for the events of a
// new connection (rare with keep-alive).

const TIMINGS = Symbol('timings');
type Timed = http.ClientRequest & { [TIMINGS]: TimingsRecorder };

/** Stamps `timings` as `req` gets its socket, connects, writes the request and gets the response head. */
export function timeRequest(req: http.ClientRequest, timings: TimingsRecorder | undefined): void {
  if (timings === undefined) return;
  (req as Timed)[TIMINGS] = timings;
  req.prependOnceListener('socket', onSocket);
  req.prependOnceListener('response', onResponse);
}

function onSocket(this: Timed, socket: Socket): void {
  const timings = this[TIMINGS];
  timings.socket = performance.now();
  if (this.writableFinished) timings.upload = timings.socket;
  else this.prependOnceListener('finish', onUploaded);
  // a kept-alive socket, or one handed over connected: no lookup, connect or handshake to time
  if (!socket.connecting) return;
  socket.prependOnceListener('lookup', () => void (timings.lookup = performance.now()));
  socket.prependOnceListener('connect', () => {
    timings.connect = performance.now();
    timings.lookup ??= timings.socket; // an IP literal: no lookup was made
  });
  if ('encrypted' in socket) socket.prependOnceListener('secureConnect', () => void (timings.secureConnect = performance.now()));
}

function onUploaded(this: Timed): void {
  this[TIMINGS].upload = performance.now();
}

function onResponse(this: Timed): void {
  this[TIMINGS].response = performance.now();
}
