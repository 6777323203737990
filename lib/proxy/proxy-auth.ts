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

const NO_ANSWERS: ProxyAnswers = { first: undefined, retry: () => undefined };

/**
 * A proxy's credentials and what the proxy last asked for: the server-auth rules (Basic or
 * Digest, the strongest offered first, one try per fresh challenge plus one when the nonce went
 * stale) for `407 Proxy-Authenticate`. Once the proxy has challenged, every later request of
 * the client answers up front. The credentials stay in private fields: nothing prints them.
 */
export class ProxyAuthorization {
  readonly #login: ProxyLogin | undefined;
  /** The proxy's last challenge we can answer; `undefined` until it challenged. */
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

  /** @internal What the proxy asked for last. */
  get state(): SpaceState | undefined {
    return this.#state;
  }

  /** @internal Remembers a challenge we can answer; `undefined` when there is none among `values`. */
  challenged(values: readonly string[]): { state: SpaceState; stale: boolean } | undefined {
    const challenges = parseChallenges(values);
    const digest = pickDigest(challenges);
    const state: SpaceState | undefined = digest
      ? { scheme: 'digest', challenge: digest }
      : challenges.some((c) => c.scheme === 'basic')
        ? { scheme: 'basic' }
        : undefined;
    if (!state) return undefined;
    this.#state = state;
    const stale = challenges.some((c) => c.scheme === 'digest' && c.params.stale?.toLowerCase() === 'true');
    return { state, stale };
  }

  /** @internal `Proxy-Authorization` for `state`, for `method` on `uri`. */
  header(state: SpaceState, method: string, uri: string): string {
    const login = this.#login!;
    if (state.scheme === 'basic') return basicAuthorization(login);
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

/** One request's tries: up front when the proxy challenged before, then once per fresh challenge. */
class Answers implements ProxyAnswers {
  readonly first: string | undefined;
  /** A fresh challenge was answered already: another 407 means the credentials are wrong. */
  #answeredFresh: boolean;
  #answeredStale = false;

  constructor(
    private readonly owner: ProxyAuthorization,
    private readonly method: string,
    private readonly uri: string,
  ) {
    const state = owner.state;
    this.first = state && owner.header(state, method, uri);
    // a Basic answer sent up front was the one try (a remembered Digest nonce may just have expired)
    this.#answeredFresh = state?.scheme === 'basic';
  }

  retry(challenges: readonly string[]): string | undefined {
    const challenge = this.owner.challenged(challenges);
    if (!challenge) return undefined;
    if (this.#answeredFresh && (!challenge.stale || this.#answeredStale)) return undefined;
    this.#answeredStale ||= this.#answeredFresh;
    this.#answeredFresh = true;
    return this.owner.header(challenge.state, this.method, this.uri);
  }
}
