import { describe, expect, it } from '@jest/globals';
import { poolRuns } from '../../bench/pool-runs.js';
import type { BenchReport } from '../../bench/report.js';
import { judgedRounds } from '../../bench/summary.js';

/** A report with one targeted contender per scenario: only what pooling reads. */
function report(scenarios: Array<{ id: string; roundCpu: number[]; target?: number; keptFrom?: string }>): BenchReport {
  return {
    date: '2026-11-26T00:00:00.000Z',
    scenarios: scenarios.map(({ id, roundCpu, target = 1.1, keptFrom }) => ({
      id,
      title: `scenario ${id}`,
      keptFrom,
      contenders: [
        { name: 'lib', description: '', baseline: false, runs: [], comparedWith: 'raw', vsCounterpart: { against: 'raw', cpu: roundCpu.toSorted((a, b) => a - b)[(roundCpu.length - 1) >> 1], roundCpu, reqPerSec: 1, target } },
        { name: 'raw', description: '', baseline: false, runs: [] },
      ],
    })),
  } as unknown as BenchReport;
}

const RUN_1 = [1.02, 1.03, 1.04, 1.05, 1.06, 1.12];
const RUN_2 = [1.01, 1.03, 1.04, 1.05, 1.07, 1.13];

describe('bench: pooling the rounds of several runs', () => {
  it('judges a target on every run’s rounds together, where each run alone is too short to settle it', () => {
    // six rounds: the interval is the whole range, which reaches past 1.1
    expect(judgedRounds(RUN_1, 1.1).verdict).toBe('unsettled');
    expect(judgedRounds(RUN_2, 1.1).verdict).toBe('unsettled');
    const [pooled] = poolRuns([report([{ id: 'b', roundCpu: RUN_1 }]), report([{ id: 'b', roundCpu: RUN_2 }])]);
    expect(pooled.roundCpu).toHaveLength(12);
    // twelve rounds: the 3rd smallest to the 3rd largest (96%)
    expect(pooled.interval).toMatchObject({ low: 1.03, high: 1.07 });
    expect(pooled.verdict).toBe('met');
    expect(pooled.median).toBeCloseTo(1.045, 10);
    expect(pooled.runMedians).toEqual([1.04, 1.04]);
  });

  it('says not met when the pooled rounds are all beyond the target', () => {
    const high = RUN_1.map((r) => r + 0.2);
    const [pooled] = poolRuns([report([{ id: 'a', roundCpu: high }]), report([{ id: 'a', roundCpu: high }])]);
    expect(pooled.verdict).toBe('not met');
  });

  it('keeps scenarios and contenders apart, and counts no scenario a run only kept from an earlier one', () => {
    const pooled = poolRuns([
      report([{ id: 'a', roundCpu: RUN_1 }, { id: 'b', roundCpu: RUN_2 }]),
      report([{ id: 'a', roundCpu: RUN_2 }, { id: 'b', roundCpu: RUN_2, keptFrom: '2026-11-25T00:00:00.000Z' }]),
    ]);
    expect(pooled.map((t) => [t.scenario, t.contender, t.roundCpu.length])).toEqual([
      ['a', 'lib', 12],
      ['b', 'lib', 6],
    ]);
  });

  it('refuses runs whose targets differ: they are not the same benchmark', () => {
    expect(() => poolRuns([report([{ id: 'a', roundCpu: RUN_1 }]), report([{ id: 'a', roundCpu: RUN_1, target: 1.25 }])])).toThrow(/target 1.25 in one run and 1.1 in another/);
  });
});
