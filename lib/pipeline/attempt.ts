import { clientClosed, type Backend, type WireRequest, type WireResponse } from '../model/backend.js';
import type { HttpBuilderError } from '../core/errors.js';
import { timeoutError, untilSignal, type CallControl } from './call-control.js';
import type { WireCall } from './plan.js';
import { AttemptTimings } from '../core/timings.js';

/**
 * The innermost step of the wire stages: one round trip through the backend under the call's
 * control. The connect and response timeouts apply to it, the read timeout to its body, and
 * when the call stops (abort, total timeout) the transport is aborted and any pending read
 * rejects with the call's reason.
 */
export function sendAttempt(wire: WireRequest, call: WireCall): Promise<WireResponse> {
  // a retry or a redirect hop after close(): the pool sends nothing more, whatever the backend
  const { closed, backend } = call.plan.pool;
  if (closed) return Promise.reject(clientClosed());
  // each attempt its own timings, stamped by the backend as the connection goes: put on the request
  // itself, not a copy (a call's attempts go one after another, and a copy per attempt measured
  // several per cent of a GET on the native backend)
  (wire as { timings?: AttemptTimings }).timings = call.timings = new AttemptTimings();
  // not async: an uncontrolled call (the usual kind) pays no extra promise for this stage
  return call.control ? controlledAttempt(backend, wire, call.control) : backend.send(wire);
}

async function controlledAttempt(backend: Backend, wire: WireRequest, control: CallControl): Promise<WireResponse> {
  control.check();
  const { connect, response: responseMs, read } = control.timeouts;
  // one controller per attempt: a response timeout ends this attempt, not the call (a retry may follow)
  const attempt = new AbortController();
  let reason: HttpBuilderError | undefined;
  const stop = (why: HttpBuilderError | undefined) => {
    reason ??= why;
    attempt.abort(reason);
  };
  const onCallStopped = () => stop(control.reason);
  control.signal.addEventListener('abort', onCallStopped, { once: true });
  const unlink = () => control.signal.removeEventListener('abort', onCallStopped);
  const headersTimer = !responseMs ? undefined : setTimeout(() => stop(timeoutError('response', responseMs, wire.url)), responseMs);
  let response: WireResponse;
  try {
    // the transport may never settle (a socket node closed in silence after a 101 no one asked for): the signal ends the wait
    const sending = backend.send({ ...wire, signal: attempt.signal, connectTimeout: connect || undefined });
    response = await untilSignal(sending, attempt.signal, () => attempt.signal.reason, discardLate);
  } catch (error) {
    unlink();
    throw reason ?? error;
  } finally {
    clearTimeout(headersTimer);
  }
  if (reason) {
    unlink();
    response.discard();
    throw reason;
  }
  return guardedResponse(response, attempt.signal, () => reason, !read ? undefined : () => stop(timeoutError('read', read, wire.url)), read, unlink);
}

/**
 * The response whose body reads reject as soon as the attempt is aborted (whatever the
 * transport does with its signal once the headers are in), with the read timeout restarted
 * by every chunk. `done` runs once the body is finished with.
 */
function guardedResponse(
  response: WireResponse,
  signal: AbortSignal,
  reason: () => HttpBuilderError | undefined,
  onSilence: (() => void) | undefined,
  readMs: number | undefined,
  done: () => void,
): WireResponse {
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    done();
  };
  // rejects once the attempt is aborted; handled here so that an unread body never makes it unhandled
  const aborted = new Promise<never>((_, reject) => {
    const onAbort = () => {
      reject(reason() ?? new Error('aborted'));
      response.discard(); // stop the transport reading
    };
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  aborted.catch(() => {});
  const race = <T>(pending: Promise<T>): Promise<T> => Promise.race([pending, aborted]);
  async function* body(): AsyncGenerator<Uint8Array> {
    const iterator = response.body[Symbol.asyncIterator]();
    let timer = onSilence && setTimeout(onSilence, readMs);
    // a browser's or a Worker's setTimeout gives a number, which has no refresh(): set it anew
    const refreshes = typeof (timer as { refresh?: unknown } | undefined)?.refresh === 'function';
    try {
      for (let next = await race(iterator.next()); !next.done; next = await race(iterator.next())) {
        if (refreshes) timer!.refresh();
        else if (timer !== undefined) {
          clearTimeout(timer);
          timer = setTimeout(onSilence!, readMs);
        }
        yield next.value;
      }
    } finally {
      clearTimeout(timer);
      finish();
    }
  }
  const readAll = response.readAll && (() => response.readAll!());
  return {
    ...response,
    body: { [Symbol.asyncIterator]: body },
    // in one piece only without a read timeout (it needs to see every chunk)
    readAll: readAll && !onSilence ? () => race(readAll()).finally(finish) : undefined,
    discard: () => {
      finish();
      response.discard();
    },
  };
}

/** A response that came after its attempt was given up. */
function discardLate(response: WireResponse): void {
  response.discard();
}
