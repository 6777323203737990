import type { DigestChallenge } from './digest.js';
import type { BearerRefreshes } from './bearer-refreshes.js';

/** What a protection space asked for last: Basic, or Digest with its challenge. */
export type SpaceState = { readonly scheme: 'basic' } | { readonly scheme: 'digest'; readonly challenge: DigestChallenge };

/**
 * What a client's requests learn about authentication, shared by the clients derived from it.
 * Each part is made by the first request that needs it (the code that makes it is loaded then
 * too): a client that never authenticates has neither.
 */
export interface PoolAuth {
  /** The protection spaces its Basic and Digest credentials were challenged in. */
  spaces?: AuthCache;
  /**
   * What its requests know about bearer refreshes: the tokens refreshed, the refreshes running.
   * One per client, whatever the `refresh` function (a request block makes a new one per call):
   * the expired token says whose it is.
   */
  bearerRefreshes?: BearerRefreshes;
}

interface Space {
  readonly origin: string;
  /** Path prefixes from the challenge's `domain`; empty: the whole origin. */
  readonly prefixes: readonly string[];
  state: SpaceState;
}

/** How many nonces' counters to keep: servers rotate nonces, the map must not grow forever. */
const MAX_NONCES = 256;

/** How many protection spaces to keep: a server can name new `domain`s on every 401, the list must not grow forever. */
export const MAX_SPACES = 256;

/**
 * The protection spaces a client's requests were challenged in (RFC 7235 §2.2): the origin,
 * narrowed to the challenge's `domain` URIs when it lists any. Later requests into a space
 * answer at once, without waiting for a new challenge. Digest `nc` counts per nonce, however
 * often that nonce is challenged again or sent as `nextnonce`.
 */
export class AuthCache {
  readonly #spaces: Space[] = [];
  readonly #nonceCounts = new Map<string, number>();

  /** The space `url` falls in; the one with the longest matching `domain` prefix when several do. */
  find(url: URL): Space | undefined {
    let best: Space | undefined;
    let bestLength = -1;
    for (const space of this.#spaces) {
      if (space.origin !== url.origin) continue;
      const length = space.prefixes.length === 0 ? 0 : Math.max(-1, ...space.prefixes.filter((p) => url.pathname.startsWith(p)).map((p) => p.length));
      if (length > bestLength) [best, bestLength] = [space, length];
    }
    return best;
  }

  /** Remembers what `url`'s space asked for, replacing what it asked before; past {@link MAX_SPACES}, the oldest space goes. */
  remember(url: URL, state: SpaceState): Space {
    const prefixes = state.scheme === 'digest' ? domainPrefixes(state.challenge.domain, url) : [];
    const existing = this.#spaces.find((space) => space.origin === url.origin && same(space.prefixes, prefixes));
    if (existing) {
      existing.state = state;
      return existing;
    }
    const space = { origin: url.origin, prefixes, state };
    this.#spaces.push(space);
    if (this.#spaces.length > MAX_SPACES) this.#spaces.shift();
    return space;
  }

  /** The next `nc` for a nonce of an origin, taken before sending: concurrent requests never share one. */
  nextNonceCount(origin: string, nonce: string): number {
    const key = `${origin} ${nonce}`;
    const count = (this.#nonceCounts.get(key) ?? 0) + 1;
    this.#nonceCounts.delete(key); // re-inserted last: the oldest nonce is the first to go
    this.#nonceCounts.set(key, count);
    if (this.#nonceCounts.size > MAX_NONCES) this.#nonceCounts.delete(this.#nonceCounts.keys().next().value!);
    return count;
  }
}

/** `domain="/private/ https://h/other"` → the paths on this origin it covers. */
function domainPrefixes(domain: string | undefined, url: URL): string[] {
  if (!domain) return [];
  const prefixes: string[] = [];
  for (const entry of domain.split(/\s+/).filter(Boolean)) {
    try {
      const resolved = new URL(entry, url);
      if (resolved.origin === url.origin) prefixes.push(resolved.pathname);
    } catch {
      // a domain entry that is no URI protects nothing
    }
  }
  return prefixes;
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value, i) => value === b[i]);
}
