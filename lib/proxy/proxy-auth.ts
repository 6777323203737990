import { AuthCache, type SpaceState } from '../auth/auth-cache.js';
import { parseChallenges } from '../auth/challenges.js';
import { basicAuthorization } from '../auth/credentials.js';
import { digestAuthorization, pickDigest } from '../auth/digest.js';
import type { ProxyAnswers } from '../model/proxy-route.js';

/** A proxy's user and password (percent-decoded from its URL). */
export interface ProxyLogin {
  readonly user: string;
  readonly password: string;
}

const NO_ANSWERS: ProxyAnswers = { first: undefined, retry: () => undefined, refusedCredentials: false };

/** What a proxy gets until it asks for Digest: Basic, up front (as curl sends a proxy URL's credentials). */
const BASIC: SpaceState = { scheme: 'basic' };

/**
 * A proxy's credentials and what the proxy last asked for. They go with the first request or
 * `CONNECT` as Basic (as curl does: no 407 round trip per new tunnel); once the proxy has asked
 * for Digest, every later one answers with Digest up front, and Basic is never sent again. A `407 Proxy-Authenticate` is
 * answered by the server-auth rules (Basic or Digest, the strongest offered first; Basic once,
 * a Digest challenge once plus once more when the nonce went stale). The credentials stay in
 * private fields: nothing prints them.
 */
export class ProxyAuthorization {
  readonly #login: ProxyLogin | undefined;
  /** `Basic …` of the login, made once: it goes with every request until the proxy asks for Digest. */
  #basic: string | undefined;
  /** The proxy's last challenge we can answer; `undefined` until it challenged (Basic until then). */
  #state: SpaceState | undefined;
  /** Digest `nc` per nonce (the proxy is one protection space). */
  readonly #counts = new AuthCache();

  constructor(login: ProxyLogin | undefined) {
    this.#login = login;
  }

  /** The answers of one request (`CONNECT host:port`, or an absolute-form request to `uri`). */
  answers(method: string, uri: string): ProxyAnswers {
    return this.#login === undefined ? NO_ANSWERS : new Answers(this, method, uri);
  }

  /** @internal What to answer up front: the proxy's last challenge, Basic until it sent one. */
  get state(): SpaceState {
    return this.#state ?? BASIC;
  }

  /**
   * @internal Remembers a challenge we can answer; `undefined` when there is none among `values`.
   * Once the proxy has asked for Digest, Basic is no answer: a 407 asking only for Basic (which
   * anyone on the way to the proxy can forge) would get the password in clear, for good.
   */
  challenged(values: readonly string[]): { state: SpaceState; stale: boolean } | undefined {
    const challenges = parseChallenges(values);
    const digest = pickDigest(challenges);
    if (digest === undefined) {
      if (this.#state?.scheme === 'digest' || !challenges.some((c) => c.scheme === 'basic')) return undefined;
      return { state: (this.#state = BASIC), stale: false };
    }
    const state: SpaceState = (this.#state = { scheme: 'digest', challenge: digest });
    const stale = challenges.some((c) => c.scheme === 'digest' && c.params.stale?.toLowerCase() === 'true');
    return { state, stale };
  }

  /** @internal `Proxy-Authorization` for `state`, for `method` on `uri`. */
  header(state: SpaceState, method: string, uri: string): string {
    const login = this.#login!;
    if (state.scheme === 'basic') return (this.#basic ??= basicAuthorization(login));
    // no body hashing: pickDigest prefers qop=auth, and a proxy that offers only auth-int gets an empty body's hash
    return digestAuthorization(state.challenge, {
      user: login.user,
      password: login.password,
      method,
      uri,
      nc: this.#counts.nextNonceCount('proxy', state.challenge.nonce),
      body: undefined,
    }).header;
  }
}

/**
 * One request's tries: up front (Basic, or Digest once the proxy asked for it), then once per
 * fresh challenge of a scheme not tried yet. A Basic sent up front does not answer a Digest
 * challenge: a Digest-only proxy gets its Digest answer after refusing the Basic.
 */
class Answers implements ProxyAnswers {
  readonly first: string;
  refusedCredentials = false;
  /** Basic went with this request: another Basic challenge means the credentials are wrong. */
  #sentBasic: boolean;
  /** A Digest challenge of this request was answered: another, not stale, means they are wrong (a remembered nonce sent up front does not count: it may just have expired). */
  #answeredDigest = false;
  #answeredStale = false;

  constructor(
    private readonly owner: ProxyAuthorization,
    private readonly method: string,
    private readonly uri: string,
  ) {
    const state = owner.state;
    this.first = owner.header(state, method, uri);
    this.#sentBasic = state.scheme === 'basic';
  }

  retry(challenges: readonly string[]): string | undefined {
    const challenge = this.owner.challenged(challenges);
    if (!challenge) return undefined; // nothing we can answer (Negotiate, NTLM, ...)
    if (challenge.state.scheme === 'basic') {
      if (this.#sentBasic) return this.#refused();
      this.#sentBasic = true;
    } else {
      if (this.#answeredDigest && (!challenge.stale || this.#answeredStale)) return this.#refused();
      this.#answeredStale ||= this.#answeredDigest;
      this.#answeredDigest = true;
    }
    return this.owner.header(challenge.state, this.method, this.uri);
  }

  #refused(): undefined {
    this.refusedCredentials = true;
    return undefined;
  }
}
