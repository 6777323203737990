import { MAX_TIMER_MS, type Timeouts } from '../config/execution-options.js';
import { AbortError, TimeoutError, type HttpBuilderError } from '../core/errors.js';
import { urlForMessage } from '../core/redact.js';

/**
 * What can stop one call from outside: the caller's `execution.signal` and the `total`
 * timeout. Made only when one of those (or another timeout) is set, so a plain call pays
 * nothing for it. `signal` fires with the reason the call failed, which `reason` returns as
 * the typed error to reject with.
 */
export class CallControl {
  readonly #controller = new AbortController();
  readonly #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #unlink: (() => void) | undefined;
  #reason: HttpBuilderError | undefined;

  private constructor(
    readonly timeouts: Timeouts,
    readonly url: string,
    callerSignal: AbortSignal | undefined,
  ) {
    const total = timeouts.total;
    if (total) this.#timer = setTimeout(() => this.fail(timeoutError('total', total, url)), total);
    if (callerSignal) {
      const onAbort = () => this.fail(new AbortError(`the request to ${urlForMessage(url)} was aborted`, { cause: callerSignal.reason }));
      if (callerSignal.aborted) onAbort();
      else {
        callerSignal.addEventListener('abort', onAbort, { once: true });
        this.#unlink = () => callerSignal.removeEventListener('abort', onAbort);
      }
    }
  }

  /**
   * A control for a call, or `undefined` when nothing can stop it (no signal, no timeout set; `0`
   * is off). The default `response`/`read` limits are the transport's (`WireRequest.headersTimeout`
   * and `bodyTimeout`): a plain call pays nothing here for them.
   */
  static start(timeouts: Timeouts, signal: AbortSignal | undefined, url: string): CallControl | undefined {
    const { connect, response, read, total } = timeouts;
    if (signal === undefined && !connect && !response && !read && !total) return undefined;
    return new CallControl(timeouts, url, signal);
  }

  /** Fires when the call must stop. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** Why the call stopped, once it has. */
  get reason(): HttpBuilderError | undefined {
    return this.#reason;
  }

  /** Stops the call with `reason` (the first reason wins). */
  fail(reason: HttpBuilderError): void {
    if (this.#reason) return;
    this.#reason = reason;
    this.#controller.abort(reason);
  }

  /** Throws the reason when the call was stopped already (before a step that would start work). */
  check(): void {
    if (this.#reason) throw this.#reason;
  }

  /** Waits `ms`, or rejects with the reason when the call is stopped meanwhile. */
  sleep(ms: number): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.#reason) return reject(this.#reason);
      const onAbort = () => {
        clearTimeout(timer);
        reject(this.#reason ?? new Error('aborted'));
      };
      const timer = setTimeout(() => {
        this.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  /**
   * The call resolved while its body is still to be read (a `Stream`): the total timeout, which
   * bounds the call, is over; the signal still stops the reading until {@link dispose}.
   */
  resolved(): void {
    clearTimeout(this.#timer);
  }

  /** The call is over: timers and listeners go. */
  dispose(): void {
    clearTimeout(this.#timer);
    this.#unlink?.();
  }
}

/** Waits `ms` when no control exists (no abort to listen to). */
export function sleep(ms: number, control: CallControl | undefined): Promise<void> {
  const wait = timerWait(ms);
  return control ? control.sleep(wait) : new Promise((resolve) => setTimeout(resolve, wait));
}

/** A backoff's answer, held to what a timer can wait (longer fires at once, NaN too): what {@link sleep} really waits. */
export function timerWait(ms: number): number {
  return ms > 0 ? Math.min(ms, MAX_TIMER_MS) : 0;
}

/** `TimeoutError` for `phase`, naming the limit and where. */
export function timeoutError(phase: TimeoutError['phase'], ms: number, url: string): TimeoutError {
  return new TimeoutError(`${phase} timeout: ${PHASE_TEXT[phase]} within ${ms} ms (${urlForMessage(url)})`, phase);
}

const PHASE_TEXT: Readonly<Record<TimeoutError['phase'], string>> = {
  connect: 'no connection was established',
  response: 'no response headers arrived',
  read: 'no more of the response body arrived',
  total: 'the call did not complete',
};

/**
 * `pending`, or a rejection with `reason()` as soon as `signal` aborts: a timeout or the caller's
 * signal ends the wait even when `pending` never settles. `late` gets what settles after that
 * (a response to give up).
 */
export function untilSignal<T>(pending: PromiseLike<T>, signal: AbortSignal, reason: () => unknown, late?: (value: T) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the abort's reason, as it is
      reject(reason());
      if (late) pending.then(late, () => {});
    };
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what `pending` rejected with, as it is
        reject(error);
      },
    );
  });
}

/**
 * `pending` under the call's timeouts and signal, when it has any: what a stage waits for
 * besides the wire (a module loading at its first use, a token) must not hold the call past them.
 */
export function underControl<T>(pending: PromiseLike<T>, control: CallControl | undefined): Promise<T> {
  return control ? untilSignal(pending, control.signal, () => control.reason) : Promise.resolve(pending);
}

/**
 * Listens for what stops a call that waits (a `client.concurrency` slot, a rate-limit turn, a
 * shared exchange): its control (abort, total timeout) and the close() of its pool. `onStop`
 * runs at most once, at once when either has stopped already; the function returned stops
 * listening.
 *
 * @example
 * const unlink = onStopped(call.control, call.plan.pool.stopped, reject);
 */
export function onStopped(control: CallControl | undefined, pool: AbortSignal, onStop: (reason: unknown) => void): () => void {
  const stoppedAlready = control?.reason ?? (pool.aborted ? (pool.reason as unknown) : undefined);
  if (stoppedAlready !== undefined) {
    onStop(stoppedAlready);
    return () => {};
  }
  const byCall = () => (unlink(), onStop(control!.reason));
  const byPool = () => (unlink(), onStop(pool.reason));
  const unlink = () => {
    control?.signal.removeEventListener('abort', byCall);
    pool.removeEventListener('abort', byPool);
  };
  control?.signal.addEventListener('abort', byCall, { once: true });
  pool.addEventListener('abort', byPool, { once: true });
  return unlink;
}
