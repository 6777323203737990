import type { WireRequest, WireResponse } from '../model/backend.js';
import type { Send, WireCall } from './plan.js';
import { stageWork } from './deferred-stage.js';
import { redirectLocation } from './redirect-location.js';

/**
 * The redirect stage: follows redirects by `execution.redirects`. 301/302 turn a POST into a
 * GET without body, 303 turns anything but HEAD into one; 307/308 keep method and body. A hop
 * to another origin (scheme, host or port) drops credentials, cookies and the sensitive
 * headers; a 307/308 that would carry a body there, or a body that cannot be sent again, is not
 * followed (the 3xx is the response). Each hop is recorded as the call's `last` request.
 * `beforeRedirect` hooks are called once a hop is known to be followed, the 3xx released.
 * Following the hops (redirect-hops.ts) loads with the first redirect to follow, as the
 * optional stages' work does (deferred-stage.ts).
 */
export function redirects(next: Send): Send {
  return function followRedirects(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    if (!call.plan.execution.redirects.follow) return next(wire, call);
    // most responses are no redirect: only those enter the async loop (its frame costs an allocation per request)
    return next(wire, call).then(afterFirst.bind(undefined, next, wire, call));
  };
}

/** The first response as it is when it is no redirect to follow, else the hops from it. */
function afterFirst(next: Send, first: WireRequest, call: WireCall, response: WireResponse): WireResponse | Promise<WireResponse> {
  const location = redirectLocation(response);
  if (location === undefined) return response;
  const loaded = stageWork.loaded;
  return loaded ? loaded.hopOn(next, first, response, location, call) : stageWork().then((work) => work.hopOn(next, first, response, location, call));
}
