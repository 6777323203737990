import type { WireRequest, WireResponse } from '../model/backend.js';
import type { Send, WireCall } from '../pipeline/plan.js';
import { sameOrigin } from '../pipeline/build-url.js';

// The schemes' code is imported at the first call that has credentials, and kept: a client that
// never authenticates never loads it (a browser bundle leaves it in chunks of its own); Digest's
// hashes come later still, at the first Digest challenge (challenge-answers.ts).
let bearerScheme: typeof import('./bearer.js') | undefined;
let challengeAnswers: typeof import('./challenge-answers.js') | undefined;

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
      if (bearerScheme) return bearerScheme.sendWithBearer(next, wire, call, credentials);
      return import('./bearer.js').then((loaded) => (bearerScheme = loaded).sendWithBearer(next, wire, call, credentials));
    }
    if (challengeAnswers) return challengeAnswers.answerChallenges(next, wire, call, credentials);
    return import('./challenge-answers.js').then((loaded) => (challengeAnswers = loaded).answerChallenges(next, wire, call, credentials));
  };
}
