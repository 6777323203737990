import { isStreamed, type WireRequest, type WireResponse } from '../model/backend.js';
import { ConfigError, HttpBuilderError, NetworkError } from '../core/errors.js';
import { AuthCache, type SpaceState } from './auth-cache.js';
import type { Send, WireCall } from '../pipeline/plan.js';
import { basicAuthorization } from './credentials.js';
import { parseChallenges, type Challenge } from './challenges.js';
import type { DigestChallenge } from './digest.js';
import { headerValues } from '../model/response-headers.js';
import { type UserCredentials } from '../config/auth-config.js';
import { loadOnce } from '../core/load-once.js';
import { finalError } from '../core/final-error.js';
import { underControl } from '../pipeline/call-control.js';
import '../pipeline/shared-chunk.js'; // loads with the client's modules in one chunk

type DigestScheme = typeof import('./digest.js');

/** What answers a challenge: the `Authorization` to send, and the Digest `rspauth` the server should prove itself with. */
interface Answer {
  readonly header: string | undefined;
  readonly expected?: string;
}

/**
 * The Digest scheme, imported at the first Digest challenge and kept: its hashes are most of
 * auth's code, and a client that answers only Basic never loads them.
 */
const digestScheme = loadOnce((): Promise<DigestScheme> => import('./digest.js'));

/** Digest's module, under the call's timeouts; a load that fails lets the 401 in hand go (its connection is freed). */
async function loadDigest(call: WireCall, challenge: WireResponse): Promise<DigestScheme> {
  try {
    return await underControl(digestScheme(), call.control);
  } catch (error) {
    challenge.discard();
    throw error;
  }
}

/**
 * Answers `401` challenges with the request's user and password — Basic, or Digest with the
 * strongest algorithm offered. A protection space that challenged before is answered up front.
 * One try per fresh challenge (wrong credentials get the 401 back, never a loop), plus one more
 * when the server says the nonce was `stale`; a 401 to a Digest answer sent up front (its nonce
 * may have expired) takes that one more.
 */
export async function answerChallenges(next: Send, wire: WireRequest, call: WireCall, credentials: UserCredentials): Promise<WireResponse> {
  call.unanswered = undefined; // what an earlier hop or attempt could not answer is not this one's
  const cache = (call.plan.pool.auth.spaces ??= new AuthCache());
  const url = new URL(wire.url);
  const space = cache.find(url);
  let expected: string | undefined;
  let header: string | undefined;
  // answer up front only in the scheme these credentials are for: never a Digest password as Basic
  if (space && space.state.scheme === credentials.scheme) ({ header, expected } = await answer(space.state, credentials, wire, cache, url));
  else if (!space && credentials.preemptive && credentials.scheme === 'basic') header = basicAuthorization(credentials);
  let response = await next(withAuthorization(wire, header), call);
  // a Basic answer sent up front was the one try (a cached Digest nonce may just have expired)
  let answeredFresh = header !== undefined && credentials.scheme === 'basic';
  // a 401 to a Digest answer sent up front is its stale allowance: one fresh answer follows, no more
  let answeredStale = header !== undefined && credentials.scheme !== 'basic';
  while (response.statusCode === 401) {
    const challenges = parseChallenges(headerValues(response.headers, 'www-authenticate'));
    // Digest's code comes with the first Digest challenge these credentials may answer
    const digest = credentials.scheme !== 'basic' && challenges.some(isDigest) ? (digestScheme.loaded ?? (await loadDigest(call, response))) : undefined;
    const state = stateFor(challenges, credentials, digest);
    const stale = challenges.some((c) => isDigest(c) && c.params.stale?.toLowerCase() === 'true');
    if (!state) {
      call.unanswered = digest && unanswerable(challenges, digest);
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
    ({ header, expected } = await answer(remembered.state, credentials, wire, cache, url));
    response = await next(withAuthorization(wire, header), call);
  }
  if (response.statusCode < 400) verifyInfo(response, cache, url, expected);
  return response;
}

function isDigest(challenge: Challenge): boolean {
  return challenge.scheme === 'digest';
}

/**
 * Why no challenge could be answered, when the reason is ours (a Digest algorithm or qop we do
 * not support), so the 401's HttpException says so instead of looking like wrong credentials.
 */
function unanswerable(challenges: readonly Challenge[], digest: DigestScheme): Error {
  const reasons = challenges.filter(isDigest).map(digest.whyUnanswerable);
  return new HttpBuilderError(`the server's Digest challenge could not be answered: ${reasons.join('; ')}`);
}

/** The state to remember for a challenge we can answer with these credentials, if any (`digest`: loaded when Digest was offered). */
function stateFor(challenges: readonly Challenge[], credentials: UserCredentials, digest: DigestScheme | undefined): SpaceState | undefined {
  const challenge = digest?.pickDigest(challenges);
  if (challenge) return { scheme: 'digest', challenge };
  if (credentials.scheme !== 'digest' && challenges.some((c) => c.scheme === 'basic')) return { scheme: 'basic' };
  return undefined;
}

/** The answer to what the space asked for: Digest's once its module is loaded (at once after the first time). */
function answer(state: SpaceState, credentials: UserCredentials, wire: WireRequest, cache: AuthCache, url: URL): Answer | Promise<Answer> {
  if (state.scheme === 'basic') return { header: basicAuthorization(credentials) };
  if (digestScheme.loaded) return digestAnswer(digestScheme.loaded, state.challenge, credentials, wire, cache, url);
  return digestScheme().then((digest) => digestAnswer(digest, state.challenge, credentials, wire, cache, url));
}

function digestAnswer(digest: DigestScheme, challenge: DigestChallenge, credentials: UserCredentials, wire: WireRequest, cache: AuthCache, url: URL): Answer {
  // auth-int hashes the body: a stream's bytes are not known up front, so wait for the challenge
  if (challenge.qop === 'auth-int' && isStreamed(wire.body)) return { header: undefined };
  const { header, rspauth } = digest.digestAuthorization(challenge, {
    user: credentials.user,
    password: credentials.password,
    method: wire.method,
    uri: wire.target,
    nc: cache.nextNonceCount(url.origin, challenge.nonce),
    // only auth-int hashes the body: asking for the bytes otherwise would make a text body's for nothing
    body: challenge.qop === 'auth-int' ? wire.body?.bytes : undefined,
  });
  // with auth-int, rspauth covers a body the RFCs leave ambiguous (request or response): not checked
  return { header, expected: challenge.qop === 'auth-int' ? undefined : rspauth };
}

/** `Authentication-Info` (RFC 7616 §3.5): the next nonce to use, and proof the server knows the password. */
function verifyInfo(response: WireResponse, cache: AuthCache, url: URL, expected: string | undefined): void {
  const value = headerValues(response.headers, 'authentication-info').join(', ');
  if (!value || expected === undefined) return;
  // the same auth-param grammar as a challenge, under a made-up scheme name
  const info = parseChallenges([`info ${value}`])[0]?.params ?? {};
  if (info.rspauth !== undefined && info.rspauth.toLowerCase() !== expected) {
    response.discard();
    // final: retrying would hand the impostor more answers (and repeat a POST)
    throw finalError(new NetworkError(`the server's Authentication-Info does not prove it knows the password (rspauth mismatch) (${url.origin})`, 'other'));
  }
  const space = cache.find(url);
  if (info.nextnonce && space?.state.scheme === 'digest' && info.nextnonce !== space.state.challenge.nonce) {
    space.state = { scheme: 'digest', challenge: { ...space.state.challenge, nonce: info.nextnonce } };
  }
}

function withAuthorization(wire: WireRequest, header: string | undefined): WireRequest {
  return header === undefined ? wire : { ...wire, headers: { ...wire.headers, Authorization: header } };
}
