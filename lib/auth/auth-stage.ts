import { isStreamed, type WireRequest, type WireResponse } from '../model/backend.js';
import { ConfigError, HttpBuilderError, NetworkError } from '../core/errors.js';
import { DIGEST_ALGORITHMS } from './digest-math.js';
import type { AuthCache, SpaceState } from './auth-cache.js';
import type { Send, WireCall } from '../pipeline/plan.js';
import { basicAuthorization } from './credentials.js';
import { parseChallenges } from './challenges.js';
import { digestAuthorization, pickDigest } from './digest.js';
import { sameOrigin } from '../pipeline/build-url.js';
import { headerValues } from '../model/response-headers.js';
import { type UserCredentials } from '../config/auth-config.js';
import { sendWithBearer } from './bearer.js';

function isAuthorizationName(name: string): boolean {
  return name.toLowerCase() === 'authorization';
}

/**
 * The authorization stage: sends a bearer token (`bearer.ts`), or answers a `401` challenge
 * with the request's user and password — Basic, or Digest with the strongest algorithm offered. A protection space that challenged before
 * is answered up front. One try per fresh challenge (wrong credentials get the 401 back, never
 * a loop), plus one more when the server says the nonce was `stale`.
 */
export function authorization(next: Send): Send {
  return function sendAuthorized(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    const { credentials, target } = call.plan;
    // a caller's own Authorization header is theirs to manage; an interceptor or a redirect that
    // moved the request to another origin takes it out of the credentials' reach
    if (!credentials || !sameOrigin(wire, target) || Object.keys(wire.headers).some(isAuthorizationName)) {
      return next(wire, call); // not async: no extra promise when there is nothing to answer
    }
    if (credentials.scheme === 'bearer') return sendWithBearer(next, wire, call, credentials);
    return answerChallenges(next, wire, call, credentials);
  };
}

async function answerChallenges(next: Send, wire: WireRequest, call: WireCall, credentials: UserCredentials): Promise<WireResponse> {
  call.unanswered = undefined; // what an earlier hop or attempt could not answer is not this one's
  const cache = call.plan.pool.authCache;
  const url = new URL(wire.url);
  const space = cache.find(url);
  let expected: string | undefined;
  let header: string | undefined;
  // answer up front only in the scheme these credentials are for: never a Digest password as Basic
  if (space && space.state.scheme === credentials.scheme) ({ header, expected } = answer(space.state, credentials, wire, cache, url));
  else if (!space && credentials.preemptive && credentials.scheme === 'basic') header = basicAuthorization(credentials);
  let response = await next(withAuthorization(wire, header), call);
  // a Basic answer sent up front was the one try (a cached Digest nonce may just have expired)
  let answeredFresh = header !== undefined && credentials.scheme === 'basic';
  let answeredStale = false;
  while (response.statusCode === 401) {
    const challenges = parseChallenges(headerValues(response.headers, 'www-authenticate'));
    const state = stateFor(challenges, credentials);
    const stale = challenges.some((c) => c.scheme === 'digest' && c.params.stale?.toLowerCase() === 'true');
    if (!state) {
      call.unanswered = unanswerable(challenges, credentials);
      break;
    }
    // answered a fresh challenge already: the credentials are wrong (or, once, the nonce went stale)
    if (answeredFresh && (!stale || answeredStale)) break;
    if (isStreamed(wire.body)) {
      response.discard();
      throw new ConfigError(
        'the server asked for credentials, but the request body is a stream that cannot be sent again: send it as bytes, or answer up front with auth.basic(user, password, { preemptive: true })',
      );
    }
    answeredStale ||= answeredFresh;
    answeredFresh = true;
    response.discard();
    const remembered = cache.remember(url, state);
    ({ header, expected } = answer(remembered.state, credentials, wire, cache, url));
    response = await next(withAuthorization(wire, header), call);
  }
  if (response.statusCode < 400) verifyInfo(response, cache, url, expected);
  return response;
}

/**
 * Why no challenge could be answered, when the reason is ours (a Digest algorithm or qop we do
 * not support), so the 401's HttpException says so instead of looking like wrong credentials.
 */
function unanswerable(challenges: ReturnType<typeof parseChallenges>, credentials: UserCredentials): Error | undefined {
  if (credentials.scheme === 'basic') return undefined;
  const digests = challenges.filter((c) => c.scheme === 'digest');
  if (digests.length === 0) return undefined;
  return new HttpBuilderError(`the server's Digest challenge could not be answered: ${digests.map(whyNot).join('; ')}`);
}

/** What in a Digest challenge we cannot answer. */
function whyNot(challenge: ReturnType<typeof parseChallenges>[number]): string {
  const { algorithm = 'MD5', qop, nonce } = challenge.params;
  if (!nonce) return 'it has no nonce';
  if (!DIGEST_ALGORITHMS.some((known) => known.toLowerCase() === algorithm.toLowerCase())) {
    return `algorithm ${algorithm} is not supported (${DIGEST_ALGORITHMS.join(', ')} are)`;
  }
  return `qop ${qop} is not supported (auth and auth-int are)`;
}

/** The state to remember for a challenge we can answer with these credentials, if any. */
function stateFor(challenges: ReturnType<typeof parseChallenges>, credentials: UserCredentials): SpaceState | undefined {
  if (credentials.scheme !== 'basic') {
    const challenge = pickDigest(challenges);
    if (challenge) return { scheme: 'digest', challenge };
  }
  if (credentials.scheme !== 'digest' && challenges.some((c) => c.scheme === 'basic')) return { scheme: 'basic' };
  return undefined;
}

function answer(
  state: SpaceState,
  credentials: UserCredentials,
  wire: WireRequest,
  cache: AuthCache,
  url: URL,
): { header: string | undefined; expected?: string } {
  if (state.scheme === 'basic') return { header: basicAuthorization(credentials) };
  // auth-int hashes the body: a stream's bytes are not known up front, so wait for the challenge
  if (state.challenge.qop === 'auth-int' && isStreamed(wire.body)) return { header: undefined };
  const { header, rspauth } = digestAuthorization(state.challenge, {
    user: credentials.user,
    password: credentials.password,
    method: wire.method,
    uri: wire.target,
    nc: cache.nextNonceCount(url.origin, state.challenge.nonce),
    // only auth-int hashes the body: asking for the bytes otherwise would make a text body's for nothing
    body: state.challenge.qop === 'auth-int' ? wire.body?.bytes : undefined,
  });
  // with auth-int, rspauth covers a body the RFCs leave ambiguous (request or response): not checked
  return { header, expected: state.challenge.qop === 'auth-int' ? undefined : rspauth };
}

/** `Authentication-Info` (RFC 7616 §3.5): the next nonce to use, and proof the server knows the password. */
function verifyInfo(response: WireResponse, cache: AuthCache, url: URL, expected: string | undefined): void {
  const value = headerValues(response.headers, 'authentication-info').join(', ');
  if (!value || expected === undefined) return;
  // the same auth-param grammar as a challenge, under a made-up scheme name
  const info = parseChallenges([`info ${value}`])[0]?.params ?? {};
  if (info.rspauth !== undefined && info.rspauth.toLowerCase() !== expected) {
    response.discard();
    throw new NetworkError(`the server's Authentication-Info does not prove it knows the password (rspauth mismatch) (${url.origin})`, 'other');
  }
  const space = cache.find(url);
  if (info.nextnonce && space?.state.scheme === 'digest' && info.nextnonce !== space.state.challenge.nonce) {
    space.state = { scheme: 'digest', challenge: { ...space.state.challenge, nonce: info.nextnonce } };
  }
}

function withAuthorization(wire: WireRequest, header: string | undefined): WireRequest {
  return header === undefined ? wire : { ...wire, headers: { ...wire.headers, Authorization: header } };
}
