import type http from 'node:http';
import type { ClientHttp2Stream } from 'node:http2';
import type { TLSSocket } from 'node:tls';
import type { TimingsRecorder } from '../core/timings.js';
import { stampConnection, timeRequest, watchConnection, type ConnectionInstants } from './node-timings.js';

// The instants of got's HTTP/2 attempts (http2-wrapper): each connection the agent or its ALPN
// probe makes is timed and keeps its instants, which the attempts that waited for it take from
// their stream's session; per request, the socket (the stream made), upload and response head
// come from http2-wrapper's ClientRequest events, one shared listener each.

const MADE = Symbol('made');
const TIMINGS = Symbol('timings');

/** http2-wrapper's ClientRequest, with what this file reads. */
type Http2Request = http.ClientRequest & { _request?: ClientHttp2Stream; [TIMINGS]: TimingsRecorder };

/** The socket `connect` makes (at once, or as a promise), its lookup, connect and TLS instants stamped and kept on it. */
export function timedConnection<S extends TLSSocket | Promise<TLSSocket>>(connect: () => S): S {
  const made: ConnectionInstants = { socket: performance.now() };
  const keep = (socket: TLSSocket) => {
    watchConnection(socket, made);
    return Object.assign(socket, { [MADE]: made });
  };
  const socket = connect();
  // http2-wrapper's createConnection is async: its socket comes a microtask later, before any of its events
  return (socket instanceof Promise ? socket.then(keep) : keep(socket)) as S;
}

/**
 * Stamps `timings` as got's HTTP/2 request goes: http2-wrapper's ClientRequest (an h2 stream),
 * or node's when ALPN picked HTTP/1.1 (on the probe's socket, connected already).
 */
export function timeHttp2Request(req: unknown, timings: TimingsRecorder | undefined): void {
  if (timings === undefined || typeof (req as Partial<http.ClientRequest>).once !== 'function') return;
  if (!('_mustNotHaveABody' in (req as object))) return timeRequest(req as http.ClientRequest, timings);
  const request = req as Http2Request;
  request[TIMINGS] = timings;
  request.prependOnceListener('socket', onStream);
  request.prependOnceListener('finish', onUploaded);
  request.prependOnceListener('response', onResponse);
}

function onStream(this: Http2Request): void {
  const socket = this._request?.session?.socket as { [MADE]?: ConnectionInstants } | undefined;
  stampConnection(this[TIMINGS], socket?.[MADE]);
}

function onUploaded(this: Http2Request): void {
  this[TIMINGS].upload = performance.now();
}

function onResponse(this: Http2Request): void {
  this[TIMINGS].response = performance.now();
}
