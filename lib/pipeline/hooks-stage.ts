import type { WireRequest, WireResponse } from '../model/backend.js';
import { runStageWork } from './deferred-stage.js';
import type { Send, WireCall } from './plan.js';

/**
 * The hook stage: with `execution.hooks` set, each wire exchange that reaches it (every redirect
 * hop, retry, authentication and proxy round) is an `Attempt`: `beforeAttempt` hooks see
 * and may change its final headers — the authorization, proxy and cookie stages are outside,
 * so theirs are set, but for the proxy's credentials, which no hook sees or changes — and `afterAttempt` hooks see its response head before anything reads the
 * body. The logging stage is inside: its lines are of the request as the hooks left it, and
 * time the round trip only. `beforeRetry` and `beforeRedirect` are called from the retry and
 * redirect stages (hooked-attempt.ts's, from retry-loop.ts and redirect-hops.ts).
 *
 * A hook's throw fails the call with what it threw: it travels wrapped (progress.ts), so the
 * transport's error mapping and the retry rules never take it for a network failure.
 */
export function hooks(next: Send): Send {
  return function sendWithHooks(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    // no hooks (the usual call): no copy, no extra promise; with hooks, their work (hooked-attempt.ts) is loaded by the first
    return call.plan.execution.hooks ? runStageWork('hooked', next, wire, call) : next(wire, call);
  };
}
