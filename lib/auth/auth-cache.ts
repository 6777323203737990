import type { DigestChallenge } from './digest.js';

/** What a protection space asked for last: Basic, or Digest with its nonce and how often it was used. */
export type SpaceState = { readonly scheme: 'basic' } | { readonly scheme: 'digest'; challenge: DigestChallenge; nc: number };

interface Space {
  readonly origin: string;
  /** Path prefixes from the challenge's `domain`; empty: the whole origin. */
  readonly prefixes: readonly string[];
  state: SpaceState;
}

/**
 * The protection spaces a client's requests were challenged in (RFC 7235 §2.2): the origin,
 * narrowed to the challenge's `domain` URIs when it lists any. Later requests into a space
 * answer at once, without waiting for a new challenge.
 */
export class AuthCache {
  readonly #spaces: Space[] = [];

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

  /** Remembers what `url`'s space asked for, replacing what it asked before. */
  remember(url: URL, state: SpaceState): Space {
    const prefixes = state.scheme === 'digest' ? domainPrefixes(state.challenge.domain, url) : [];
    const existing = this.#spaces.find((space) => space.origin === url.origin && same(space.prefixes, prefixes));
    if (existing) {
      existing.state = state;
      return existing;
    }
    const space = { origin: url.origin, prefixes, state };
    this.#spaces.push(space);
    return space;
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
