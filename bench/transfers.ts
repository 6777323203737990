/**
 * The transfer scenarios, from `run.ts`: rounds of one large transfer per contender, in an order
 * shuffled per round, each transfer in a fresh worker process so that its memory figures belong
 * to that contender alone. The upload sources go into a fresh directory under `os.tmpdir()`,
 * removed at the end, also on Ctrl-C.
 *
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Contender } from './contender.js';
import type { RunContext, TransferAnswer, TransferJob } from './jobs.js';
import { TRANSFER_SAMPLE_MS } from './measure.js';
import type { BenchOptions } from './options.js';
import { writePatternFile } from './pattern.js';
import { runWorker } from './processes.js';
import { runRounds, type Failure } from './rounds.js';
import { UNITS, type TransferScenario } from './scenarios.js';
import { derivedSeed } from './schedule.js';
import { MEMORY_LIMIT_BYTES, type ScenarioResult } from './summary.js';
import { formatSize } from './tables.js';

/** The unmeasured transfer each process makes first (or the whole size, when smaller). */
const WARMUP_BYTES = 8 * 2 ** 20;

/** The settings of the transfer scenarios, for the report. */
export function transferSettings(options: BenchOptions): string {
  return (
    `${formatSize(options.transferSize)} per transfer; rounds: ${options.rounds}, in an order shuffled per round; each transfer in a fresh process after an unmeasured ` +
    `${formatSize(Math.min(options.transferSize, WARMUP_BYTES))} one; memory baseline after a full GC, sampled every ${TRANSFER_SAMPLE_MS} ms; ` +
    `RSS growth = peak − baseline, limit ${formatSize(MEMORY_LIMIT_BYTES)} for every transfer`
  );
}

/** Runs `scenarios` for `contenders`, `options.rounds` rounds each; adds every transfer's requests to `check`. */
export async function runTransferScenarios(scenarios: readonly TransferScenario[], run: RunContext): Promise<ScenarioResult[]> {
  if (scenarios.length === 0) return [];
  const { contenders, options, origin, check } = run;
  const size = options.transferSize;
  const warmupSize = Math.min(size, WARMUP_BYTES);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'httpbuilder-transfer-'));
  const cleanUp = () => rmSync(dir, { recursive: true, force: true });
  const onSignal = () => {
    cleanUp();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  try {
    if (scenarios.some((s) => s.id === 'd'))
      for (const bytes of new Set([warmupSize, size])) await writePatternFile(path.join(dir, `source-${bytes}.bin`), bytes, { sync: true });
    // the first large file a run writes is slow whoever writes it (in 1 GiB runs it cost the first
    // contender about half its throughput): write and drop one, so that no download pays for it
    if (scenarios.some((s) => s.id === 'c')) {
      await writePatternFile(path.join(dir, 'throwaway.bin'), size);
      rmSync(path.join(dir, 'throwaway.bin'));
    }
    // generous: a slow contender on a busy VM still moves well over 20 MB/s
    const timeoutMs = 60_000 + Math.ceil(size / 20e3);
    const results: ScenarioResult[] = [];
    for (const scenario of scenarios) {
      console.log(`\nScenario (${scenario.id}) ${scenario.title}, one process per transfer`);
      const failures = new Map<Contender, Failure>();
      const plan = { rounds: options.rounds, slices: 1, seed: derivedSeed(options.seed, `scenario ${scenario.id}`), process: 0, unit: UNITS.transfers };
      const answerFile = path.join(dir, `answer-${scenario.id}.json`);
      const job = { kind: 'transfers', scenario: scenario.id, origin, size, warmupSize, dir, answerFile } as const;
      const samples = await runRounds(contenders, plan, failures, async (contender) => {
        const answer = await runWorker<TransferAnswer>({ ...job, contender: contender.name } satisfies TransferJob, timeoutMs).catch((error: unknown) => {
          check.lost(scenario.route);
          throw error;
        });
        check.add(scenario.route, answer.tally, answer.error !== undefined);
        if (!answer.measurement) throw new Error(answer.error ?? 'no measurement');
        return { amount: size, measurement: answer.measurement };
      });
      results.push({ scenario, samples, failures });
    }
    return results;
  } finally {
    process.off('SIGINT', onSignal);
    cleanUp();
  }
}
