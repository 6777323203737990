/**
 * A worker process of `npm run bench`, started by `processes.ts` (pinned to the client core,
 * with `--expose-gc`): one group of contenders through the request scenarios, one transfer of
 * one contender, or one case of the scaling scenarios (`scaling-cases.ts`). Reads its job from `BENCH_JOB` and writes its answer to the job's
 * `answerFile` (`jobs.ts`).
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Contender, Session } from './contender.js';
import { CONTENDERS } from './contenders.js';
import type { Job, RequestAnswer, RequestJob, ScalingJob, ScalingJobAnswer, TransferAnswer, TransferJob } from './jobs.js';
import { REQUEST_SAMPLE_MS, measure, measureTransfer, requestLoops, settle, withTimeout } from './measure.js';
import { describeError, runRounds, sliceSize, type Failure } from './rounds.js';
import { runScalingCase } from './scaling-cases.js';
import { UNITS, scenarios, type Scenario, type ScenarioId, type TransferFiles } from './scenarios.js';
import { derivedSeed } from './schedule.js';
import type { Tally } from './server-check.js';

/** A run of requests that takes longer than this has hung (a slice takes a second or less). */
const RUN_TIMEOUT_MS = 120_000;

function contender(name: string): Contender {
  const found = CONTENDERS.find((c) => c.name === name);
  if (!found) throw new Error(`no contender '${name}'`);
  return found;
}

/** The scenario `id`, which must be of `kind`. */
function scenario<K extends Scenario['kind']>(id: ScenarioId, kind: K, transferSize: number): Extract<Scenario, { kind: K }> {
  const found = scenarios(transferSize).find((s) => s.id === id);
  if (found?.kind !== kind) throw new Error(`no ${kind} scenario '${id}'`);
  return found as Extract<Scenario, { kind: K }>;
}

/** Opens every contender of the group, runs each request scenario's rounds, closes them. */
async function runRequests(job: RequestJob): Promise<RequestAnswer> {
  const contenders = job.contenders.map(contender);
  const sessions = new Map<Contender, Session>();
  const openFailures = new Map<Contender, Failure>();
  for (const c of contenders) {
    try {
      sessions.set(c, await c.open(job.origin, job.proxy));
    } catch (error) {
      openFailures.set(c, { stage: 'open', error: describeError(error) });
      console.log(`  FAILED ${c.name} at open: ${describeError(error)}`);
    }
  }
  try {
    const answers: RequestAnswer['scenarios'][number][] = [];
    for (const id of job.scenarios) {
      const { title, run: request, check } = scenario(id, 'requests', 0);
      console.log(`\nScenario (${id}) ${title}`);
      // a contender that failed in one scenario still runs in the next
      const failures = new Map(openFailures);
      const tally: Tally = { attempted: 0, succeeded: 0 };
      const run = (c: Contender, requests: number) => {
        const session = sessions.get(c)!;
        const loops = requestLoops(() => request(session), check, requests, job.concurrency, tally);
        return withTimeout(loops, RUN_TIMEOUT_MS);
      };
      // one full GC per scenario, before the warm-up, none between rounds: the slice right after a
      // full GC costs 2.5-3x the usual CPU (the background sweep of the whole heap) and so belongs
      // in the warm-up; a GC per round would put the next major collection at the same point of
      // every round, on whichever contender held it
      await settle();
      for (const c of contenders.filter((c) => !failures.has(c) && job.warmup > 0)) {
        try {
          await run(c, job.warmup);
          console.log(`  warm-up ${c.name}: ${job.warmup} requests`);
        } catch (error) {
          failures.set(c, { stage: 'warm-up', error: describeError(error) });
          console.log(`  FAILED ${c.name} at warm-up: ${describeError(error)}`);
        }
      }
      // a schedule of its own per scenario, so that running fewer scenarios does not change it
      const plan = { rounds: job.rounds, slices: job.slices, seed: derivedSeed(job.seed, `scenario ${id}`), process: job.process, unit: UNITS.requests };
      const samples = await runRounds(contenders, plan, failures, async (c, slice) => {
        const amount = sliceSize(job.requests, job.slices, slice);
        const { measurement } = await measure(() => run(c, amount), REQUEST_SAMPLE_MS, job.origin);
        return { amount, measurement };
      });
      const byName = <T>(map: ReadonlyMap<Contender, T>) => Object.fromEntries([...map].map(([c, value]) => [c.name, value]));
      answers.push({ id, samples: byName(samples), failures: byName(failures), tally });
    }
    return { scenarios: answers };
  } finally {
    // a failed client may hang on close too: give up on it after a while
    await Promise.allSettled([...sessions.values()].map((s) => withTimeout(s.close(), 10_000)));
  }
}

/** Opens the contender, makes an unmeasured warm-up transfer, then the measured one (`measureTransfer`), each checked. */
async function runTransfer(job: TransferJob): Promise<TransferAnswer> {
  const tally: Tally = { attempted: 0, succeeded: 0 };
  try {
    const { run, verify } = scenario(job.scenario, 'transfers', job.size);
    const files: TransferFiles = { source: (size) => path.join(job.dir, `source-${size}.bin`), target: path.join(job.dir, `download-${process.pid}.bin`) };
    const session = await contender(job.contender).open(job.origin);
    try {
      const transfer = async (size: number) => {
        tally.attempted++;
        const value = await run(session, size, files);
        tally.succeeded++;
        return value;
      };
      const warmProblem = await verify(await transfer(job.warmupSize), job.warmupSize, files);
      if (warmProblem) throw new Error(`warm-up: ${warmProblem}`);
      const { value, measurement } = await measureTransfer(() => transfer(job.size), job.origin);
      const problem = await verify(value, job.size, files);
      if (problem) throw new Error(problem);
      return { measurement, tally };
    } finally {
      await session.close();
    }
  } catch (error) {
    return { error: describeError(error), tally };
  }
}

/** One case of the scaling scenarios; a failure becomes the answer's `error`. */
async function runScaling(job: ScalingJob): Promise<ScalingJobAnswer> {
  try {
    return { figures: await runScalingCase(job.case, job.origin, job.seed) };
  } catch (error) {
    return { error: describeError(error) };
  }
}

async function main(): Promise<void> {
  const job = JSON.parse(process.env.BENCH_JOB ?? 'null') as Job | null;
  if (!job) throw new Error('BENCH_JOB is not set: this script is started by bench/run.ts');
  const answer = job.kind === 'requests' ? await runRequests(job) : job.kind === 'transfers' ? await runTransfer(job) : await runScaling(job);
  writeFileSync(job.answerFile, JSON.stringify(answer));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
