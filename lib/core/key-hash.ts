// a module constant: looking `Math` up on every step is slow where globals are proxied (a jest vm context)
const { imul } = Math;

/**
 * A 128-bit non-cryptographic hash of a sequence of strings and byte arrays (two cyrb53 hashes
 * with different seeds, each keeping its two 32-bit lanes), for remembering that a key was seen
 * without keeping the key: fixed size whatever the key's length, and none of its text (a
 * credential in it) is retained. Not for anything an attacker may aim a collision at: a
 * collision only makes two keys look the same. Parts are length-prefixed, so `['ab', 'c']` and
 * `['a', 'bc']` differ. Plain arithmetic, no `node:crypto`: the core runs on web-standard primitives.
 * @internal
 *
 * @example
 * const key = new KeyHash().text(url).bytes(body).digest();
 */
export class KeyHash {
  // four 32-bit lanes: two per cyrb53 (seeds and multipliers differ)
  private readonly lanes = [0xdeadbeef, 0x41c6ce57, 0xdeadbeef ^ 0x9e3779b9, 0x41c6ce57 ^ 0x9e3779b9];

  /** Adds a string (its UTF-16 code units), after its length. */
  text(value: string): this {
    return this.units(value.length, value.length, (i) => value.charCodeAt(i));
  }

  /** Adds bytes, after their length (and a mark: bytes and a string of the same units differ). */
  bytes(value: Uint8Array): this {
    return this.units(-1 - value.length, value.length, (i) => value[i]);
  }

  /** The hash, as 32 hex digits. */
  digest(): string {
    const [a1, a2, b1, b2] = this.lanes;
    return [...final(a1, a2), ...final(b1, b2)].map((lane) => (lane >>> 0).toString(16).padStart(8, '0')).join('');
  }

  // the lanes in locals for the loop: a hot path when a cursor is large
  private units(head: number, count: number, unit: (i: number) => number): this {
    let [a1, a2, b1, b2] = this.lanes;
    for (let i = -1; i < count; i++) {
      const u = i < 0 ? head : unit(i);
      a1 = imul(a1 ^ u, 2654435761);
      a2 = imul(a2 ^ u, 1597334677);
      b1 = imul(b1 ^ u, 2246822519);
      b2 = imul(b2 ^ u, 3266489917);
    }
    this.lanes.splice(0, 4, a1, a2, b1, b2);
    return this;
  }
}

/** cyrb53's final mixing of its two lanes, both kept. */
function final(h1: number, h2: number): [number, number] {
  h1 = imul(h1 ^ (h1 >>> 16), 2246822507);
  h1 ^= imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = imul(h2 ^ (h2 >>> 16), 2246822507);
  h2 ^= imul(h1 ^ (h1 >>> 13), 3266489909);
  return [h1, h2];
}
