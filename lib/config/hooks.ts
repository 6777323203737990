import { ConfigError, type HttpBuilderError } from '../core/errors.js';
import { describeValue } from '../core/describe-value.js';
import { isRecord } from '../core/scalar.js';
import type { ResponseHeaders } from '../model/response-headers.js';
import type { Timings } from '../core/timings.js';

/**
 * One wire exchange as the hooks see it: every redirect hop, retry and authentication round is
 * an attempt of its own. The same object is passed to every hook about that attempt, so it can
 * key a `WeakMap` (a start time, a span).
 *
 * @example
 * c.execution.hooks = {
 *   beforeAttempt(attempt) {
 *     attempt.headers['X-Signature'] = sign(`${attempt.method}\n${attempt.target}\n`, attempt.body);
 *   },
 * };
 */
export interface Attempt {
  /** Upper-case method. */
  readonly method: string;
  /** The full URL of this attempt (a redirect hop's own). */
  readonly url: string;
  /** Path and query exactly as they go on the request line: what a signature over the request-target covers. */
  readonly target: string;
  /**
   * The headers this attempt sends, names as written: a copy of its own. What `beforeAttempt`
   * sets or deletes here is what goes on the wire, for this attempt only (a retry or the next
   * hop starts again from the request). `Host` and the transport's own headers are not in it.
   */
  readonly headers: Record<string, string>;
  /** The body bytes when the body is in memory (read them, do not change them); `undefined` with no body or a streamed one. */
  readonly body: Uint8Array | undefined;
}

/**
 * What `afterAttempt` sees of the response: its head, before the body is read.
 *
 * @example
 * c.execution.hooks = { afterAttempt: (attempt, response) => metrics.count(response.statusCode) };
 */
export interface AttemptResponse {
  readonly statusCode: number;
  /** The reason phrase as sent (may be empty; HTTP/2 has none). */
  readonly message: string;
  /** Case-insensitive lookup, every value kept. */
  readonly headers: ResponseHeaders;
  /** When each step of this attempt happened so far (`end` comes once the body is read). */
  readonly timings: Timings;
}

/**
 * Why and when a retry comes (`beforeRetry`).
 *
 * @example
 * c.execution.hooks = {
 *   beforeRetry: (attempt, { retryCount, delay, statusCode, error }) =>
 *     console.warn(`retry ${retryCount} of ${attempt.url} in ${delay} ms (${statusCode ?? error?.name})`),
 * };
 */
export interface RetryInfo {
  /** The failure retried (a `NetworkError` or a `TimeoutError`); `undefined` when a status is retried. */
  readonly error?: Error;
  /** The status retried (a 503, ...); `undefined` when a failure is retried. */
  readonly statusCode?: number;
  /** 1 before the first retry, 2 before the second, ... */
  readonly retryCount: number;
  /** Milliseconds the retry is about to wait (`Retry-After` or the backoff). */
  readonly delay: number;
}

/**
 * Where a redirect is about to go (`beforeRedirect`).
 *
 * @example
 * c.execution.hooks = { beforeRedirect: (from, to) => void (to.headers['X-Hop-From'] = from.url) };
 */
export interface RedirectTarget {
  /** The Location, resolved against the request that got the redirect. */
  readonly url: string;
  /** The next hop's method (a 303 turns a POST into a GET). */
  readonly method: string;
  /**
   * The headers the next hop starts from (credentials already dropped when it goes to another
   * origin): a copy; what is set here goes to that hop and the ones after it.
   */
  readonly headers: Record<string, string>;
  /** The redirect status: 301, 302, 303, 307 or 308. */
  readonly statusCode: number;
}

/**
 * `c.execution.hooks`: called for every wire exchange — each redirect hop, retry and
 * authentication round — sync or async (a returned promise is awaited). A hook that throws fails the call with that very error
 * (never retried, the connection released). A request's hooks run in addition to its client's,
 * the client's first. See docs/hooks.md.
 *
 * @example
 * c.execution.hooks = {
 *   beforeAttempt: (attempt) => void (attempt.headers['X-Sent-At'] = new Date().toISOString()),
 *   afterAttempt: (attempt, response) => console.log(attempt.method, attempt.url, response.statusCode, response.timings.phases.firstByte),
 *   afterAttemptError: (attempt, error) => console.warn(attempt.url, error.code, error.timings?.phases.total),
 *   beforeRetry: (attempt, retry) => console.log(`retry ${retry.retryCount} in ${retry.delay} ms`),
 *   beforeRedirect: (from, to) => console.log(`${from.url} → ${to.url}`),
 * };
 */
export interface Hooks {
  /** Before each attempt goes out, with its final headers (credentials, cookies and proxy answers included): sign it here. */
  beforeAttempt?(attempt: Attempt): unknown;
  /** When each attempt's response head arrives, before its body is read (a redirect's, a retried one's, a 401 challenge's too). */
  afterAttempt?(attempt: Attempt, response: AttemptResponse): unknown;
  /**
   * When an attempt ends without a response (a timeout, a reset, a refused connection, an abort),
   * before any retry: `error` is the typed error (`NetworkError`, `TimeoutError`, ...) with the
   * attempt's `timings`. Nothing sent (a bad setting) is no attempt.
   */
  afterAttemptError?(attempt: Attempt, error: HttpBuilderError): unknown;
  /** Before a retry waits: `attempt` is the one that failed. */
  beforeRetry?(attempt: Attempt, retry: RetryInfo): unknown;
  /** Before a redirect is followed: `from` is the attempt that got it; `to.headers` may be changed. */
  beforeRedirect?(from: Attempt, to: RedirectTarget): unknown;
}

/** Every level's hooks of each kind, the client's first; each bound to the object it was set on (the pipeline's, not for callers). */
export interface HookLists {
  readonly beforeAttempt: ReadonlyArray<NonNullable<Hooks['beforeAttempt']>>;
  readonly afterAttempt: ReadonlyArray<NonNullable<Hooks['afterAttempt']>>;
  readonly afterAttemptError: ReadonlyArray<NonNullable<Hooks['afterAttemptError']>>;
  readonly beforeRetry: ReadonlyArray<NonNullable<Hooks['beforeRetry']>>;
  readonly beforeRedirect: ReadonlyArray<NonNullable<Hooks['beforeRedirect']>>;
}

const HOOK_NAMES = ['beforeAttempt', 'afterAttempt', 'afterAttemptError', 'beforeRetry', 'beforeRedirect'] as const;
const EMPTY: HookLists = Object.freeze({ beforeAttempt: [], afterAttempt: [], afterAttemptError: [], beforeRetry: [], beforeRedirect: [] });

/**
 * `layer`'s hooks after `base`'s (as interceptors add up, the outer level's first), checked: an
 * unknown name or a hook that is no function is a ConfigError naming it. `undefined` when no
 * level has a hook, so a call without hooks is not looked at by the hook stages.
 */
export function mergeHooks(base: HookLists | undefined, layer: Hooks): HookLists | undefined {
  if (!isRecord(layer)) throw new ConfigError(`execution.hooks must be an object of hooks (${HOOK_NAMES.join(', ')}), not ${describeValue(layer)}`);
  for (const key of Object.keys(layer)) {
    if (!(HOOK_NAMES as readonly string[]).includes(key)) throw new ConfigError(`execution.hooks has no hook '${key}' (known: ${HOOK_NAMES.join(', ')})`);
  }
  const merged: Record<(typeof HOOK_NAMES)[number], unknown[]> = { ...(base ?? EMPTY) } as never;
  let added = false;
  for (const name of HOOK_NAMES) {
    // read, not listed: a class instance's methods live on its prototype
    const hook: unknown = layer[name];
    if (hook === undefined) continue;
    if (typeof hook !== 'function') throw new ConfigError(`execution.hooks.${name} must be a function, not ${describeValue(hook)}`);
    merged[name] = [...merged[name], (hook as (...args: unknown[]) => unknown).bind(layer)];
    added = true;
  }
  return added ? Object.freeze(merged as unknown as HookLists) : base;
}
