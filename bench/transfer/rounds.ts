/**
 * One transfer scenario: interleaved rounds (every contender once per round, order rotated),
 * each transfer in a fresh process. A contender that fails is reported as failed and left out
 * from then on; the others carry on.
 *
 * @module
 */
import path from 'node:path';
import { type Failure } from '../failure.js';
import type { TransferContender } from './contender.js';
import type { TransferJob } from './job.js';
import type { TransferScenario } from './scenarios.js';
import { formatSize } from './size.js';
import { runTransferChild } from './spawn-child.js';
import { summariseTransfers, type TransferRunRecord, type TransferSummary } from './summary.js';

/** Where the transfers go and how big they are. */
export interface TransferSetup {
  readonly origin: string;
  readonly dir: string;
  readonly size: number;
  readonly warmupSize: number;
  readonly rounds: number;
}

/** A scenario's summaries, plus the requests its route should have been served. */
export interface TransferOutcome {
  readonly scenario: TransferScenario;
  readonly contenders: readonly TransferSummary[];
  /** Processes started and finished; each sends two requests (warm-up and measured) to the route. */
  readonly processes: { attempted: number; succeeded: number };
}

/** Runs `scenario` for `contenders`, `setup.rounds` rounds. */
export async function runTransferScenario(scenario: TransferScenario, contenders: readonly TransferContender[], setup: TransferSetup): Promise<TransferOutcome> {
  console.log(`\nScenario (${scenario.id}) ${scenario.title(setup.size)}, one process per transfer`);
  const runs = new Map<TransferContender, TransferRunRecord[]>(contenders.map((c) => [c, []]));
  const failures = new Map<TransferContender, Failure>();
  const processes = { attempted: 0, succeeded: 0 };
  // generous: a slow contender on a busy VM still moves well over 20 MB/s
  const timeoutMs = 60_000 + (setup.size / 20e6) * 1000;
  for (let round = 1; round <= setup.rounds; round++) {
    const order = contenders.map((_, i) => contenders[(i + round - 1) % contenders.length]).filter((c) => !failures.has(c));
    for (const [position, contender] of order.entries()) {
      const job: TransferJob = {
        contender: contender.name,
        scenario: scenario.id,
        origin: setup.origin,
        size: setup.size,
        warmupSize: setup.warmupSize,
        dir: setup.dir,
        resultFile: path.join(setup.dir, `answer-${scenario.id}-${round}-${position}.json`),
      };
      processes.attempted++;
      const answer = await runTransferChild(job, timeoutMs);
      if ('error' in answer) {
        failures.set(contender, { stage: `round ${round}`, error: answer.error });
        console.log(`  FAILED ${contender.name} at round ${round}: ${answer.error}`);
        continue;
      }
      processes.succeeded++;
      const run = answer.run;
      runs.get(contender)!.push({ ...run, round, order: position });
      console.log(
        `  round ${round}/${setup.rounds}  ${contender.name.padEnd(24)} ${run.mbPerSec.toFixed(0).padStart(5)} MB/s  ${run.cpuUsPerMiB.toFixed(0).padStart(5)} CPU µs/MiB  RSS +${formatSize(Math.max(0, run.memory.rssGrowth))}`,
      );
    }
  }
  return { scenario, contenders: summariseTransfers(contenders, runs, failures), processes };
}
