import { AbortError, ConfigError, EncodeError, ParseError } from '../core/errors.js';
import { withTimings } from '../core/timed-error.js';
import type { AttemptTimings } from '../core/timings.js';
import { redactUrl, urlForMessage } from '../core/redact.js';
import { subscribedChannels, type CallChannels } from '../core/diagnostics.js';
import type { CallMessage, Observed } from './observed.js';
import { isThenable, type MaybePromise } from '../core/maybe-promise.js';
import type { ExceptionHandler, HandlerTier } from '../config/handlers.js';
import { encodeBody, type EncodedRequestBody } from '../content/encoders.js';
import { parserFor, READS_EMPTY_BODIES, STREAMS, takesBodyUnread } from '../content/parsers.js';
import { releaseUpload } from '../content/raw-upload.js';
import { compressEncoded } from '../content/request-compression.js';
import { isClientClosed, type WireRequest, type WireResponse } from '../model/backend.js';
import { FromServer } from '../model/from-server.js';
import type { RequestRecord } from '../model/request-record.js';
import { firstHeader } from '../model/response-headers.js';
import { toTransportError } from '../model/transport-error.js';
import { converted } from '../result/converted.js';
import { MAPPER_ID, rawBodyKind, type Mapper } from '../result/result-type.js';
import type { WithResponse } from '../result/with-response.js';
import { CallControl } from './call-control.js';
import { dispatch } from './dispatch.js';
import type { Plan, WireCall } from './plan.js';
import { countedBody, countedUpload, listenerThrown, reportSent } from './progress.js';
import type { ProgressListener } from '../config/execution-config.js';
import { toWireRequest } from './wire-request.js';
import { targetOfUrl } from './build-url.js';
import { notePause } from './pacing-stage.js';
import { originKey } from '../model/origin-key.js';
import type { CallSlots } from './call-slots.js';
import './deferred-stage.js'; // plugs in the loaders of the XML, CSV and multipart codecs and of the conversion, used below
import type { Attempt } from '../config/hooks.js';

/**
 * The core of a call, inside the interceptors: one {@link Call} run, its errors given to the
 * `exception` handler when there is one.
 */
export function exchange(record: RequestRecord, plan: Plan): Promise<unknown> {
  const { timeout, signal } = plan.execution;
  const call = new Call(record, plan, CallControl.start(timeout, signal, record.url));
  const channels = subscribedChannels();
  if (channels !== undefined || plan.telemetry !== undefined) call.observed = observe(call, channels);
  const slots = plan.pool.slots;
  const done = slots ? call.runInSlot(slots) : call.control ? call.runControlled(call.control) : call.run();
  const handle = plan.handlers.find(hasExceptionHandler)?.exception;
  const handled = handle ? done.catch(handledException.bind(undefined, handle, plan)) : done;
  // what the caller's own code threw (a progress listener, a hook, a bearer token function or refresh) comes back as it
  // was thrown: it travels wrapped, past the transport's error mapping
  const callersCode = plan.onUploadProgress || plan.onDownloadProgress || plan.execution.hooks || plan.credentials?.scheme === 'bearer';
  const outcome = callersCode ? handled.catch(rethrowListenerError) : handled;
  return channels === undefined ? outcome : told(outcome, channels, call.observed!.message);
}

/** A call observed: its message for the channels (one object for all its attempts), `call:start` published. */
function observe(call: Call, channels: CallChannels | undefined): Observed {
  const message: CallMessage = { method: call.record.method, url: redactUrl(call.record.url) };
  if (channels?.callStart.hasSubscribers) channels.callStart.publish({ call: message });
  return { channels, message, attempts: 0 };
}

/** `outcome`, with `call:end` or `call:error` published once it settles. */
async function told(outcome: Promise<unknown>, channels: CallChannels, message: CallMessage): Promise<unknown> {
  try {
    const result = await outcome;
    if (channels.callEnd.hasSubscribers) channels.callEnd.publish({ call: message, result });
    return result;
  } catch (error) {
    if (channels.callError.hasSubscribers) channels.callError.publish({ call: message, error });
    throw error;
  }
}

function hasExceptionHandler(tier: HandlerTier): boolean {
  return tier.exception !== undefined;
}

async function handledException(handle: ExceptionHandler, plan: Plan, error: unknown): Promise<unknown> {
  // bad input, or a progress listener's or a hook's throw, is the caller's bug, not an outcome of the exchange: it always propagates
  if (error instanceof ConfigError || error instanceof EncodeError || listenerThrown(error) !== error) throw error;
  const result = await handle(error);
  // with withResponse() there is no response to wrap: the handler's value is the result as it is
  return plan.withResponse ? result : converted(result, plan.resultType);
}

function rethrowListenerError(error: unknown): never {
  throw listenerThrown(error);
}

/**
 * One exchange of a request: **encode → send → read → dispatch → convert**. What the steps
 * share lives on this object; each step is a method, and one that waits for a promise is bound
 * to the call rather than made as an arrow per request (docs/performance.md, "Arrows made per
 * request"). A step returns a promise only when something is really pending: each await is a
 * trip through the microtask queue, and per-request overhead is what the benchmark measures.
 */
export class Call implements WireCall {
  /** The request as it first went out (its body counted for upload progress). */
  #sent: WireRequest | undefined;
  /** The request of the last redirect hop (the first request until one is followed): its URL is the response's. */
  last: WireRequest | undefined;
  /** A challenge the auth stage could not answer: the cause of the HttpException for its 401. */
  unanswered: Error | undefined;
  /** The last attempt the hooks saw (only with `execution.hooks`). */
  attempt: Attempt | undefined;
  /** The proxy's credentials on the attempt the proxy stage sent last (hidden from hooks). */
  proxyAuthorization: string | undefined;
  /** The timings of the attempt sent last. */
  timings: AttemptTimings | undefined;
  /** With telemetry or diagnostics subscribers: what the observation stage tells of each attempt. */
  observed: Observed | undefined;
  /** With `execution.retry.idempotencyKey`: the key every attempt of this call carries. */
  idempotencyKey: string | undefined;
  /** The response as handlers see it, once its head is in. */
  #fromServer: FromServer | undefined;
  /** A Stream's body, handed to its reader (the call leaves its connection to that reader). */
  #handedOver: unknown;
  /** A call an interceptor starts on a closed pool is refused as such (ConfigError), not cut (AbortError). */
  readonly #closedAtStart: boolean;

  constructor(
    readonly record: RequestRecord,
    readonly plan: Plan,
    readonly control: CallControl | undefined,
  ) {
    this.#closedAtStart = plan.pool.closed;
  }

  /** The whole exchange: encode → send → read → dispatch → convert. */
  run(): Promise<unknown> {
    let encoding: MaybePromise<EncodedRequestBody | undefined>;
    try {
      encoding = this.record.body === null || this.record.body === undefined ? undefined : encodeBody(this.record, this.plan.encoders);
      if (this.plan.compress !== undefined) encoding = compressEncoded(encoding, this.record, this.plan.compress);
    } catch (error) {
      return this.#failedBeforeResponse(error);
    }
    if (!isThenable(encoding)) return this.#send(encoding);
    return Promise.resolve(encoding).then(this.#send.bind(this), this.#failedBeforeResponse.bind(this));
  }

  /** {@link run} for a call that can be stopped: it fails for the reason it was stopped, and its timers go with it. */
  async runControlled(control: CallControl): Promise<unknown> {
    try {
      return await this.run();
    } catch (error) {
      // whatever a stopped call failed with (a transport's abort error, a parser's), the reason is what it failed for
      throw this.#timed(control.reason ?? error);
    } finally {
      // a body its reader still reads (a Stream) is stopped by the signal until that reader is done with it
      if (this.#fromServer?.detached) control.resolved();
      this.#afterBody(control.dispose.bind(control));
    }
  }

  /**
   * {@link run} in one of the pool's `client.concurrency` slots, waited for in order (a stop of
   * the call ends the wait), given back once the body is read (a Stream's when its reader is done).
   */
  async runInSlot(slots: CallSlots): Promise<unknown> {
    const { secure, hostname, port } = this.#origin();
    const origin = originKey(secure, hostname, port);
    try {
      await slots.take(origin, this.control, this.plan.pool.stopped);
    } catch (error) {
      this.control?.dispose();
      throw this.#timed(this.#closedUnder(error) ?? error);
    }
    try {
      return await (this.control ? this.runControlled(this.control) : this.run());
    } finally {
      this.#afterBody(slots.give.bind(slots, origin));
    }
  }

  /** The configured target, or the URL an interceptor moved the request to (one it broke is refused later, when the request is made: the configured one stands in). */
  #origin(): { secure: boolean; hostname: string; port: number } {
    if (this.record.url === this.plan.target.url || !URL.canParse(this.record.url)) return this.plan.target;
    return targetOfUrl(new URL(this.record.url));
  }

  /** Runs `done` once the response's body is read: now, or when the reader of a Stream's body is done with it. */
  #afterBody(done: () => void): void {
    const fromServer = this.#fromServer;
    if (fromServer?.detached) fromServer.whenReleased(done);
    else done();
  }

  /** Send: the wire request through the client's wire stages (redirects, retries, auth, ...). */
  #send(encoded: EncodedRequestBody | undefined): Promise<unknown> {
    try {
      let wire = toWireRequest(this.record, this.plan, encoded);
      const upload = this.plan.onUploadProgress;
      if (upload && wire.body) wire = { ...wire, body: countedUpload(wire.body, upload) };
      this.#sent = this.last = wire;
      return this.plan.pool.send(wire, this).then(this.#read.bind(this), this.#failedBeforeResponse.bind(this));
    } catch (error) {
      return this.#failedBeforeResponse(error);
    }
  }

  /** A failure before the response: the upload released and the error typed, always as a rejection (a failing release too). */
  #failedBeforeResponse(error: unknown): Promise<never> {
    try {
      releaseUpload(this.record.body);
      return Promise.reject(this.#timed(this.#closedUnder(error) ?? toTransportError(error, (this.last ?? this.record).url)));
    } catch (failure) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- pass on exactly what releasing threw
      return Promise.reject(failure);
    }
  }

  /**
   * Read: the response that ended the exchange, its body as handlers receive it (parsed, or
   * text/bytes for those result types); then dispatched. The connection is given back once
   * that is done.
   */
  #read(response: WireResponse): MaybePromise<unknown> {
    const { onUploadProgress: upload, onDownloadProgress: download, execution } = this.plan;
    const url = this.last!.url;
    try {
      reportSent(this.#sent!.body, upload);
      if (download) response = countedResponse(response, download);
    } catch (error) {
      response.discard(); // never read: its connection goes back or is closed
      return this.#failedBeforeResponse(error);
    }
    let fromServer: FromServer;
    try {
      fromServer = this.#fromServer = new FromServer(response, this.record.method, url, execution.maxResponseSize, this.timings);
    } catch (error) {
      response.discard(); // e.g. an unsupported Content-Encoding: the body will never be read
      throw this.#timed(error);
    }
    this.plan.onResponse?.(fromServer, this.record);
    // a server's backpressure holds every call of the pool back (noted again if the retry loop saw it: the later end wins)
    if (fromServer.statusCode === 429 || fromServer.statusCode === 503) notePause(response, this.last!, this);
    let body;
    try {
      body = this.#body(fromServer);
    } catch (error) {
      fromServer.discard();
      throw this.#timed(error);
    }
    if (!isThenable(body)) return this.#dispatch(body);
    // one step for the body, the error page and the release (each step is a promise per request)
    return Promise.resolve(body).then(this.#dispatch.bind(this), this.#dispatchErrorPage.bind(this));
  }

  /**
   * The body handlers receive: text or bytes for String/Buffer results, else what the content
   * type's parser makes of it. A promise only when something is pending (not for a parser that
   * answers at once, nor for no body).
   */
  #body(fromServer: FromServer): MaybePromise<unknown> {
    if (fromServer.hasBody && fromServer.mayBeEmpty() && !this.#streamed(fromServer)) return fromServer.peekEmpty().then(this.#bodyOf.bind(this, fromServer));
    return this.#bodyOf(fromServer, !fromServer.hasBody);
  }

  /** A body a Stream reads after the call: handed over unread (its first byte may come much later). */
  #streamed(fromServer: FromServer): boolean {
    return takesBodyUnread(parserFor(this.plan.parsers, fromServer.contentType), fromServer.statusCode);
  }

  #bodyOf(fromServer: FromServer, empty: boolean): MaybePromise<unknown> {
    const raw = rawBodyKind(this.plan.resultType);
    if (raw !== undefined) return empty ? null : raw === 'text' ? fromServer.text() : fromServer.bytes();
    const parse = parserFor(this.plan.parsers, fromServer.contentType);
    // no body is null, except for a parser that asked for those too (a download's empty file, an empty stream)
    if (empty && !(READS_EMPTY_BODIES in parse && (this.record.method !== 'HEAD' || STREAMS in parse))) return null;
    try {
      // a rejection is looked at by #read, in the step that dispatches the body
      const body = parse(fromServer, this.record);
      if (fromServer.detached) this.#handOver(fromServer, body);
      return body;
    } catch (error) {
      return errorPageText(error, fromServer);
    }
  }

  /**
   * A Stream's body, handed to its reader: what fails while it reads is thrown as this call would
   * have thrown it (a progress listener's own error, an AbortError for a closed client).
   */
  #handOver(fromServer: FromServer, body: unknown): void {
    this.#handedOver = body;
    fromServer.readerError = this.#readerError.bind(this);
    const { plan } = this;
    fromServer.again = { send: (record) => exchange(record, plan), signal: plan.execution.signal, closed: plan.pool.stopped };
  }

  #readerError(error: unknown): unknown {
    const own = listenerThrown(error);
    return own !== error ? own : this.#closedUnder(error);
  }

  /**
   * The failure of a call whose client was closed while it was in flight: an AbortError, as for
   * any call stopped from outside (whatever the transport made of its connections being cut).
   */
  #closedUnder(error: unknown): AbortError | undefined {
    if (this.#closedAtStart || !this.plan.pool.closed || error instanceof EncodeError || (error instanceof ConfigError && !isClientClosed(error)))
      return undefined;
    return new AbortError(`the request to ${urlForMessage((this.last ?? this.record).url)} was cut by close() of its client`, { cause: error });
  }

  /** Reading failed: an error page's text still goes to the handlers; anything else fails the call. */
  #dispatchErrorPage(error: unknown): MaybePromise<unknown> {
    let text: string;
    try {
      text = errorPageText(this.#closedUnder(error) ?? error, this.#fromServer!);
    } catch (failure) {
      this.#fromServer!.discard();
      throw this.#timed(failure);
    }
    return this.#dispatch(text);
  }

  /** Dispatch → convert for `body`, then the connection given back: at once, or when an async handler settles. */
  #dispatch(body: unknown): MaybePromise<unknown> {
    const fromServer = this.#fromServer!;
    let outcome;
    try {
      const cause = fromServer.statusCode === 401 ? this.unanswered : undefined;
      const dispatched = dispatch(fromServer, body, this.plan.handlers, this.last!.method, cause);
      outcome = isThenable(dispatched) ? Promise.resolve(dispatched).then(this.#convert.bind(this)) : this.#convert(dispatched);
    } catch (error) {
      fromServer.discard();
      throw this.#timed(error);
    }
    if (!isThenable(outcome)) {
      this.#release(outcome);
      return outcome;
    }
    return Promise.resolve(outcome).then(this.#releasedWith.bind(this), this.#releasedThrowing.bind(this));
  }

  /** Convert: the handler's result to the result type; a mapper configured for the response's content type builds class instances. */
  #convert(result: unknown): MaybePromise<unknown> {
    const type = this.plan.resultType;
    const mapper = type === undefined ? undefined : (this.record.context(this.#fromServer!.contentType, MAPPER_ID) as Mapper | undefined);
    const value = converted(result, type, mapper);
    if (!this.plan.withResponse) return value;
    return isThenable(value) ? Promise.resolve(value).then(this.#withResponse.bind(this)) : this.#withResponse(value);
  }

  /** `withResponse(Type)`: the body with the response's status, reason phrase and headers. */
  #withResponse(body: unknown): WithResponse<unknown> {
    const { statusCode, message, headers, timings } = this.#fromServer!;
    return { statusCode, message, headers, body, timings };
  }

  #releasedWith(result: unknown): unknown {
    this.#release(result);
    return result;
  }

  /**
   * The call succeeded: the connection goes back, unless the result is a Stream's body, whose
   * reader frees it when done (a handler that answered something else leaves the body unread).
   */
  #release(result: unknown): void {
    const handed = this.#handedOver;
    if (handed === undefined || (result !== handed && (result as WithResponse<unknown> | null)?.body !== handed)) this.#fromServer!.discard();
  }

  #releasedThrowing(error: unknown): never {
    this.#fromServer!.discard();
    throw this.#timed(error);
  }

  /**
   * A failure with the timings of the last attempt, when the call made one (a ConfigError before
   * sending has none). Added where the call fails, not by a catch around it: one more promise per call.
   */
  #timed<E>(error: E): E {
    return withTimings(error, this.timings?.failed());
  }
}

/**
 * A parser's failure (or a body that could not be read): an error page in the wrong format should still surface as the HTTP
 * error, with its text; anything else (a reset, a parser's bug) is an error of its own.
 */
function errorPageText(error: unknown, fromServer: FromServer): string {
  if (!(error instanceof ParseError) || fromServer.statusCode < 400 || !error.text) throw error;
  return error.text;
}

/** The response with its body counted as it is read (no one-piece readAll: it would skip the count). */
function countedResponse(response: WireResponse, listener: ProgressListener): WireResponse {
  const length = firstHeader(response.headers, 'content-length');
  // decoded by the transport (fetch): the bytes counted are decoded ones, which no header totals
  const decodedLength = response.decoded && firstHeader(response.headers, 'content-encoding') !== undefined;
  const total = length === undefined || decodedLength || !/^\d+$/.test(length) ? undefined : Number(length);
  // discard() by hand: a backend's response may have it on its prototype, where a spread does not look
  return { ...response, body: countedBody(response.body, total, listener), readAll: undefined, discard: response.discard.bind(response) };
}
