import http2 from 'node:http2';
import { isIP } from 'node:net';
import tls from 'node:tls';
import type { Readable } from 'node:stream';
import {
  BODY_TIMEOUT,
  CONNECT_TIMEOUT,
  HEADERS_TIMEOUT,
  inMemory,
  utf8TextOf,
  type TransportOptions,
  type WireRequest,
  type WireResponse,
} from '../model/backend.js';
import { TimeoutError } from '../core/errors.js';
import { targetAuthority } from '../model/proxy-route.js';
import { endOnlyAtEndStream } from './h2-stream-end.js';
import { answeringAll } from './lookup.js';
import { DEFAULT_IDLE_MS } from './node-agents.js';
import { nodeTls } from './node-tls.js';
import { pinFailure, pinsOf } from './tls-pins.js';
import { unbracketed } from './proxy-tunnel.js';
import { timeStream, watchConnection, type ConnectionInstants } from './node-timings.js';

/** Headers HTTP/2 forbids (RFC 9113 §8.2.2), lower case: the connection is the session's, not a request's (`Host` becomes `:authority`). */
export const CONNECTION_SPECIFIC: ReadonlySet<string> = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

/** The client's SETTINGS: no server push, as undici and http2-wrapper send. */
const NO_PUSH: http2.Settings = { enablePush: false };

/** Where a session keeps the instants of its connection being made, for the attempts that waited for it. */
const MADE = Symbol('made');

/** A session, or `'1.1'` for an origin whose server picked HTTP/1.1 in ALPN. */
type Choice = (http2.ClientHttp2Session & { [MADE]?: ConnectionInstants }) | '1.1';

/**
 * The native backend's HTTP/2 (`client.http2`): per https origin, one TLS connection offering
 * ALPN `h2, http/1.1`. Where the server picks h2, a `node:http2` session carries every request
 * to that origin, multiplexed, and is closed when idle (`client.connection.idleTimeout`) or with
 * the client; where it picks HTTP/1.1, the origin is remembered and its requests go the usual
 * way (`sendH1`).
 */
export class Http2Pool {
  readonly #options: TransportOptions;
  readonly #sessions = new Map<string, Choice | Promise<Choice>>();
  #closed = false;

  constructor(options: TransportOptions) {
    this.#options = options;
  }

  send(request: WireRequest, sendH1: (request: WireRequest) => Promise<WireResponse>): Promise<WireResponse> {
    const origin = `${request.hostname}:${request.port}`;
    let known = this.#sessions.get(origin);
    // one retired (a stream of it timed out) or closing: its open streams finish, new ones go to a new session
    if (known === undefined || (typeof known === 'object' && !(known instanceof Promise) && known.closed)) known = this.#open(origin, request);
    if (known === '1.1') return sendH1(request);
    if (!(known instanceof Promise)) return exchange(known, request);
    return known.then((choice) => (choice === '1.1' ? sendH1(request) : exchange(choice, request)));
  }

  close(): void {
    this.#closed = true;
    for (const choice of this.#sessions.values()) {
      if (choice instanceof Promise) void choice.then(closeSession, () => {});
      else closeSession(choice);
    }
    this.#sessions.clear();
  }

  #open(origin: string, request: WireRequest): Promise<Choice> {
    const opening = negotiate(request, this.#options).then(
      (choice) => {
        if (this.#closed) {
          closeSession(choice);
          throw new Error('the client was closed while an HTTP/2 connection was being made');
        }
        this.#sessions.set(origin, choice);
        if (choice !== '1.1') {
          // a session that ends (GOAWAY, idle, error) makes room for a new one
          const forget = () => {
            if (this.#sessions.get(origin) === choice) this.#sessions.delete(origin);
          };
          choice.once('close', forget);
          choice.once('goaway', forget);
          choice.on('error', forget);
          choice.setTimeout(this.#options.connection?.idleTimeout ?? DEFAULT_IDLE_MS, () => choice.close());
        }
        return choice;
      },
      (error: unknown) => {
        this.#sessions.delete(origin);
        throw error;
      },
    );
    this.#sessions.set(origin, opening);
    return opening;
  }
}

/** Ends a session with the client: its streams fail as a cut HTTP/1.1 connection does (a reset). */
function closeSession(choice: Choice): void {
  if (choice !== '1.1') choice.destroy(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
}

/** One TLS connection offering h2 and http/1.1: a session on it when the server picks h2, else `'1.1'` (the connection closed). */
function negotiate(request: WireRequest, options: TransportOptions): Promise<Choice> {
  return new Promise((resolve, reject) => {
    const host = unbracketed(request.hostname);
    const { tls: settings, connection } = options;
    const made: ConnectionInstants = { socket: performance.now() };
    const servername = settings?.servername ?? (isIP(host) ? undefined : host);
    const socket = tls.connect({
      host,
      port: request.port,
      servername,
      ALPNProtocols: ['h2', 'http/1.1'],
      ...nodeTls(settings),
      ...(connection?.lookup && { lookup: answeringAll(connection.lookup) as never }),
      ...(connection?.family && { family: connection.family }),
      ...(connection?.localAddress && { localAddress: connection.localAddress }),
    });
    watchConnection(socket, made);
    const ms = request.connectTimeout;
    const timer = ms
      ? setTimeout(() => socket.destroy(Object.assign(new Error(`the connection was not established within ${ms} ms`), { code: CONNECT_TIMEOUT })), ms)
      : undefined;
    socket.once('error', (error: Error) => {
      clearTimeout(timer);
      reject(error);
    });
    const pins = pinsOf(settings);
    socket.once('secureConnect', () => {
      clearTimeout(timer);
      const failure = pins && pinFailure(socket, pins, servername || host);
      if (failure) return void socket.destroy(failure); // its 'error' rejects
      if (socket.alpnProtocol !== 'h2') {
        socket.destroy();
        resolve('1.1');
        return;
      }
      // push refused (a pushed stream would be one nothing reads and nothing hears fail): nghttp2
      // resets one that comes before the server acknowledged this, and ends the session (its calls
      // reject) for one that comes after
      const session = http2.connect(`https://${targetAuthority(request)}`, { createConnection: () => socket, settings: NO_PUSH });
      session.on('error', () => {}); // each stream reports its own failure
      resolve(Object.assign(session, { [MADE]: made }));
    });
  });
}

/** One request on a session: a stream, its response head, its body. */
function exchange(session: Exclude<Choice, '1.1'>, request: WireRequest): Promise<WireResponse> {
  return new Promise((resolve, reject) => {
    const headers: http2.OutgoingHttpHeaders = {
      ':method': request.method,
      ':path': request.target,
      ':scheme': 'https',
      ':authority': targetAuthority(request),
    };
    for (const name in request.headers) {
      const lower = name.toLowerCase();
      if (lower === 'host') headers[':authority'] = request.headers[name];
      else if (!CONNECTION_SPECIFIC.has(lower)) headers[lower] = request.headers[name];
    }
    const body = request.body;
    let stream: http2.ClientHttp2Stream;
    try {
      stream = session.request(headers, { endStream: body === undefined, signal: request.signal });
    } catch (error) {
      reject(error instanceof Error ? error : new Error(String(error))); // a session that closed meanwhile
      return;
    }
    endOnlyAtEndStream(stream);
    if (request.timings) timeStream(stream, request.timings, session[MADE]);
    let responded = false;
    limitStream(stream, request, () => responded);
    stream.once('error', (error: Error) => {
      if (!responded) reject(error);
    });
    // a stream the server reset with NO_ERROR (or CANCEL) closes without an 'error': without this the call would wait for its timeout
    stream.once('close', () => {
      // a session that let a stream time out may be stuck (nghttp2 wedged by a malformed frame):
      // retired, so later calls to the origin get a new one; its other streams go on
      if (timedOut(stream, request.signal)) session.close();
      if (!responded) reject(Object.assign(new Error(`the server closed the HTTP/2 stream before answering (code ${stream.rstCode})`), { code: 'ECONNRESET' }));
    });
    stream.once('response', (head) => {
      if (request.timings) request.timings.response = performance.now();
      responded = true;
      resolve(h2Response(stream, head));
    });
    if (body === undefined) return;
    if (inMemory(body)) stream.end(utf8TextOf(body) ?? body.bytes);
    else void writeStreamed(stream, body);
  });
}

function timedOut(stream: http2.ClientHttp2Stream, signal: AbortSignal | undefined): boolean {
  const code = (stream.errored as { code?: unknown } | null)?.code;
  return code === HEADERS_TIMEOUT || code === BODY_TIMEOUT || (signal?.aborted === true && signal.reason instanceof TimeoutError);
}

/** The stream's own inactivity timer: the headers' limit until they come, then the body's. */
function limitStream(stream: http2.ClientHttp2Stream, request: WireRequest, responded: () => boolean): void {
  const headersMs = request.headersTimeout ?? 0;
  const bodyMs = request.bodyTimeout ?? 0;
  if (!headersMs && !bodyMs) return;
  stream.setTimeout(headersMs);
  if (headersMs !== bodyMs) stream.once('response', () => stream.setTimeout(bodyMs));
  stream.once('timeout', () => {
    const [ms, code, what] = responded()
      ? [bodyMs, BODY_TIMEOUT, 'no more of the response body arrived']
      : [headersMs, HEADERS_TIMEOUT, 'no response headers arrived'];
    stream.destroy(Object.assign(new Error(`${what} within ${ms} ms`), { code }));
  });
}

async function writeStreamed(stream: http2.ClientHttp2Stream, body: AsyncIterable<Uint8Array>): Promise<void> {
  try {
    for await (const chunk of body) {
      if (!stream.write(chunk)) await new Promise((resolve) => stream.once('drain', resolve));
    }
    stream.end();
  } catch (error) {
    stream.destroy(error as Error);
  }
}

function h2Response(stream: http2.ClientHttp2Stream, head: http2.IncomingHttpHeaders): WireResponse {
  const headers: Array<readonly [string, string]> = [];
  for (const name in head) {
    if (name.startsWith(':')) continue;
    const value = head[name];
    if (Array.isArray(value)) for (const one of value) headers.push([name, one]);
    else if (value !== undefined) headers.push([name, value]);
  }
  const body = stream as Readable;
  body.on('error', () => {}); // a body nobody reads must not crash the process
  return {
    statusCode: Number(head[':status']),
    message: '',
    headers,
    body,
    decoded: false,
    httpVersion: '2.0',
    // a stream of its own: giving it up cancels it, the connection stays
    discard: () => {
      if (!body.readableEnded) stream.close(http2.constants.NGHTTP2_CANCEL);
    },
  };
}
