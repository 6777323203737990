/**
 * One measured transfer in a process of its own (started by `runner.ts` with `--expose-gc`,
 * pinned to the client CPU): memory figures then belong to this contender alone, with nothing
 * left over from another one. Opens the contender, runs an unmeasured warm-up transfer, takes
 * the memory baseline after a full GC, measures one transfer, checks it, and writes the answer.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describeError } from '../failure.js';
import { TRANSFER_CONTENDERS } from './contenders.js';
import { sourcePath, type TransferAnswer, type TransferJob, type TransferRun } from './job.js';
import { measureMemory } from './memory.js';
import { TRANSFER_SCENARIOS, type TransferFiles } from './scenarios.js';

async function measure(job: TransferJob): Promise<TransferRun> {
  const contender = TRANSFER_CONTENDERS.find((c) => c.name === job.contender);
  const scenario = TRANSFER_SCENARIOS.find((s) => s.id === job.scenario);
  if (!contender || !scenario) throw new Error(`unknown contender '${job.contender}' or scenario '${job.scenario}'`);
  const files: TransferFiles = { source: (size) => sourcePath(job.dir, size), target: path.join(job.dir, `download-${process.pid}.bin`) };
  const session = await contender.open(job.origin);
  try {
    const warm = await scenario.run(session, job.warmupSize, files);
    const warmProblem = await scenario.verify(warm, job.warmupSize, files);
    if (warmProblem) throw new Error(`warm-up: ${warmProblem}`);
    const { result, memory } = await measureMemory(async () => {
      const cpuStart = process.cpuUsage();
      const start = process.hrtime.bigint();
      const value = await scenario.run(session, job.size, files);
      return { value, wallMs: Number(process.hrtime.bigint() - start) / 1e6, cpu: process.cpuUsage(cpuStart) };
    });
    const problem = await scenario.verify(result.value, job.size, files);
    if (problem) throw new Error(problem);
    const { wallMs, cpu } = result;
    return {
      bytes: job.size,
      wallMs,
      cpuUserUs: cpu.user,
      cpuSystemUs: cpu.system,
      mbPerSec: job.size / 1e6 / (wallMs / 1000),
      cpuUsPerMiB: (cpu.user + cpu.system) / (job.size / 2 ** 20),
      memory,
      maxRssBytes: process.resourceUsage().maxRSS * 1024,
    };
  } finally {
    await session.close();
  }
}

async function main(): Promise<void> {
  const job = JSON.parse(process.env.BENCH_TRANSFER_JOB ?? 'null') as TransferJob | null;
  if (!job) throw new Error('BENCH_TRANSFER_JOB is not set: this script is started by bench/transfer/runner.ts');
  let answer: TransferAnswer;
  try {
    answer = { run: await measure(job) };
  } catch (error) {
    answer = { error: describeError(error) };
    process.exitCode = 1;
  }
  writeFileSync(job.resultFile, JSON.stringify(answer));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
