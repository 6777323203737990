/**
 * One scenario: warm every contender up, then interleaved rounds (every contender once per
 * round; each contender's run cut into slices that take turns with the others', in an order
 * shuffled afresh for every slice: `schedule.ts`),
 * with the server's CPU and connection counts read around each slice.
 * A contender that throws (or hangs) is reported as failed and left out from then on; the
 * others carry on.
 *
 * @module
 */
import type { Contender, Session } from './contender.js';
import { describeError, type Failure } from './failure.js';
import { combineRuns, measureRun, settle, type RunResult, type Tally } from './measure.js';
import type { BenchOptions } from './options.js';
import type { ScenarioReport } from './report.js';
import type { Scenario } from './scenarios.js';
import { derivedSeed, seededRandom, shuffled } from './schedule.js';
import { serverStats } from './server-process.js';
import { summarise, type RunRecord } from './summary.js';

/** A scenario's report plus what the server should have counted for it. */
export interface ScenarioOutcome {
  readonly report: ScenarioReport;
  /** Requests of this scenario's route, over all contenders, warm-up included. */
  readonly tally: Tally;
  /** Whether any contender failed during the scenario (the server count is then a range). */
  readonly anyFailed: boolean;
}

/** One slice of a contender's run in a round, with what the server saw around it. */
interface SliceRecord {
  readonly result: RunResult;
  readonly newConnections: number;
  readonly serverCpuUs: number;
}

/** Requests in slice `index` (0-based) of `slices`: `requests` split as evenly as whole numbers allow. */
function sliceSize(requests: number, slices: number, index: number): number {
  return Math.floor((requests * (index + 1)) / slices) - Math.floor((requests * index) / slices);
}

/** A run that takes longer than this has hung (a normal run takes a few seconds). */
const RUN_TIMEOUT_MS = 120_000;

/**
 * Runs `scenario` for `contenders` in order (`sessions` holds the ones that opened;
 * `openFailures` the ones that did not, reported as failed at `open`).
 */
export async function runScenario(
  scenario: Scenario,
  contenders: readonly Contender[],
  sessions: ReadonlyMap<Contender, Session>,
  openFailures: ReadonlyMap<Contender, Failure>,
  origin: string,
  options: BenchOptions,
): Promise<ScenarioOutcome> {
  console.log(`\nScenario (${scenario.id}) ${scenario.title}`);
  const failures = new Map(openFailures);
  const tally: Tally = { attempted: 0, succeeded: 0 };
  const fail = (contender: Contender, stage: string, error: unknown) => {
    const failure = { stage, error: describeError(error) };
    failures.set(contender, failure);
    console.log(`  FAILED ${contender.name} at ${stage}: ${failure.error}`);
  };
  const run = (session: Session, requests: number) =>
    withTimeout(measureRun(() => scenario.run(session), scenario.check, requests, options.concurrency, tally), RUN_TIMEOUT_MS);

  // one full GC per scenario, before the warm-up, none between rounds: the slice right after a
  // full GC paid 2.5-3x the usual CPU (most likely the background sweep of the whole heap) and
  // so belongs in the unmeasured warm-up; a full GC per round put the next major collection at
  // the same point of every round, on whichever contender held it (docs/performance.md, "why
  // the fetch GET ratio swings")
  await settle();
  for (const [contender, session] of sessions) {
    if (options.warmup === 0) break;
    try {
      await run(session, options.warmup);
      console.log(`  warm-up ${contender.name}: ${options.warmup} requests`);
    } catch (error) {
      fail(contender, 'warm-up', error);
    }
  }
  const runs = new Map<Contender, RunRecord[]>(contenders.map((c) => [c, []]));
  // a schedule of its own per scenario, so that running fewer scenarios does not change it
  const random = seededRandom(derivedSeed(options.seed, `scenario ${scenario.id}`));
  for (let round = 1; round <= options.rounds; round++) {
    const present = contenders.filter((c) => !failures.has(c));
    const slices = new Map<Contender, SliceRecord[]>(present.map((c) => [c, []]));
    // shuffled every slice: no contender always follows the same one (and inherits its leftover
    // garbage), and no period for the garbage collector to lock onto
    const schedule = Array.from({ length: options.slices }, () => shuffled(present, random));
    for (const [slice, turns] of schedule.entries()) {
      for (const contender of turns) {
        if (failures.has(contender)) continue;
        // stats requests sit outside the measured window; each opens one connection of its own
        const before = await serverStats(origin);
        try {
          const result = await run(sessions.get(contender)!, sliceSize(options.requests, options.slices, slice));
          const after = await serverStats(origin);
          slices.get(contender)!.push({ result, newConnections: after.connections - before.connections - 1, serverCpuUs: after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system });
        } catch (error) {
          fail(contender, `round ${round}`, error);
        }
      }
    }
    // in the order of the round's first slice (the report's `order` column; later slices are shuffled anew)
    for (const [position, contender] of schedule[0].entries()) {
      if (failures.has(contender)) continue; // its slices of this round are left out with it
      const parts = slices.get(contender)!;
      const result = combineRuns(parts.map((part) => part.result));
      runs.get(contender)!.push({
        ...result,
        round,
        order: position,
        newConnections: parts.reduce((sum, part) => sum + part.newConnections, 0),
        serverCpuUsPerReq: parts.reduce((sum, part) => sum + part.serverCpuUs, 0) / result.requests,
      });
      console.log(
        `  round ${round}/${options.rounds}  ${contender.name.padEnd(26)} ${result.reqPerSec.toFixed(0).padStart(7)} req/s  ${result.cpuUsPerReq.toFixed(1).padStart(6)} CPU µs/req`,
      );
    }
  }
  const report = { id: scenario.id, title: scenario.title, contenders: summarise(contenders, runs, failures) };
  return { report, tally, anyFailed: [...failures.keys()].some((c) => !openFailures.has(c)) };
}

/** `promise`, or a rejection once `ms` have passed. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
