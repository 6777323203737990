import type { EventStreamState, ServerSentEvent } from './content/event-stream.js';
import { isMultipart } from './content/multipart-brand.js';
import { AbortError, ConfigError, HttpException, NetworkError, TimeoutError } from './core/errors.js';
import { urlForMessage } from './core/redact.js';
import type { CallAgain, FromServer } from './model/from-server.js';
import type { RequestRecord } from './model/request-record.js';
import { reconnectWait } from './stream-reconnect-wait.js';

/** Reads one connection's body into events, going on from `state` (and keeping it up to date). */
export type EventReader = (body: AsyncIterable<Uint8Array>, fromServer: FromServer, state: EventStreamState) => AsyncIterable<ServerSentEvent>;

/** A response whose body is the event stream: unread until the loop reads it. */
interface Connection {
  readonly fromServer: FromServer;
  readonly body: AsyncIterable<Uint8Array>;
}

/** The connection being read: its events, and whether a reconnection may follow it. */
interface Reading {
  readonly events: AsyncIterator<ServerSentEvent>;
  readonly fromServer: FromServer;
  readonly last: boolean;
  /** Whether its events were asked for: until then, closing them would not close the body. */
  started: boolean;
}

const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * The events of `Stream.events(c, { reconnect: true })`: one series over as many connections as
 * it takes. When a 2xx stream ends or breaks (a reset, a read timeout), it waits (see
 * {@link reconnectWait}) and sends the call's request again with `Last-Event-ID`, through the same
 * pipeline (settings, handlers, cookies, auth, hooks, redirects, proxy). A reconnect answered with
 * a 204 (or any other status that is no failure and no 2xx) ends the loop; a 503, a network
 * failure or a timeout is tried again later; any other failure is thrown from the loop. Only the
 * event being read and the last ID and `retry:` are kept from one connection to the next.
 * `return()` (a `break`) during a wait ends it at once; the caller's signal and the client's
 * close() end a wait with `AbortError`.
 * @internal
 */
export class ReconnectingEvents implements AsyncIterableIterator<ServerSentEvent, undefined> {
  /** This object's own response, until a loop reads it: this one's, or the loop of an earlier connection (a reconnect's). */
  #first: Connection | undefined;
  readonly #request: RequestRecord;
  readonly #read: EventReader;
  readonly #state: EventStreamState = { lastEventId: undefined, retry: undefined };
  #reading: Reading | undefined;
  #again: CallAgain | undefined;
  /** Attempts in a row that failed (no 2xx stream, or one that ended with no byte): each doubles the wait. */
  #failures = 0;
  /** Whether the connection being read gave any byte (a comment, a keepalive): it did not fail. */
  #received = false;
  #done = false;
  /** Ends the wait under way, when there is one. */
  #wake: (() => void) | undefined;

  constructor(body: AsyncIterable<Uint8Array>, fromServer: FromServer, request: RequestRecord, read: EventReader) {
    this.#first = { fromServer, body };
    this.#request = request;
    this.#read = read;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  async next(): Promise<IteratorResult<ServerSentEvent, undefined>> {
    try {
      while (!this.#done) {
        const reading = this.#reading ?? (await this.#open());
        if (reading === undefined) break;
        const event = await this.#readFrom(reading);
        if (event !== undefined) return { done: false, value: event };
      }
    } catch (error) {
      if (this.#done) return DONE; // the loop had stopped (return()) while the request was under way
      this.#done = true;
      throw error;
    }
    this.#done = true;
    return DONE;
  }

  /** Stops: a wait ends at once, the connection being read is closed (the loop's `break`). */
  async return(): Promise<IteratorResult<ServerSentEvent, undefined>> {
    this.#done = true;
    this.#wake?.();
    this.#take()?.fromServer.discard();
    const reading = this.#reading;
    this.#reading = undefined;
    if (reading?.started) await reading.events.return?.();
    else reading?.fromServer.discard();
    return DONE;
  }

  /** This object's response, taken once (by its own loop, or by the loop that reconnected and got it). */
  #take(): Connection | undefined {
    const first = this.#first;
    this.#first = undefined;
    return first;
  }

  /** The next connection to read: this object's response first, then a reconnection; `undefined` ends the loop. */
  async #open(): Promise<Reading | undefined> {
    const connection = this.#take() ?? (await this.#reconnect());
    if (connection === undefined) return undefined;
    if (this.#done) {
      connection.fromServer.discard(); // stopped while it came
      return undefined;
    }
    this.#again ??= connection.fromServer.again;
    this.#received = false;
    const body = noting(connection.body, () => void (this.#received = true));
    const events = this.#read(body, connection.fromServer, this.#state)[Symbol.asyncIterator]();
    // the first response may be no stream to go on from (a 204, an unfollowed redirect): read as it is, then the end
    return (this.#reading = { events, fromServer: connection.fromServer, last: !streamsEvents(connection.fromServer, this.#request.method), started: false });
  }

  /** The next event of the connection; `undefined` once it is over and a reconnect is to follow. */
  async #readFrom(reading: Reading): Promise<ServerSentEvent | undefined> {
    let step: IteratorResult<ServerSentEvent>;
    try {
      reading.started = true;
      step = await reading.events.next();
    } catch (error) {
      this.#reading = undefined;
      if (this.#done) return undefined;
      if (reading.last || !broke(error)) throw error;
      this.#ended();
      return undefined;
    }
    if (!step.done) return step.value;
    this.#reading = undefined;
    if (reading.last) this.#done = true;
    else this.#ended();
    return undefined;
  }

  /**
   * A 2xx stream is over (ended or broke): a success when it gave any byte, comments included (a
   * server or proxy answering each reconnection with keepalives only is no failure, as EventSource
   * sees it), else a failure in a row more.
   */
  #ended(): void {
    this.#failures = this.#received ? 0 : this.#failures + 1;
  }

  /** Waits, then sends the request again until a stream comes; `undefined` when the loop is to end. */
  async #reconnect(): Promise<Connection | undefined> {
    const again = this.#again;
    if (again === undefined) return undefined; // a parser run by hand, outside a call: nothing to send again with
    checkSendable(this.#request);
    for (;;) {
      if (this.#done) return undefined;
      await this.#wait(reconnectWait(this.#state.retry, this.#failures), again);
      if (this.#done) return undefined;
      let result: unknown;
      try {
        result = await again.send(withLastEventId(this.#request, this.#state.lastEventId));
      } catch (error) {
        if (!broke(error) && !(error instanceof HttpException && error.statusCode === 503)) throw error;
        this.#failures++;
        continue;
      }
      const connection = ReconnectingEvents.#connectionOf(result);
      // a handler answered something else than the stream: the call closed it, nothing more to read
      if (connection === undefined) return undefined;
      if (streamsEvents(connection.fromServer, this.#request.method)) return connection;
      connection.fromServer.discard(); // a 204: the server says there is no more
      return undefined;
    }
  }

  /** `ms`, ended early by return(); the caller's signal and close() end it with `AbortError`. */
  #wait(ms: number, { signal, closed }: CallAgain): Promise<void> {
    const url = urlForMessage(this.#request.url);
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(aborted(url, signal));
      if (closed.aborted) return reject(cut(url, closed));
      const over = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        closed.removeEventListener('abort', onClose);
        this.#wake = undefined;
      };
      const onAbort = () => (over(), reject(aborted(url, signal!)));
      const onClose = () => (over(), reject(cut(url, closed)));
      const timer = setTimeout(() => (over(), resolve()), ms);
      signal?.addEventListener('abort', onAbort, { once: true });
      closed.addEventListener('abort', onClose, { once: true });
      this.#wake = () => (over(), resolve());
    });
  }

  /** The stream a reconnect's call resolved to (also within `withResponse()`'s result), taken from its own loop. */
  static #connectionOf(result: unknown): Connection | undefined {
    const stream = result instanceof ReconnectingEvents ? result : (result as { body?: unknown } | null)?.body;
    return stream instanceof ReconnectingEvents ? stream.#take() : undefined;
  }
}

/**
 * `body` as it is (its `return()` closes it, started or not), calling `onBytes` for each chunk
 * that holds any byte.
 */
function noting(body: AsyncIterable<Uint8Array>, onBytes: () => void): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]() {
      const source = body[Symbol.asyncIterator]();
      const iterator: AsyncIterator<Uint8Array> = {
        next: async () => {
          const step = await source.next();
          if (!step.done && step.value.byteLength > 0) onBytes();
          return step;
        },
      };
      if (source.return) iterator.return = (value?: unknown) => source.return!(value);
      if (source.throw) iterator.throw = (error?: unknown) => source.throw!(error);
      return iterator;
    },
  };
}

/** Whether a reconnection may follow this response's stream: a 2xx with content, to anything but HEAD. */
function streamsEvents(fromServer: FromServer, method: string): boolean {
  return fromServer.statusCode >= 200 && fromServer.statusCode < 300 && fromServer.statusCode !== 204 && method !== 'HEAD';
}

/** The connection broke or fell silent (not a TLS failure, which would come again): worth connecting again. */
function broke(error: unknown): boolean {
  return (error instanceof NetworkError && error.reason !== 'tls') || error instanceof TimeoutError;
}

/**
 * The request again, with `Last-Event-ID` set to the last event ID (replacing one the caller set),
 * or without one after an empty `id:`. Before any `id:` the request goes as it was.
 */
function withLastEventId(request: RequestRecord, id: string | undefined): RequestRecord {
  if (id === undefined) return request;
  const headers: Record<string, string> = {};
  for (const name of Object.keys(request.headers)) if (name.toLowerCase() !== 'last-event-id') headers[name] = request.headers[name];
  const value = headerValue(id);
  if (value !== '') headers['Last-Event-ID'] = value;
  return { ...request, headers };
}

/**
 * An ID as EventSource sends it: UTF-8, one byte per character of the header value. One with a
 * control character, which no header value may carry, is not sent (`''`).
 */
function headerValue(id: string): string {
  if (/^[\t\x20-\x7e]*$/.test(id)) return id;
  const bytes = new TextEncoder().encode(id);
  let value = '';
  for (let at = 0; at < bytes.length; at += 8192) value += String.fromCharCode(...bytes.subarray(at, at + 8192));
  return /^[\t\x20-\x7e\x80-\xff]*$/.test(value) ? value : '';
}

/** A body that streams is read once: it cannot go again. */
function checkSendable(request: RequestRecord): void {
  const body = request.body;
  const parts = isMultipart(body) ? body.parts.map((part) => part.content as unknown) : [body];
  if (parts.some(streams)) {
    throw new ConfigError(
      `Stream.events(c, { reconnect: true }): the stream of ${urlForMessage(request.url)} ended, but its request's body is a stream, which can be sent only once: to reconnect, give the body as text, bytes, a Blob or a value`,
    );
  }
}

/** A node `Readable` or a web `ReadableStream` (duck-typed, as the encoders see them); bytes and Blobs can be read again. */
function streams(body: unknown): boolean {
  const source = body as { pipe?: unknown; getReader?: unknown } | null;
  return typeof body === 'object' && body !== null && (typeof source?.pipe === 'function' || typeof source?.getReader === 'function');
}

function aborted(url: string, signal: AbortSignal): AbortError {
  return new AbortError(`the request to ${url} was aborted (waiting to reconnect)`, { cause: signal.reason });
}

function cut(url: string, closed: AbortSignal): AbortError {
  return new AbortError(`the request to ${url} was cut by close() of its client (waiting to reconnect)`, { cause: closed.reason });
}
