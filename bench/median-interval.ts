/**
 * How far one run's median of per-round ratios can be trusted: an interval for the median,
 * from the rounds alone (`summary.ts` judges the targets by it).
 *
 * @module
 */
/** A confidence interval for the median of a population, read off a sample of it. */
export interface MedianInterval {
  readonly low: number;
  readonly high: number;
  /** The chance that an interval made this way holds the population's median (at least the one asked for). */
  readonly coverage: number;
}

/**
 * A distribution-free interval for the median: the k-th smallest and k-th largest values, k as
 * large as keeps the coverage at least `confidence` (the count of values below the true median
 * is binomial(n, ½), whatever the distribution). It assumes only independent values (rounds of
 * one process are not quite that: read the coverage as nominal); with fewer than six values no
 * such interval reaches 95%, and the answer is `undefined`.
 *
 * @example
 * medianInterval([1.07, 1.17, 1.14, 0.96, 1.08, 1.19, 1.12, 1.17, 1.10]); // 9 values: the 2nd smallest to the 2nd largest, coverage 96%
 */
export function medianInterval(values: readonly number[], confidence = 0.95): MedianInterval | undefined {
  const n = values.length;
  const sorted = [...values].sort((a, b) => a - b);
  // P(binomial(n, ½) ≤ j) built term by term, each term C(n, j)·2⁻ⁿ from its logarithm: ½ⁿ alone
  // is 0 in floating point from n = 1075 on, and a running product would stay 0
  let logChoose = 0; // ln C(n, 0)
  let below = Math.exp(-n * Math.LN2);
  let best: MedianInterval | undefined;
  for (let k = 1; k <= n >> 1; k++) {
    const coverage = 1 - 2 * below; // P(x_(k) ≤ median ≤ x_(n+1-k)) = 1 − 2·P(B ≤ k−1)
    if (coverage < confidence) break;
    best = { low: sorted[k - 1], high: sorted[n - k], coverage };
    logChoose += Math.log(n - k + 1) - Math.log(k);
    below += Math.exp(logChoose - n * Math.LN2);
  }
  return best;
}
