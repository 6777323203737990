import { randomBytes } from 'node:crypto';

/** The challenge a nonce was issued with: what an answer using that nonce must match. */
export interface NonceContext {
  realm: string;
  /** The `algorithm` parameter as sent in the challenge (absent = MD5). */
  algorithm: string | undefined;
  /** The qop values offered; empty = no `qop` parameter (the RFC 2069 compatible form). */
  qop: readonly string[];
  /** The `opaque` sent with the challenge, if any. */
  opaque: string | undefined;
  /** True when the challenge said `userhash=true`. */
  userhash: boolean;
}

/** One issued nonce and what has happened to it. */
export interface NonceEntry {
  readonly context: NonceContext;
  /** True once the nonce is no longer accepted (an answer with a right digest gets `stale=true`). */
  expired: boolean;
  /** The `nc` values already accepted with this nonce (8 hex digits as received). */
  readonly usedNc: Set<string>;
}

/** A random value for a nonce, cnonce or opaque: 33 bytes from the CSPRNG as base64 (44 characters, may hold `/` and `+`). */
export function randomNonce(): string {
  return randomBytes(33).toString('base64');
}

/** The nonces one Digest route has issued, with their challenge and per-nonce `nc` tracking. */
export class NonceBook {
  readonly #entries = new Map<string, NonceEntry>();

  /** Issues a fresh random nonce bound to `context`. */
  issue(context: NonceContext): string {
    let nonce = randomNonce();
    while (this.#entries.has(nonce)) nonce = randomNonce();
    this.register(nonce, context);
    return nonce;
  }

  /** Accepts a nonce chosen elsewhere (e.g. written into an extra raw challenge). */
  register(nonce: string, context: NonceContext): void {
    if (!this.#entries.has(nonce)) this.#entries.set(nonce, { context, expired: false, usedNc: new Set() });
  }

  /** The entry of an issued nonce, or undefined for a nonce this route never sent. */
  lookup(nonce: string): NonceEntry | undefined {
    return this.#entries.get(nonce);
  }

  /**
   * Records that `nc` has been used with `nonce`; false when it already was (a replay).
   * Any unused value is accepted, so concurrent requests may arrive out of order.
   */
  claimNc(nonce: string, nc: string): boolean {
    const entry = this.#entries.get(nonce);
    if (entry === undefined) return false;
    const key = nc.toLowerCase();
    if (entry.usedNc.has(key)) return false;
    entry.usedNc.add(key);
    return true;
  }
}
