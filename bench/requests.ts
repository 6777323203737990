/**
 * The request scenarios, from `run.ts`: each group of contenders (`isolationGroups`) runs in
 * `--processes` worker processes, one after another, and their rounds are pooled. A process
 * settles into JIT and GC state of its own for minutes (the same code read 1.02 in one process
 * and 1.11 in the next), which more rounds in one process do not average out; JMH forks a JVM
 * several times for the same reason.
 *
 * @module
 */
import os from 'node:os';
import path from 'node:path';
import type { Contender } from './contender.js';
import { isolationGroups } from './contenders.js';
import type { RequestAnswer, RequestJob, RunContext } from './jobs.js';
import type { BenchOptions } from './options.js';
import { runWorker } from './processes.js';
import { describeError, type Failure, type Sample } from './rounds.js';
import type { RequestScenario } from './scenarios.js';
import { derivedSeed } from './schedule.js';
import type { ScenarioResult } from './summary.js';
import { fmt } from './tables.js';

/** Requests per slice of a round: a slice of the slowest contender lasts about half a second, of the fastest still 30 ms. */
const REQUESTS_PER_SLICE = 1_000;
/** Unmeasured requests per contender, process and scenario (JIT, connection pool), at most as many as one round's. */
const WARMUP = 3_000;
/** Concurrent request loops per contender. */
const CONCURRENCY = 32;

/** The settings of every request job for `options`. */
function plan(options: BenchOptions): Pick<RequestJob, 'rounds' | 'requests' | 'slices' | 'warmup' | 'concurrency'> {
  const { rounds, requests } = options;
  return { rounds, requests, slices: Math.ceil(requests / REQUESTS_PER_SLICE), warmup: Math.min(WARMUP, requests), concurrency: CONCURRENCY };
}

/** The settings of the request scenarios, for the report. */
export function requestSettings(options: BenchOptions, contenders: readonly Contender[]): string {
  const { slices, warmup } = plan(options);
  const groups = isolationGroups(contenders).map((g, i) => `${i + 1}) ${g.map((c) => c.name).join(', ')}`);
  return (
    `rounds: ${options.rounds} per process × ${options.processes} processes per group, pooled; requests per contender and round: ${fmt(options.requests)}, ` +
    `in ${slices} slice(s) taking turns with the other contenders' in an order shuffled per slice; warm-up: ${fmt(warmup)} ` +
    `requests per contender, process and scenario; concurrency: ${CONCURRENCY}; groups: ${groups.join('; ')}`
  );
}

/** Runs `scenarios` for `contenders`; adds every process's request counts to `check`. */
export async function runRequestScenarios(scenarios: readonly RequestScenario[], run: RunContext): Promise<ScenarioResult[]> {
  if (scenarios.length === 0) return [];
  const { contenders, options, origin, proxy, check } = run;
  const results = scenarios.map((scenario) => ({
    scenario,
    samples: new Map<Contender, Sample[]>(contenders.map((c) => [c, []])),
    failures: new Map<Contender, Failure>(),
  }));
  const settings = { kind: 'requests', scenarios: scenarios.map((s) => s.id), origin, proxy, ...plan(options) } as const;
  const groups = isolationGroups(contenders);
  let number = 0; // of the process, over the whole run
  for (const [g, group] of groups.entries()) {
    for (let k = 1; k <= options.processes; k++) {
      number++;
      const names = group.map((c) => c.name);
      console.log(`\n=== group ${g + 1}/${groups.length}, process ${k}/${options.processes}: ${names.join(', ')}`);
      const job: RequestJob = {
        ...settings,
        contenders: names,
        process: number,
        // a schedule of its own per process, the same whenever this group runs again (--only)
        seed: derivedSeed(options.seed, `${names.join(',')} #${k}`),
        answerFile: path.join(os.tmpdir(), `httpbuilder-bench-${process.pid}-${number}.json`),
      };
      let answer: RequestAnswer;
      try {
        answer = await runWorker<RequestAnswer>(job);
      } catch (error) {
        console.log(`  FAILED process ${number}: ${describeError(error)}`);
        for (const result of results) {
          check.lost(result.scenario.route);
          for (const c of group) if (!result.failures.has(c)) result.failures.set(c, { stage: `process ${number}`, error: describeError(error) });
        }
        continue;
      }
      for (const [i, part] of answer.scenarios.entries()) {
        const result = results[i];
        check.add(result.scenario.route, part.tally, Object.keys(part.failures).length > 0);
        for (const c of group) {
          result.samples.get(c)!.push(...(part.samples[c.name] ?? []));
          const failure = part.failures[c.name];
          if (failure && !result.failures.has(c)) result.failures.set(c, { stage: `process ${number}, ${failure.stage}`, error: failure.error });
        }
      }
    }
  }
  return results;
}
