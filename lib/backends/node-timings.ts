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

/** Marks an agent that stamps its requests' sockets itself ({@link timeAgent}). */
const TIMED_AGENT = Symbol('timedAgent');

/**
 * Stamps `timings` as `req` gets its socket, connects and writes the request; the response head
 * is stamped by the pipeline as it takes it (a few microtasks later). On the library's own
 * agents ({@link timeAgent}) the agent stamps the socket; a 'socket' listener per request
 * measured several per cent of a native GET, so only another agent (an axios or got instance
 * of the caller's) gets one.
 */
export function timeRequest(req: http.ClientRequest, timings: TimingsRecorder | undefined): void {
  if (timings === undefined) return;
  const timed = req as Timed & Early;
  timed[TIMINGS] = timings;
  // node's agent hands a socket out inside http.request(), before the request comes here
  if (timed[EARLY_SOCKET] !== undefined) socketFor(timed, timed[EARLY_SOCKET], timed[EARLY_AT]);
  else if ((req as { agent?: { [TIMED_AGENT]?: true } }).agent?.[TIMED_AGENT] !== true) req.on('socket', onSocket);
}

/** Where an agent leaves the socket it gave a request not timed yet, and when. */
const EARLY_SOCKET = Symbol('earlySocket');
const EARLY_AT = Symbol('earlyAt');
type Early = { [EARLY_SOCKET]?: Socket; [EARLY_AT]?: number };

/**
 * `agent` stamping the timings of the requests it gives a socket: a kept-alive one when node
 * reuses it (`reuseSocket`), a new one as it is created (`createSocket`), its connection as it
 * is made. Closures per agent and per new connection, none per request.
 */
export function timeAgent<A extends http.Agent>(agent: A): A {
  const internal = agent as unknown as {
    createSocket(req: http.ClientRequest, options: unknown, callback: (error: Error | null, socket?: Socket) => void): void;
    [TIMED_AGENT]?: true;
  };
  const reuse = agent.reuseSocket.bind(agent);
  agent.reuseSocket = (socket: Socket, req: http.ClientRequest) => {
    reuse(socket, req);
    given(req, socket);
  };
  // an Agent without node's createSocket (another runtime's): its requests get a 'socket' listener instead
  if (typeof internal.createSocket !== 'function') return agent;
  const create = internal.createSocket.bind(agent);
  internal.createSocket = (req, options, callback) =>
    create(req, options, (error, socket) => {
      if (socket !== undefined) given(req, socket);
      callback(error, socket);
    });
  internal[TIMED_AGENT] = true;
  return agent;
}

/** A socket an agent gave `req`: stamped now, or kept for {@link timeRequest} when the request is not timed yet. */
function given(req: http.ClientRequest, socket: Socket): void {
  const timed = req as Partial<Timed> & Early;
  if (timed[TIMINGS] !== undefined) return socketFor(timed as Timed, socket);
  timed[EARLY_SOCKET] = socket;
  timed[EARLY_AT] = performance.now();
}

function onSocket(this: Timed, socket: Socket): void {
  socketFor(this, socket);
}

function socketFor(req: Timed, socket: Socket, at = performance.now()): void {
  const timings = req[TIMINGS];
  if (timings.socket !== undefined) return;
  timings.socket = at;
  if (req.writableFinished) timings.upload = timings.socket;
  else req.on('finish', onUploaded);
  // a kept-alive socket, or one handed over connected: no lookup, connect or handshake to time
  if (socket.connecting) watchConnection(socket, timings);
}

function onUploaded(this: Timed): void {
  this[TIMINGS].upload = performance.now();
}
