import type { WireRequest, WireResponse } from '../model/backend.js';
import { runStageWork } from './deferred-stage.js';
import type { Send, WireCall } from './plan.js';

/**
 * @internal The observation stage: with `client.telemetry` or a subscriber to the `httpbuilder:` channels,
 * each attempt is told (`attempt:start`, `attempt:end`) and gets its telemetry (a span current
 * while the hooks and the transport run, its trace context headers). Outside the hooks, so a
 * span is current in them and a signature covers the trace headers; inside the cache, so an
 * answer from it is no attempt. Without either, it passes the call on as it is; with one, its
 * work (observed-attempt.ts) is loaded by the first such call.
 */
export function observing(next: Send): Send {
  return function sendObserved(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    return call.observed === undefined ? next(wire, call) : runStageWork('observedAttempt', next, wire, call);
  };
}
