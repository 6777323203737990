/**
 * The order contenders take turns in, shuffled afresh for every slice. V8's major garbage
 * collection (about every 4,000 fetch requests) locks onto any fixed pattern's period and then
 * lands on the same contender for minutes, each time costing it ~40 µs/req more
 * (docs/performance.md, "What the research tools found"); a shuffled order has no period.
 * Seeded, so that a schedule can be repeated.
 *
 * @module
 */

/** The largest seed (seeds are 32-bit unsigned integers). */
export const MAX_SEED = 2 ** 32 - 1;

/**
 * A seed of its own for one part of a run (a process, a scenario), from the run's seed and a
 * label naming that part (FNV-1a over both): unrelated for different labels, and the same
 * whenever the same part runs again, whatever else is selected.
 */
export function derivedSeed(seed: number, label: string): number {
  let hash = 0x811c9dc5;
  for (const char of `${seed >>> 0}:${label}`) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash >>> 0;
}

/** Numbers in [0, 1) from a 32-bit seed (mulberry32): the same seed gives the same sequence. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/** `items` in a random order (Fisher–Yates), the input left as it is. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}
