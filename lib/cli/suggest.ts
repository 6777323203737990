/**
 * The candidate closest to `word` by edit distance (insertions, deletions, substitutions and
 * swaps of two neighbours, each 1), when it is close enough to be a typo: at most 2 edits, and
 * fewer than half of `word`'s length. `undefined` when none is.
 *
 * @example
 * closest('--jsn', ['--json', '--data']); // '--json'
 * closest('--zzz', ['--json']); // undefined
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.ceil(word.replace(/^-+/, '').length / 2) - 1);
  for (const candidate of candidates) {
    const distance = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (distance <= bestDistance && (best === undefined || distance < editDistance(word.toLowerCase(), best.toLowerCase()))) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/** Optimal string alignment distance: Levenshtein plus the swap of two neighbouring characters. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}

/**
 * ` (did you mean --json?)` for an unknown option close to a known one, else `''`. `names` are
 * the option table's long names (without dashes) and `shorts` its one-letter ones.
 *
 * @example
 * didYouMean('--jsn', ['json', 'data'], ['H']); // ' (did you mean --json?)'
 */
export function didYouMean(option: string, names: readonly string[], shorts: readonly string[] = []): string {
  const candidates = option.startsWith('--') ? names.map((name) => `--${name}`) : [...shorts.map((s) => `-${s}`), ...names.map((name) => `--${name}`)];
  const match = closest(option.split('=')[0], candidates);
  return match === undefined ? '' : ` (did you mean ${match}?)`;
}
