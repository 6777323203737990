import type { PoolAuth } from '../auth/auth-cache.js';
import type { ProxyRouter } from '../proxy/router.js';
import type { Credentials } from '../config/auth-config.js';
import type { ProgressListener } from '../config/execution-config.js';
import type { ExecutionOptions } from '../config/execution-options.js';
import type { HandlerTier } from '../config/handlers.js';
import type { Encoder } from '../content/encoders.js';
import type { RequestCompression } from '../content/request-compression.js';
import type { Parser } from '../content/parsers.js';
import type { ClientCookieJar } from '../cookies/cookie-jar.js';
import type { Backend, WireRequest, WireResponse } from '../model/backend.js';
import type { ResultType } from '../result/result-type.js';
import type { Target } from './build-url.js';
import type { CallControl } from './call-control.js';
import type { Attempt } from '../config/hooks.js';
import type { FromServer } from '../model/from-server.js';
import type { RequestRecord } from '../model/request-record.js';
import type { ResponseCache } from '../cache/response-cache.js';
import type { AttemptTimings } from '../core/timings.js';
import type { Telemetry } from '../config/telemetry.js';
import type { Observed } from './observed.js';
import type { OriginPacing } from './origin-pacing.js';
import type { CallSlots } from './call-slots.js';

/** What the pipeline needs besides the record: resolved once per request, never shown to interceptors. */
export interface Plan {
  /** Where the request was configured to go: credentials are never sent to another origin. */
  readonly target: Target;
  /** The client's connection pool: its backend, its wire stages, what its servers challenged. */
  readonly pool: PoolState;
  /** every level, nearest first (request, client, its parents); the defaults come after */
  readonly handlers: readonly HandlerTier[];
  readonly encoders: ReadonlyArray<ReadonlyMap<string, Encoder>>;
  /** `request.compress`: the encoded body compressed once per call (`undefined`: off) */
  readonly compress: RequestCompression | undefined;
  readonly parsers: ReadonlyArray<ReadonlyMap<string, Parser>>;
  readonly resultType: ResultType | undefined;
  /** `withResponse(Type)`: the result is `{ statusCode, message, headers, body }` */
  readonly withResponse: boolean;
  readonly credentials: Credentials | undefined;
  readonly onDownloadProgress: ProgressListener | undefined;
  readonly onUploadProgress: ProgressListener | undefined;
  /** timeouts, retries, redirects, abort signal, size limit, logger */
  readonly execution: ExecutionOptions;
  /** the client's cookie jar, when `client.cookies` is on */
  readonly jar: ClientCookieJar | undefined;
  /** the client's cache (`client.cache`), shared with the clients derived from it */
  readonly cache?: ResponseCache;
  /** `client.telemetry`: told of each attempt */
  readonly telemetry?: Telemetry;
  /** told of the response that ended the exchange, once its head is in (paginate() reads the next page from it) */
  readonly onResponse?: (fromServer: FromServer, record: RequestRecord) => void;
}

/** What a client's requests share: made with the client, shared by the clients derived from it. */
export interface PoolState {
  readonly backend: Backend;
  /** The wire stages over the backend, composed once ({@link wirePipeline} in stages.ts). */
  readonly send: Send;
  /** What its requests learned about authentication: the protection spaces challenged, bearer refreshes. */
  readonly auth: PoolAuth;
  /** Which requests go through which proxy (`client.proxy`); `undefined`: every request goes direct. */
  readonly router: ProxyRouter | undefined;
  /** Set by close() of the client that made the pool: nothing more is sent, calls in flight are AbortErrors. */
  readonly closed: boolean;
  /** Aborted by that close(): a call waiting for a slot, a turn or a shared exchange stops waiting. */
  readonly stopped: AbortSignal;
  /** When attempts may go to each origin: servers' `Retry-After` pauses, `client.rateLimit`. */
  readonly pacing: OriginPacing;
  /** `client.concurrency`: the calls in flight; `undefined` when unlimited. */
  readonly slots: CallSlots | undefined;
  /** `client.dedupe`: the GETs in flight identical ones may join, by key (dedupe-stage.ts); `undefined` when off. */
  readonly dedupe: Map<string, SharedExchange> | undefined;
}

/** A GET in flight that identical ones may join until its response head is in (`client.dedupe`). */
export interface SharedExchange {
  readonly leader: WireCall;
  readonly joined: Array<{ readonly call: WireCall; readonly resolve: (response: WireResponse) => void; readonly reject: (error: unknown) => void }>;
}

/** What a wire stage knows of the call it serves. */
export interface WireCall {
  readonly plan: Plan;
  /** What can stop the call (abort signal, timeouts); `undefined` when nothing can. */
  readonly control: CallControl | undefined;
  /** The request of the last redirect hop (the first request until one is followed): the response's URL. */
  last: WireRequest | undefined;
  /** Why a stage left the final response as it came (a challenge it could not answer): the `HttpException`'s cause. */
  unanswered: Error | undefined;
  /** The last attempt the hook stage made (with `execution.hooks` only): what `beforeRetry` and `beforeRedirect` are told about. */
  attempt: Attempt | undefined;
  /** The `Proxy-Authorization` the proxy stage put on the attempt it sent last (the proxy's credentials): hooks never see it. */
  proxyAuthorization: string | undefined;
  /** The timings of the attempt sent last (the response's, once it is in); `undefined` before the first. */
  timings: AttemptTimings | undefined;
  /** The call's `Idempotency-Key` (`execution.retry.idempotencyKey`), once its first POST or PATCH attempt made it. */
  idempotencyKey: string | undefined;
  /** Set when the call is observed (`client.telemetry`, or a subscriber to the `httpbuilder:` channels): what its attempts are told with. */
  observed: Observed | undefined;
}

/** One wire exchange: a request in, the response it ended with out (its body not read yet). */
export type Send = (wire: WireRequest, call: WireCall) => Promise<WireResponse>;

/**
 * A wire stage: given the rest of the pipeline (`next`), the {@link Send} that does this stage's
 * part around it. Each stage returns the response it got; one that has nothing to do for a call
 * passes the request on as it is.
 *
 * @example
 * const timing: Stage = (next) => async (wire, call) => {
 *   const started = performance.now();
 *   try { return await next(wire, call); } finally { console.log(wire.url, performance.now() - started); }
 * };
 */
export type Stage = (next: Send) => Send;
