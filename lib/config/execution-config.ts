import type { TlsOptions } from '../model/backend.js';
import type { RedirectOptions, RetryOptions, Timeouts } from './execution-options.js';
import { settingChecks } from './platform-checks.js';
import { assertClientLevel, type Scope } from './scope.js';
import { checkFunction } from './callbacks.js';
import { stringList } from '../core/scalar.js';
import { ConfigError } from '../core/errors.js';
import { escape } from '../core/text.js';
import { type Logger } from './logger.js';
import type { Hooks } from './hooks.js';
import type { RequestRecord } from '../model/request-record.js';

/**
 * How far a transfer is: bytes so far, the total when known (`Content-Length`), and the
 * percentage when the total is known.
 *
 * @example
 * c.execution.onDownloadProgress = ({ transferred, total, percent }) => bar.update(percent ?? 0);
 */
export interface Progress {
  readonly transferred: number;
  readonly total: number | undefined;
  readonly percent: number | undefined;
}

/** Receives progress as bytes move; called once per chunk, and once more at the end. */
export type ProgressListener = (progress: Progress) => void;

/** Performs the request and resolves to its result. */
export type Next = (request: RequestRecord) => Promise<unknown>;

/**
 * Wraps a call: `next(request)` performs it; what the interceptor returns is the result.
 *
 * @example
 * c.execution.interceptor('GET', async (request, next) => `Response: ${String(await next(request))}`);
 */
export type Interceptor = (request: RequestRecord, next: Next) => unknown;

/** The verbs a client has: an interceptor registered for another name would never run. */
const VERBS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

/**
 * How to run the exchange: `c.execution` inside a configuration block.
 *
 * @example
 * c.execution.interceptor('GET', async (request, next) => `Response: ${String(await next(request))}`);
 * c.execution.tls = { ca: fs.readFileSync('ca.pem', 'utf8') };   // client level only
 * c.execution.timeout = { connect: 2_000, total: 30_000 };
 * c.execution.retry = { limit: 3 };
 * c.execution.logger = (line) => console.error(line);   // → GET https://…, ← 200 GET https://… 12.3 ms 97 B
 * c.execution.hooks = { beforeAttempt: (attempt) => void (attempt.headers['X-Signature'] = sign(attempt)) };
 */
export class ExecutionConfig {
  /** @internal */
  interceptors: Array<{ methods: ReadonlySet<string>; intercept: Interceptor }> | undefined;
  #tls: TlsOptions | undefined;
  /**
   * Called as the response body arrives: `{ transferred, total, percent }` (total from
   * `Content-Length`, counted before decompression).
   */
  onDownloadProgress: ProgressListener | undefined;
  /** Called as a streamed request body goes out; an in-memory body reports once, when sent. */
  onUploadProgress: ProgressListener | undefined;
  /** Per-phase time limits in ms (`connect`, `response`, `read`, `total`); expiry rejects with `TimeoutError`. Merged per phase across levels. */
  timeout: Timeouts | undefined;
  /** Retries of failed attempts (off by default); merged per field across levels. */
  retry: RetryOptions | undefined;
  /** Redirect following (on by default, 10 hops); merged per field across levels. */
  redirects: RedirectOptions | undefined;
  /** Aborting it rejects the call with `AbortError`, also while the body is being read. */
  signal: AbortSignal | undefined;
  /** Largest response body accepted, in bytes after decompression; more rejects with `ResponseTooLargeError`. */
  maxResponseSize: number | undefined;
  /**
   * Debug logging: one line per wire request and one per response (method, URL, status, time,
   * bytes), URL credentials and credential-like query values redacted, headers never printed.
   * A function or an object with `debug()`; `false` turns it off (also `DEBUG=httpbuilder`'s).
   */
  logger: Logger | false | undefined;
  /**
   * Called for every wire exchange (each redirect hop, retry and authentication round):
   * `beforeAttempt`, `afterAttempt`, `beforeRetry`, `beforeRedirect`, sync or async. A request's
   * hooks run in addition to its client's, the client's first. See {@link Hooks} and docs/hooks.md.
   *
   * @example
   * c.execution.hooks = { beforeAttempt: (attempt) => void (attempt.headers['X-Signature'] = sign(attempt)) };
   */
  hooks: Hooks | undefined;

  constructor(private readonly scope: Scope) {}

  /**
   * Wraps every call of the given verbs (case-insensitive). First registered is outermost.
   * `next(request)` performs the request; pass a modified copy to change it.
   */
  interceptor(verbs: string | readonly string[], intercept: Interceptor): void {
    checkFunction(intercept, 'execution.interceptor()');
    const methods = new Set(stringList(verbs, 'execution.interceptor(): the verbs').map((v) => v.toUpperCase()));
    if (methods.size === 0) throw new ConfigError('execution.interceptor() needs at least one verb: it would never run');
    for (const verb of methods) {
      if (!VERBS.has(verb))
        throw new ConfigError(`execution.interceptor(): '${escape(verb)}' is not a verb of the client (${[...VERBS].join(', ')}): it would never run`);
    }
    (this.interceptors ??= []).push({ methods, intercept });
  }

  /** TLS settings (client level). Certificate checks are on unless `rejectUnauthorized: false`. */
  get tls(): TlsOptions | undefined {
    return this.#tls;
  }
  set tls(value: TlsOptions | undefined) {
    assertClientLevel(this.scope, 'execution.tls');
    this.#tls = value === undefined ? undefined : settingChecks().tls(value);
  }
}
