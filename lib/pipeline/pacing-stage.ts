import type { WireRequest, WireResponse } from '../model/backend.js';
import { firstHeader } from '../model/response-headers.js';
import { sleep, underControl } from './call-control.js';
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
    return paced(next, wire, call, pacing, originOf(wire));
  };
}

async function paced(next: Send, wire: WireRequest, call: WireCall, pacing: OriginPacing, origin: string): Promise<WireResponse> {
  for (let wait = pacing.wait(origin); typeof wait !== 'number' || wait > performance.now(); wait = pacing.wait(origin)) {
    // a turn in flight (under the call's control), or a time (a timer may fire a little early by this clock: asked again)
    await (typeof wait === 'number' ? sleep(Math.ceil(wait - performance.now()), call.control) : underControl(wait, call.control));
  }
  const turn = pacing.take(origin);
  if (turn === undefined) return next(wire, call);
  try {
    return await next(wire, call);
  } finally {
    // counted from when its response came (or it failed): after the server saw it, whatever the transit or the handshake
    turn.settle(performance.now());
  }
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
  if (ms !== undefined && ms > 0) call.plan.pool.pacing.pause(originOf(wire), Math.min(ms, call.plan.execution.retry.maxRetryAfter));
}

/** The origin of a request, as the pacing and the slots key it. */
export function originOf(wire: Pick<WireRequest, 'secure' | 'hostname' | 'port'>): string {
  return `${wire.secure ? 'https' : 'http'}://${wire.hostname.toLowerCase()}:${wire.port}`;
}
