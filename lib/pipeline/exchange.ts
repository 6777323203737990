import { sendAuthorized } from '../auth/auth-stage.js';
import type { Backend, WireRequest, WireResponse } from '../backends/backend.js';
import type { ClientCookieJar } from '../cookies/cookie-jar.js';
import { sendAttempt } from './attempt.js';
import { CallControl } from './call-control.js';
import { followRedirects } from './redirects.js';
import { sendWithRetries, type Send } from './retry.js';
import { ConfigError, EncodeError, ParseError } from '../errors.js';
import { releaseUpload } from '../content/raw-upload.js';
import { encodeBody, type EncodedRequestBody } from '../content/encoders.js';
import { parserFor, READS_EMPTY_BODIES } from '../content/parsers.js';
import { convertResult } from '../result/convert.js';
import { MAPPER_ID, rawBodyKind, type Mapper } from '../result/result-type.js';
import { dispatch } from './dispatch.js';
import type { Plan } from './freeze.js';
import type { HandlerTier } from '../config/handlers.js';
import { FromServer } from './from-server.js';
import type { RequestRecord } from './request-record.js';
import { toTransportError } from './transport-error.js';
import { countedBody, countedUpload, listenerThrown, reportSent, type ProgressListener } from './progress.js';
import { firstHeader } from './response-headers.js';
import { toWireRequest } from './wire-request.js';
import { loggedSend } from './request-log.js';
import { isThenable } from '../thenable.js';

/**
 * The core of a call, inside the interceptors: encode → backend → decompress → parse →
 * handler dispatch → result type. The exception handler sees any error of the exchange.
 */
export function exchange(record: RequestRecord, plan: Plan): Promise<unknown> {
  const handle = plan.handlers.find(hasExceptionHandler)?.exception;
  const handled = handle ? exchangeOnce(record, plan).catch(async (error: unknown) => {
    // bad input, or a progress listener's throw, is the caller's bug, not an outcome of the exchange: it always propagates
    if (error instanceof ConfigError || error instanceof EncodeError || listenerThrown(error) !== error) throw error;
    return convertResult(await handle(error), plan.resultType);
  }) : exchangeOnce(record, plan);
  // a progress listener's throw comes back as it was thrown (it travels wrapped, past the transport's error mapping)
  return plan.onUploadProgress || plan.onDownloadProgress ? handled.catch(rethrowListenerError) : handled;
}

function rethrowListenerError(error: unknown): never {
  throw listenerThrown(error);
}

function hasExceptionHandler(tier: HandlerTier): boolean {
  return tier.exception !== undefined;
}

// Awaits only where something is really pending: each await is a trip through the microtask
// queue, and per-request overhead is what the benchmark measures against raw node:http.
function exchangeOnce(record: RequestRecord, plan: Plan): Promise<unknown> {
  const { timeout, signal } = plan.execution;
  const control = CallControl.start(timeout, signal, record.url);
  return control ? exchangeUnder(control, record, plan) : exchangeControlled(record, plan, undefined);
}

/** The exchange of a call that can be stopped: it fails for the reason it was stopped, and its timers go with it. */
async function exchangeUnder(control: CallControl, record: RequestRecord, plan: Plan): Promise<unknown> {
  try {
    return await exchangeControlled(record, plan, control);
  } catch (error) {
    // whatever a stopped call failed with (a transport's abort error, a parser's), the reason is what it failed for
    throw control.reason ?? error;
  } finally {
    control.dispose();
  }
}

// A chain of promises, not an async function: an async frame keeps every local of the function
// in a heap object per request across each await, and next to a transport as allocation-heavy
// as fetch every allocation is paid again as garbage-collection time.
function exchangeControlled(record: RequestRecord, plan: Plan, control: CallControl | undefined): Promise<unknown> {
  let encoding;
  try {
    encoding = record.body === null || record.body === undefined ? undefined : encodeBody(record, plan.encoders);
  } catch (error) {
    return failedBeforeResponse(record, record.url, error);
  }
  if (!isThenable(encoding)) return sendEncoded(record, plan, control, encoding);
  return Promise.resolve(encoding).then(sendEncoded.bind(undefined, record, plan, control), failedBeforeResponse.bind(undefined, record, record.url));
}

/** Sends the encoded request; a failure before the response releases the upload and is typed. */
function sendEncoded(record: RequestRecord, plan: Plan, control: CallControl | undefined, encoded: EncodedRequestBody | undefined): Promise<unknown> {
  const upload = plan.onUploadProgress;
  let wire: WireRequest | undefined;
  try {
    wire = toWireRequest(record, plan, encoded);
    if (upload && wire.body) wire = { ...wire, body: countedUpload(wire.body, upload) };
    return transmit(wire, plan, control, receivedLast.bind(undefined, record, plan, wire), failedBeforeResponse.bind(undefined, record, wire.url));
  } catch (error) {
    return failedBeforeResponse(record, wire?.url ?? record.url, error);
  }
}

/**
 * The response that ended the wire exchange for `sent` (to `last`, the request of its final
 * hop): the upload reported done, the body counted if asked, then {@link received}.
 */
function receivedLast(record: RequestRecord, plan: Plan, sent: WireRequest, response: WireResponse, last: WireRequest): unknown {
  const { onUploadProgress: upload, onDownloadProgress: download } = plan;
  try {
    reportSent(sent.body, upload);
    if (download) response = countedResponse(response, download);
  } catch (error) {
    response.discard(); // never read: its connection goes back or is closed
    return failedBeforeResponse(record, last.url, error);
  }
  return received(response, last.url, record, plan);
}

/** A failure before the response: the upload released and the error typed, always as a rejection (a failing release too). */
function failedBeforeResponse(record: RequestRecord, url: string, error: unknown): Promise<never> {
  try {
    releaseUpload(record.body);
    return Promise.reject(toTransportError(error, url));
  } catch (failure) {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- pass on exactly what releasing threw
    return Promise.reject(failure);
  }
}

/** The response read, dispatched and converted; the connection is given back once that is done. */
function received(response: WireResponse, url: string, record: RequestRecord, plan: Plan): unknown {
  let fromServer: FromServer;
  try {
    fromServer = new FromServer(response, record.method, url, plan.execution.maxResponseSize);
  } catch (error) {
    response.discard(); // e.g. an unsupported Content-Encoding: the body will never be read
    throw error;
  }
  let reading;
  try {
    reading = readBody(fromServer, record, plan);
  } catch (error) {
    fromServer.discard();
    throw error;
  }
  if (!isThenable(reading)) return handledThenReleased(fromServer, false, record, plan, reading);
  // one step for the body, the error page and the release (each step is a promise per request)
  return Promise.resolve(reading).then(handledThenReleased.bind(undefined, fromServer, false, record, plan), handledThenReleased.bind(undefined, fromServer, true, record, plan));
}

/**
 * {@link handled} for what reading gave (a body, or when `failed` the error reading failed
 * with, which may be an error page), then the connection given back: at once, or when an
 * async handler settles.
 */
function handledThenReleased(fromServer: FromServer, failed: boolean, record: RequestRecord, plan: Plan, read: unknown): unknown {
  let outcome;
  try {
    outcome = handled(fromServer, failed ? errorPageText(read, fromServer) : read, record, plan);
  } catch (error) {
    fromServer.discard();
    throw error;
  }
  if (!isThenable(outcome)) {
    fromServer.discard();
    return outcome;
  }
  return Promise.resolve(outcome).then(discardThenReturn.bind(undefined, fromServer), discardThenThrow.bind(undefined, fromServer));
}

function discardThenReturn(fromServer: FromServer, result: unknown): unknown {
  fromServer.discard();
  return result;
}

function discardThenThrow(fromServer: FromServer, error: unknown): never {
  fromServer.discard();
  throw error;
}

/** The handler's result for `body`, converted to the result type. */
function handled(fromServer: FromServer, body: unknown, record: RequestRecord, plan: Plan): unknown {
  const dispatched = dispatch(fromServer, body, plan.handlers);
  return isThenable(dispatched) ? Promise.resolve(dispatched).then(converted.bind(undefined, fromServer, record, plan)) : converted(fromServer, record, plan, dispatched);
}

function converted(fromServer: FromServer, record: RequestRecord, plan: Plan, result: unknown): unknown {
  // a mapper configured for the response's content type builds class instances
  const mapper = plan.resultType === undefined ? undefined : (record.context(fromServer.contentType, MAPPER_ID) as Mapper | undefined);
  return convertResult(result, plan.resultType, mapper);
}

/**
 * The wire exchange, stage inside stage: redirects (each hop) → retries (each attempt) → auth
 * (each challenge answered) → the cookie jar → one attempt through the backend. `then` gets the
 * last response and the request that got it, `failed` any error of the exchange.
 */
function transmit(
  wire: WireRequest,
  plan: Plan,
  control: CallControl | undefined,
  then: (response: WireResponse, wire: WireRequest) => unknown,
  failed: (error: unknown) => unknown,
): Promise<unknown> {
  const { backend, jar, execution } = plan;
  // each stage a function of its module bound to this call, not an arrow made per call (the
  // debug logger's wrapper aside): docs/performance.md, "Arrows made per request"
  const attempt: Send = jar ? sendWithCookies.bind(undefined, backend, jar, control) : sendAttempt.bind(undefined, backend, control);
  // logged innermost: every wire exchange (hop, retry, challenge) gets its own pair of lines
  const logged = execution.logger ? loggedSend(attempt, execution.logger) : attempt;
  // without credentials the auth stage only passes each hop on: no layer for it
  const authorized: Send = plan.credentials ? sendAuthorized.bind(undefined, logged, plan) : logged;
  return followRedirects(sendWithRetries.bind(undefined, authorized, execution.retry, control), wire, execution.redirects, then, failed);
}

/** One attempt with the client's cookie jar: its cookies added to `hop`, the response's stored. */
async function sendWithCookies(backend: Backend, jar: ClientCookieJar, control: CallControl | undefined, hop: WireRequest): Promise<WireResponse> {
  const response = await sendAttempt(backend, control, await jar.withCookies(hop));
  await jar.store(hop.url, response);
  return response;
}

/**
 * The body handlers receive: text or bytes for String/Buffer results, else what the content
 * type's parser makes of it. A promise only when something is pending (not for a parser that
 * answers at once, nor for no body).
 */
function readBody(fromServer: FromServer, record: RequestRecord, plan: Plan): unknown {
  if (fromServer.hasBody && fromServer.mayBeEmpty()) return fromServer.peekEmpty().then(bodyOf.bind(undefined, fromServer, record, plan));
  return bodyOf(fromServer, record, plan, !fromServer.hasBody);
}

function bodyOf(fromServer: FromServer, record: RequestRecord, plan: Plan, empty: boolean): unknown {
  const raw = rawBodyKind(plan.resultType);
  if (raw !== undefined) return empty ? null : raw === 'text' ? fromServer.text() : fromServer.bytes();
  const parse = parserFor(plan.parsers, fromServer.contentType);
  // no body is null, except for a parser that asked for those too (a download's empty file)
  if (empty && (record.method === 'HEAD' || !(READS_EMPTY_BODIES in parse))) return null;
  try {
    // a rejection is looked at by received(), in the step that handles the body
    return parse(fromServer, record);
  } catch (error) {
    return errorPageText(error, fromServer);
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
