import { describe, expect, it } from '@jest/globals';
import type { Contender } from '../../bench/contender.js';
import { medianInterval } from '../../bench/median-interval.js';
import { summarise, type RunRecord } from '../../bench/summary.js';

describe('bench: the interval for a median of rounds', () => {
  it('is the k-th smallest to the k-th largest value, k as large as keeps 95% (the textbook order statistics)', () => {
    const ranks = (n: number) => medianInterval(Array.from({ length: n }, (_, i) => n - i)); // given in reverse: sorted inside
    expect(ranks(6)).toEqual({ low: 1, high: 6, coverage: 1 - 2 / 64 });
    expect(ranks(9)).toEqual({ low: 2, high: 8, coverage: 1 - (2 * 10) / 512 });
    // n = 36: P(B ≤ 11) = 1.44%, P(B ≤ 12) = 3.26% — so k = 12, and 13 would fall under 95%
    const wide = ranks(36)!;
    expect([wide.low, wide.high]).toEqual([12, 25]);
    expect(wide.coverage).toBeCloseTo(0.9712, 4);
  });

  it('gives none for fewer than six values, where even the whole range holds the median less than 95% of the time', () => {
    expect(medianInterval([1, 2, 3, 4, 5])).toBeUndefined();
    expect(medianInterval([])).toBeUndefined();
  });

  it('stays a real interval for thousands of values, where ½ⁿ is 0 in floating point', () => {
    // normal approximation: k ≈ n/2 − 0.98·√n, about 1,931 for n = 4,001
    const wide = medianInterval(Array.from({ length: 4001 }, (_, i) => i + 1))!;
    expect(wide.low).toBeGreaterThan(1900);
    expect(wide.low).toBeLessThan(1960);
    expect(wide.high).toBe(4002 - wide.low);
    expect(wide.coverage).toBeGreaterThanOrEqual(0.95);
    expect(wide.coverage).toBeLessThan(0.96);
  });

  it('holds the true median about as often as it says, on samples from a skewed distribution', () => {
    // Park–Miller: exact in doubles (48271 · 2³¹ < 2⁵³)
    let state = 12345;
    const random = () => (state = (state * 48271) % 2147483647) / 2147483647;
    // exponential with rate 1: median ln 2
    let held = 0;
    const trials = 4000;
    for (let t = 0; t < trials; t++) {
      const sample = Array.from({ length: 9 }, () => -Math.log(1 - random()));
      const interval = medianInterval(sample)!;
      if (interval.low <= Math.LN2 && Math.LN2 <= interval.high) held++;
    }
    expect(held / trials).toBeGreaterThan(0.94);
    expect(held / trials).toBeLessThan(0.98);
  });
});

describe('bench: a target is judged by the interval of its median', () => {
  const raw: Contender = { name: 'raw', description: '', open: () => Promise.reject(new Error('not opened')) };
  const library: Contender = { ...raw, name: 'library', comparedWith: 'raw', cpuRatioTarget: 1.1 };
  const run = (round: number, cpuUsPerReq: number): RunRecord => ({ round, order: 0, requests: 1000, wallMs: 1, cpuUserUs: cpuUsPerReq * 1000, cpuSystemUs: 0, reqPerSec: 1, cpuUsPerReq, peakRssBytes: 0, newConnections: 0, serverCpuUsPerReq: 0 });
  const verdict = (ratios: readonly number[]) => {
    const runs = new Map([
      [raw, ratios.map((_, i) => run(i + 1, 100))],
      [library, ratios.map((ratio, i) => run(i + 1, 100 * ratio))],
    ]);
    return summarise([raw, library], runs, new Map()).find((c) => c.name === 'library')!.vsCounterpart!;
  };

  it('met only when the whole interval is within the target, NOT met only when all of it is beyond, unsettled between', () => {
    expect(verdict([1.02, 1.05, 1.04, 1.06, 1.08, 1.03, 1.05, 1.07, 1.12]).verdict).toBe('met'); // one round above: outside the interval
    expect(verdict([1.02, 1.05, 1.04, 1.06, 1.12, 1.03, 1.05, 1.07, 1.12]).verdict).toBe('unsettled'); // the median 1.05 alone would have said met
    expect(verdict([1.12, 1.15, 1.14, 1.16, 1.18, 1.13, 1.15, 1.17, 1.05]).verdict).toBe('not met');
    expect(verdict([1.0, 1.0, 1.0, 1.0, 1.0]).verdict).toBe('unsettled'); // too few rounds for an interval
  });
});
