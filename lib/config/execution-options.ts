import { describeSetting, describeValue } from '../core/describe-value.js';
import { ConfigError } from '../core/errors.js';
import { isRecord } from '../core/scalar.js';
import { toLogLine, type LogLine, type Logger } from './logger.js';
import { mergeHooks, type HookLists, type Hooks } from './hooks.js';

/**
 * `execution.timeout`, in milliseconds. `response` and `read` are 5 minutes unless set (so a
 * stalled server never hangs a call for ever); `connect` and `total` are off unless set; `0`
 * turns a phase off.
 *
 * @example
 * c.execution.timeout = { connect: 2_000, response: 10_000, read: 5_000, total: 30_000 };
 * c.execution.timeout = { read: 0 }; // a long-poll or an event stream may stay silent
 */
export interface Timeouts {
  /** Until the connection (and TLS) is established; a reused keep-alive connection skips it. */
  readonly connect?: number;
  /** From sending until the response headers arrive (per attempt: each retry, redirect and auth round trip); 300000 unless set. */
  readonly response?: number;
  /** The longest silence while reading the response body; 300000 unless set. */
  readonly read?: number;
  /** The whole call, retries and redirects included. */
  readonly total?: number;
}

/** `response` and `read` when not set: 5 minutes, as undici's `headersTimeout`/`bodyTimeout`. */
export const DEFAULT_STALL_MS = 300_000;

/** Milliseconds to wait before retry number `attempt` (1 = the first retry). */
export type Backoff = (attempt: number) => number;

/**
 * `execution.retry`: off unless `limit` > 0.
 *
 * @example
 * c.execution.retry = { limit: 3 };                              // idempotent verbs, the usual statuses
 * c.execution.retry = { limit: 2, methods: ['GET', 'POST'], statusCodes: [503] };
 */
export interface RetryOptions {
  /** How many times to retry (0, the default, turns retries off). */
  readonly limit?: number;
  /** Which methods may be retried; the idempotent ones by default (GET, HEAD, PUT, DELETE, OPTIONS, TRACE, QUERY). */
  readonly methods?: readonly string[];
  /** Which statuses are retried; 408, 413, 429, 500, 502, 503, 504 by default. */
  readonly statusCodes?: readonly number[];
  /** Milliseconds to wait before retry number `attempt`; exponential with jitter by default (≈ 300 ms, 600 ms, 1.2 s, ... up to 10 s). */
  readonly backoff?: Backoff;
  /** The longest `Retry-After` waited for (ms, default 60 s): a response that asks for a longer wait is not retried, it goes to the handlers. */
  readonly maxRetryAfter?: number;
  /**
   * `true`: every attempt of a POST or PATCH carries one `Idempotency-Key` per call (a random
   * UUID, unless the request sets that header), and POST and PATCH may then be retried.
   */
  readonly idempotencyKey?: boolean;
}

/**
 * `execution.redirects`.
 *
 * @example
 * c.execution.redirects = { max: 3, sensitiveHeaders: ['X-Api-Key'] };
 */
export interface RedirectOptions {
  /** Follow 301, 302, 303, 307 and 308 (default `true`). */
  readonly follow?: boolean;
  /** Hops allowed (default 10); one more rejects with `RedirectError`. */
  readonly max?: number;
  /** Headers dropped, like `Authorization` and `Cookie`, when a hop goes to another origin. */
  readonly sensitiveHeaders?: readonly string[];
}

/** The execution options of every level, merged field by field (nearest level wins). */
export interface ExecutionOptions {
  readonly timeout: Timeouts;
  readonly retry: Required<Omit<RetryOptions, 'methods' | 'statusCodes'>> & {
    readonly methods: ReadonlySet<string>;
    readonly statusCodes: ReadonlySet<number>;
  };
  readonly redirects: { readonly follow: boolean; readonly max: number; readonly sensitiveHeaders: readonly string[] };
  readonly signal: AbortSignal | undefined;
  readonly maxResponseSize: number | undefined;
  /** where a debug line per wire request and response goes; none by default (`DEBUG=httpbuilder` sets stderr) */
  readonly logger: LogLine | undefined;
  /** every level's hooks, the client's first; `undefined` when there is none (the hook stages pass the call on) */
  readonly hooks: HookLists | undefined;
}

/** ≈ 300 ms × 2^(attempt−1), capped at 10 s, each wait between half and all of that (jitter spreads clients out). */
export const exponentialBackoff: Backoff = (attempt) => Math.min(10_000, 300 * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);

/** RFC 9110 §9.2.2: sending these twice has the effect of sending them once (and QUERY, draft-ietf-httpbis-safe-method-w-body). */
export const IDEMPOTENT_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'QUERY']);

export const DEFAULT_EXECUTION: ExecutionOptions = Object.freeze({
  timeout: Object.freeze({}),
  retry: Object.freeze({
    limit: 0,
    methods: IDEMPOTENT_METHODS,
    statusCodes: new Set([408, 413, 429, 500, 502, 503, 504]),
    backoff: exponentialBackoff,
    maxRetryAfter: 60_000,
    idempotencyKey: false,
  }),
  redirects: Object.freeze({ follow: true, max: 10, sensitiveHeaders: [] }),
  signal: undefined,
  maxResponseSize: undefined,
  logger: undefined,
  hooks: undefined,
});

/** What one level set. */
export interface ExecutionLayer {
  readonly timeout: Timeouts | undefined;
  readonly retry: RetryOptions | undefined;
  readonly redirects: RedirectOptions | undefined;
  readonly signal: AbortSignal | undefined;
  readonly maxResponseSize: number | undefined;
  readonly logger: Logger | false | undefined;
  readonly hooks: Hooks | undefined;
}

/** `layer` over `base`, each option field by field, checked so a typo fails before anything is sent. */
export function mergeExecution(base: ExecutionOptions, layer: ExecutionLayer): ExecutionOptions {
  const { timeout, retry, redirects, signal, maxResponseSize, logger, hooks } = layer;
  if (
    timeout === undefined &&
    retry === undefined &&
    redirects === undefined &&
    signal === undefined &&
    maxResponseSize === undefined &&
    logger === undefined &&
    hooks === undefined
  )
    return base;
  return {
    timeout: timeout === undefined ? base.timeout : { ...base.timeout, ...checkTimeouts(timeout) },
    retry: retry === undefined ? base.retry : mergeRetry(base.retry, retry),
    redirects: redirects === undefined ? base.redirects : mergeRedirects(base.redirects, redirects),
    signal: signal === undefined ? base.signal : checkSignal(signal),
    maxResponseSize: maxResponseSize === undefined ? base.maxResponseSize : checkWhole(maxResponseSize, 'execution.maxResponseSize', 1),
    logger: logger === undefined ? base.logger : toLogLine(logger),
    // added to the outer levels' hooks, as interceptors are, not replacing them
    hooks: hooks === undefined ? base.hooks : mergeHooks(base.hooks, hooks),
  };
}

const PHASES = new Set(['connect', 'response', 'read', 'total']);

function checkTimeouts(timeout: Timeouts): Timeouts {
  checkObject(timeout, 'execution.timeout', PHASES);
  for (const [phase, ms] of Object.entries(timeout)) if (ms !== undefined) checkMilliseconds(ms, `execution.timeout.${phase}`, 0);
  return timeout;
}

function mergeRetry(base: ExecutionOptions['retry'], retry: RetryOptions): ExecutionOptions['retry'] {
  checkObject(retry, 'execution.retry', new Set(['limit', 'methods', 'statusCodes', 'backoff', 'maxRetryAfter', 'idempotencyKey']));
  if (retry.backoff !== undefined && typeof retry.backoff !== 'function')
    throw new ConfigError('execution.retry.backoff must be a function (attempt) => milliseconds');
  if (retry.idempotencyKey !== undefined && typeof retry.idempotencyKey !== 'boolean')
    throw new ConfigError(`execution.retry.idempotencyKey must be true or false, not ${describeSetting(retry.idempotencyKey)}`);
  return {
    limit: retry.limit === undefined ? base.limit : checkWhole(retry.limit, 'execution.retry.limit', 0),
    methods:
      retry.methods === undefined
        ? base.methods
        : new Set(checkList(retry.methods, 'execution.retry.methods', (m) => typeof m === 'string').map((m) => m.toUpperCase())),
    statusCodes: retry.statusCodes === undefined ? base.statusCodes : new Set(checkList(retry.statusCodes, 'execution.retry.statusCodes', isStatus)),
    backoff: retry.backoff ?? base.backoff,
    maxRetryAfter: retry.maxRetryAfter === undefined ? base.maxRetryAfter : checkMilliseconds(retry.maxRetryAfter, 'execution.retry.maxRetryAfter', 0),
    idempotencyKey: retry.idempotencyKey ?? base.idempotencyKey,
  };
}

function mergeRedirects(base: ExecutionOptions['redirects'], redirects: RedirectOptions): ExecutionOptions['redirects'] {
  checkObject(redirects, 'execution.redirects', new Set(['follow', 'max', 'sensitiveHeaders']));
  if (redirects.follow !== undefined && typeof redirects.follow !== 'boolean') throw new ConfigError('execution.redirects.follow must be true or false');
  const sensitive = redirects.sensitiveHeaders;
  return {
    follow: redirects.follow ?? base.follow,
    max: redirects.max === undefined ? base.max : checkWhole(redirects.max, 'execution.redirects.max', 0),
    sensitiveHeaders:
      sensitive === undefined
        ? base.sensitiveHeaders
        : checkList(sensitive, 'execution.redirects.sensitiveHeaders', (h) => typeof h === 'string').map((h) => h.toLowerCase()),
  };
}

/** @internal `value` as an object of options, each one of `known`. */
export function checkObject(value: object, setting: string, known: ReadonlySet<string>): void {
  // a plain object: an array, a Date or a Map has no options to read, and was taken for an empty one
  if (!isRecord(value)) throw new ConfigError(`${setting} must be an object of options, not ${describeValue(value)}`);
  for (const key of Object.keys(value)) if (!known.has(key)) throw new ConfigError(`${setting} has no option '${key}' (known: ${[...known].join(', ')})`);
}

/** A count (retries, hops, bytes): a whole number, at least `min`. */
function checkWhole(value: unknown, setting: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
    throw new ConfigError(`${setting} must be a whole number >= ${min}, not ${describeSetting(value)}`);
  return value;
}

/** The longest wait a timer can hold: node fires a longer one after 1 ms (with a TimeoutOverflowWarning). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A wait in ms, at least `min`, that a timer can hold. */
function checkMilliseconds(value: unknown, setting: string, min: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min)
    throw new ConfigError(`${setting} must be a number >= ${min}, not ${describeSetting(value)}`);
  if (value > MAX_TIMER_MS)
    throw new ConfigError(`${setting} must be at most ${MAX_TIMER_MS} ms (about 24.8 days), not ${value}: a longer timer would fire at once`);
  return value;
}

function checkList<T>(value: readonly T[], setting: string, valid: (item: T) => boolean): T[] {
  if (!Array.isArray(value) || !value.every(valid)) throw new ConfigError(`${setting} must be an array of valid entries`);
  return [...(value as T[])];
}

function isStatus(code: unknown): boolean {
  return typeof code === 'number' && Number.isInteger(code) && code >= 100 && code <= 599;
}

function checkSignal(signal: AbortSignal): AbortSignal {
  if (
    typeof signal !== 'object' ||
    signal === null ||
    typeof signal.addEventListener !== 'function' ||
    typeof signal.removeEventListener !== 'function' ||
    typeof signal.aborted !== 'boolean'
  ) {
    throw new ConfigError('execution.signal must be an AbortSignal');
  }
  return signal;
}
