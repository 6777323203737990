import type { WireRequest, WireResponse } from '../model/backend.js';
import type { Send, WireCall } from '../pipeline/plan.js';
import { sameOrigin } from '../pipeline/build-url.js';
import { loadOnce } from '../core/load-once.js';
import { underControl } from '../pipeline/call-control.js';

// The schemes' code is imported at the first call that has credentials, and kept: a client that
// never authenticates never loads it (a browser bundle leaves it in chunks of its own); Digest's
// hashes come later still, at the first Digest challenge (challenge-answers.ts).
const bearerScheme = loadOnce(() => import('./bearer.js'));
const challengeAnswers = loadOnce(() => import('./challenge-answers.js'));

function isAuthorizationName(name: string): boolean {
  return name.toLowerCase() === 'authorization';
}

/**
 * The authorization stage: sends a bearer token (`bearer.ts`), or answers a `401` challenge
 * with the request's user and password (`challenge-answers.ts`: Basic, or Digest with the
 * strongest algorithm offered). A call without credentials passes straight through.
 */
export function authorization(next: Send): Send {
  return function sendAuthorized(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    const { credentials, target } = call.plan;
    // a caller's own Authorization header is theirs to manage; an interceptor or a redirect that
    // moved the request to another origin takes it out of the credentials' reach
    if (!credentials || !sameOrigin(wire, target) || Object.keys(wire.headers).some(isAuthorizationName)) {
      return next(wire, call); // not async: no extra promise when there is nothing to answer
    }
    if (credentials.scheme === 'bearer') {
      if (bearerScheme.loaded) return bearerScheme.loaded.sendWithBearer(next, wire, call, credentials);
      return underControl(bearerScheme(), call.control).then((loaded) => loaded.sendWithBearer(next, wire, call, credentials));
    }
    if (challengeAnswers.loaded) return challengeAnswers.loaded.answerChallenges(next, wire, call, credentials);
    return underControl(challengeAnswers(), call.control).then((loaded) => loaded.answerChallenges(next, wire, call, credentials));
  };
}
