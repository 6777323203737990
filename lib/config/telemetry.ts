import type { HttpBuilderError } from '../core/errors.js';
import type { Timings } from '../core/timings.js';

/**
 * What `c.client.telemetry` takes: told of each attempt (every retry, redirect hop and
 * authentication round) as it starts, it answers with what to do around it. `openTelemetry()`
 * from `httpbuilder-ts/opentelemetry` makes one; implement it to feed another tracer.
 *
 * @example
 * const telemetry: Telemetry = {
 *   startAttempt: (attempt) => {
 *     const started = performance.now();
 *     return {
 *       headers: { 'X-Request-Id': crypto.randomUUID() },
 *       run: (send) => send(),
 *       end: (outcome) => console.log(attempt.method, attempt.url, outcome.statusCode ?? outcome.error?.code, performance.now() - started),
 *     };
 *   },
 * };
 * HttpBuilder.configure((c) => { c.client.telemetry = telemetry; });
 */
export interface Telemetry {
  startAttempt(attempt: TelemetryAttempt): AttemptTelemetry;
}

/** One attempt as telemetry sees it. */
export interface TelemetryAttempt {
  /** Upper-case method. */
  readonly method: string;
  /** The attempt's URL, credentials redacted (user info, credential-like query values) as in logs. */
  readonly url: string;
  /** The host (an IPv6 literal without brackets). */
  readonly serverAddress: string;
  readonly serverPort: number;
  /** 0 for a call's first attempt, 1 for the next (a retry, a redirect hop, an authentication round), ... */
  readonly resendCount: number;
}

/** What to do around one attempt. */
export interface AttemptTelemetry {
  /** Headers to send with this attempt (trace context: `traceparent`, `tracestate`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Runs the attempt (the hooks and the transport) inside this attempt's context: a span made current. */
  run<T>(send: () => T): T;
  /** The attempt ended: with a response head (`statusCode`), or without one (`error`). */
  end(outcome: AttemptOutcome): void;
}

/** How an attempt ended. */
export interface AttemptOutcome {
  readonly statusCode?: number;
  /** `'1.1'` or `'2.0'`, with a response. */
  readonly httpVersion?: string;
  /** The typed error of an attempt that got no response. */
  readonly error?: HttpBuilderError;
  readonly timings: Timings | undefined;
}
