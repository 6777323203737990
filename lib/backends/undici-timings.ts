import type { Socket } from 'node:net';
import type { TimingsRecorder } from '../core/timings.js';
import { stampConnection, watchConnection, type ConnectionInstants } from './node-timings.js';

// undici's handlers are never told which socket a request goes on. But undici writes the
// requests that waited for a new connection synchronously inside its connector's callback
// (client.js connect() → kResume → writeH1/writeH2 → handler.onConnect): the instants of the
// connection whose callback is running are those of the requests that get onConnect meanwhile.
// One module variable, set only during that callback: no per-request cost, no diagnostics_channel.

/** The connection whose connector callback is running, if any. */
let fresh: ConnectionInstants | undefined;

/** What undici's `buildConnector` makes: a socket, returned at once and handed to `callback` once connected. */
export type Connector = (options: never, callback: (error: Error | null, socket: unknown) => void) => unknown;

/**
 * `connector` with the instants of each connection it makes stamped (begun, lookup, connect,
 * TLS) and made known to the handlers undici calls while it hands the socket over.
 */
export function timedConnector<C extends Connector>(connector: C): C {
  return ((options: never, callback: (error: Error | null, socket: unknown) => void) => {
    const made: ConnectionInstants = { socket: performance.now() };
    const socket = connector(options, (error, connected) => {
      if (error !== null) return callback(error, connected);
      fresh = made;
      try {
        callback(error, connected);
      } finally {
        fresh = undefined;
      }
    }) as Socket | undefined;
    if (socket && typeof socket.prependOnceListener === 'function') watchConnection(socket, made);
    return socket;
  }) as C;
}

/** An undici handler's onConnect: the request is about to be written, on a new connection or a kept one. */
export function requestStarts(timings: TimingsRecorder | undefined): void {
  if (timings !== undefined) stampConnection(timings, fresh);
}

/**
 * An undici dispatch handler (the older API, which fetch's is) whose attempt is timed: socket
 * and connection on onConnect, upload on onRequestSent, response on the first final head. Made
 * for fetch, whose handler is undici's own; the undici backend's handler stamps its instants itself.
 */
export class TimedHandler {
  constructor(
    private readonly inner: UndiciHandler,
    private readonly timings: TimingsRecorder,
  ) {}

  onConnect(abort: (reason?: Error) => void, context?: unknown): void {
    requestStarts(this.timings);
    return this.inner.onConnect(abort, context);
  }

  onRequestSent(): void {
    this.timings.upload = performance.now();
    return this.inner.onRequestSent?.();
  }

  onBodySent(chunk: unknown): void {
    return this.inner.onBodySent?.(chunk);
  }

  onResponseStarted(): void {
    return this.inner.onResponseStarted?.();
  }

  onHeaders(statusCode: number, rawHeaders: unknown, resume: () => void, statusText: string): boolean {
    if (statusCode >= 200) this.timings.response ??= performance.now();
    return this.inner.onHeaders(statusCode, rawHeaders, resume, statusText);
  }

  onData(chunk: unknown): boolean {
    return this.inner.onData(chunk);
  }

  onComplete(trailers: unknown): void {
    return this.inner.onComplete(trailers);
  }

  onError(error: Error): void {
    return this.inner.onError(error);
  }

  onUpgrade(statusCode: number, rawHeaders: unknown, socket: unknown): void {
    return this.inner.onUpgrade?.(statusCode, rawHeaders, socket);
  }
}

/** An undici handler of the older API, as far as {@link TimedHandler} calls it. */
interface UndiciHandler {
  onConnect(abort: (reason?: Error) => void, context?: unknown): void;
  onRequestSent?(): void;
  onBodySent?(chunk: unknown): void;
  onResponseStarted?(): void;
  onHeaders(statusCode: number, rawHeaders: unknown, resume: () => void, statusText: string): boolean;
  onData(chunk: unknown): boolean;
  onComplete(trailers: unknown): void;
  onError(error: Error): void;
  onUpgrade?(statusCode: number, rawHeaders: unknown, socket: unknown): void;
}

/** What fetch needs of a dispatcher: `dispatch` (and the backend's `destroy`). */
interface Dispatching {
  dispatch(options: object, handler: UndiciHandler): boolean;
  destroy(): Promise<void>;
}

/**
 * `dispatcher` for one fetch attempt: its handler timed on `timings`, and `limits` (undici's
 * headers and body timeouts) on its dispatch options when given. One small object per attempt
 * (fetch's own handler is made inside undici, out of the backend's reach); not by undici's
 * `compose`, whose interceptors hand the handler on without `onRequestSent`.
 */
export function attemptDispatcher<D>(dispatcher: D, timings: TimingsRecorder | undefined, limits?: DispatchLimits): D {
  if (timings === undefined && limits === undefined) return dispatcher;
  return new AttemptDispatcher(dispatcher as unknown as Dispatching, timings, limits) as unknown as D;
}

/** undici's per-dispatch timeouts. */
export interface DispatchLimits {
  readonly headersTimeout: number;
  readonly bodyTimeout: number;
}

class AttemptDispatcher implements Dispatching {
  constructor(
    private readonly base: Dispatching,
    private readonly timings: TimingsRecorder | undefined,
    private readonly limits: DispatchLimits | undefined,
  ) {}

  dispatch(options: object, handler: UndiciHandler): boolean {
    return this.base.dispatch(this.limits ? { ...options, ...this.limits } : options, this.timings ? new TimedHandler(handler, this.timings) : handler);
  }

  destroy(): Promise<void> {
    return this.base.destroy();
  }
}
