import type { WireRequest, WireResponse } from '../model/backend.js';
import { firstHeader } from '../model/response-headers.js';
import { originKey } from '../model/origin-key.js';
import { onStopped } from './call-control.js';
import { MAX_TIMER_MS } from '../config/execution-options.js';
import { retryAfterDelay } from './retry-after.js';
import type { OriginPacing } from './origin-pacing.js';
import type { Send, WireCall } from './plan.js';

/**
 * The pacing stage: each attempt waits while its origin is paused (a server's `429`/`503` with
 * `Retry-After`, noted for every call of the pool: {@link notePause}) and, with
 * `client.rateLimit`, for its turn. Below the cache (an answer from it is no attempt), above the
 * hooks (a signature is made when the attempt really goes). A pool with neither pays one check.
 */
export function pacing(next: Send): Send {
  return function sendPaced(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    const pacing = call.plan.pool.pacing;
    if (pacing.idle) return next(wire, call);
    return paced(next, wire, call, pacing, originKey(wire.secure, wire.hostname, wire.port));
  };
}

async function paced(next: Send, wire: WireRequest, call: WireCall, pacing: OriginPacing, origin: string): Promise<WireResponse> {
  // a time (a timer may fire a little early by this clock: asked again), or a turn still in flight
  for (let wait = pacing.wait(origin); typeof wait !== 'number' || wait > performance.now(); wait = pacing.wait(origin)) await waitFor(wait, call);
  const turn = pacing.take(origin);
  if (turn === undefined) return next(wire, call);
  try {
    return await next(wire, call);
  } finally {
    // counted from when its response came (or it failed): after the server saw it, whatever the transit or the handshake
    turn.settle(performance.now());
  }
}

/** Waits until `until` (performance.now() time) or until a turn settles; rejects when the call is stopped meanwhile (its control, its pool's close()). */
function waitFor(until: number | Promise<void>, call: WireCall): Promise<void> {
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const unlink = onStopped(call.control, call.plan.pool.stopped, (reason) => {
      stopped = true;
      clearTimeout(timer);
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the call's typed reason, as it is
      reject(reason);
    });
    if (stopped) return;
    const done = () => (unlink(), resolve());
    if (typeof until === 'number') timer = setTimeout(done, Math.min(Math.max(0, Math.ceil(until - performance.now())), MAX_TIMER_MS));
    else void until.then(done);
  });
}

/** The statuses whose `Retry-After` pauses the origin for every call. */
const BACKPRESSURE = new Set([429, 503]);

/**
 * A response of an attempt: a `429` or `503` with a `Retry-After` pauses new attempts to its
 * origin for every call of the pool, for that long (at most `retry.maxRetryAfter`), with or
 * without retries.
 */
export function notePause(response: Pick<WireResponse, 'statusCode' | 'headers'>, wire: WireRequest, call: WireCall): void {
  if (!BACKPRESSURE.has(response.statusCode)) return;
  const ms = retryAfterDelay(firstHeader(response.headers, 'retry-after'));
  if (ms !== undefined && ms > 0)
    call.plan.pool.pacing.pause(originKey(wire.secure, wire.hostname, wire.port), Math.min(ms, call.plan.execution.retry.maxRetryAfter));
}
