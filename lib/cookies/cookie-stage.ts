import type { WireRequest, WireResponse } from '../model/backend.js';
import { runStageWork } from '../pipeline/deferred-stage.js';
import type { Send, WireCall } from '../pipeline/plan.js';

/**
 * The cookie stage: with `client.cookies` on, each wire exchange (every hop, retry and auth
 * round) carries the jar's cookies for its URL, and the response's `Set-Cookie` are stored
 * (cookie-exchange.ts, loaded by the first such exchange).
 */
export function cookies(next: Send): Send {
  return function sendWithCookies(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    return call.plan.jar ? runStageWork('exchangeCookies', next, wire, call) : next(wire, call);
  };
}
