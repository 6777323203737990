/**
 * Pools the rounds of several benchmark runs and judges each target on all of them, as one
 * longer run would. Each run's own interval is as wide as its rounds are few (9 by default):
 * a ratio whose centre sits a few percent under its target reads "unsettled" in many single
 * runs, and only more rounds place it. Give it copies of `bench/results/latest.json`, one per
 * run, every run of the code being judged (leaving out the ones that read badly would bias it).
 * A scenario a run kept from an earlier one (`keptFrom`) is not counted again.
 *
 * @example
 * npm run bench -- --only 'httpbuilder-ts (fetch)' --scenarios a,b && cp bench/results/latest.json /tmp/run-1.json
 * npx tsx bench/pool-runs.ts /tmp/run-1.json /tmp/run-2.json /tmp/run-3.json
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { median } from './measure.js';
import { intervalText, type BenchReport } from './report.js';
import { fmt } from './tables.js';
import { judgedRounds, type Verdict } from './summary.js';
import type { MedianInterval } from './median-interval.js';

/** One target over all the runs given. */
export interface PooledTarget {
  readonly scenario: string;
  readonly contender: string;
  readonly target: number;
  /** Each run's own median, in the order given (runs without this target left out). */
  readonly runMedians: readonly number[];
  /** Every run's per-round ratios together. */
  readonly roundCpu: readonly number[];
  readonly median: number;
  readonly interval: MedianInterval | undefined;
  readonly verdict: Verdict;
}

/** The targets of `reports`, each judged on the rounds of every report that measured it. */
export function poolRuns(reports: readonly BenchReport[]): PooledTarget[] {
  const pooled = new Map<string, { scenario: string; contender: string; target: number; runMedians: number[]; roundCpu: number[] }>();
  for (const report of reports) {
    for (const scenario of report.scenarios) {
      if (scenario.keptFrom !== undefined) continue;
      for (const contender of scenario.contenders) {
        const ratio = contender.vsCounterpart;
        if (ratio?.target === undefined) continue;
        const key = `${scenario.id}\u0000${contender.name}`;
        const entry = pooled.get(key) ?? pooled.set(key, { scenario: scenario.id, contender: contender.name, target: ratio.target, runMedians: [], roundCpu: [] }).get(key)!;
        if (entry.target !== ratio.target) throw new Error(`${contender.name} in (${scenario.id}) has target ${ratio.target} in one run and ${entry.target} in another: pool runs of the same benchmark only`);
        entry.runMedians.push(ratio.cpu);
        entry.roundCpu.push(...ratio.roundCpu);
      }
    }
  }
  return [...pooled.values()].map((entry) => ({ ...entry, median: median(entry.roundCpu), ...judgedRounds(entry.roundCpu, entry.target) }));
}

function line(t: PooledTarget): string {
  const interval = t.interval ? intervalText(t.interval) : 'too few rounds for an interval';
  const runs = t.runMedians.map((m) => fmt(m, 3)).join(', ');
  return `(${t.scenario}) ${t.contender}: ${fmt(t.median, 3)} over ${t.roundCpu.length} rounds, ${interval}: ${t.verdict} (≤ ${t.target}); each run's median: ${runs}`;
}

function main(): void {
  const files = process.argv.slice(2);
  if (files.length === 0) throw new Error('usage: pool-runs.ts <latest.json copy> [<another> ...]');
  const reports = files.map((file) => JSON.parse(readFileSync(file, 'utf8')) as BenchReport);
  console.log(`${files.length} runs (${reports.map((r) => r.date).join(', ')}); rounds taken as independent, so the coverage is nominal`);
  for (const target of poolRuns(reports)) console.log(line(target));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) main();
