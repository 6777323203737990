/**
 * Scenarios (c) and (d): starts the benchmark server (its own process, pinned), writes the
 * upload sources into a fresh directory under `os.tmpdir()`, runs each selected scenario
 * (`rounds.ts`, one process per transfer) and checks the server's request counts. The
 * directory is removed at the end, also on Ctrl-C.
 *
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { selectContenders } from '../contenders.js';
import type { BenchOptions } from '../options.js';
import { CLIENT_CPU, tasksetPath } from '../pinning.js';
import { serverStats, startServer } from '../server-process.js';
import { TRANSFER_CONTENDERS } from './contenders.js';
import { sourcePath } from './job.js';
import { SAMPLE_INTERVAL_MS } from './memory.js';
import { writePatternFile } from './pattern.js';
import type { TransferReport } from './report.js';
import { runTransferScenario, type TransferOutcome } from './rounds.js';
import { TRANSFER_SCENARIOS } from './scenarios.js';
import { MEMORY_LIMIT_BYTES } from './summary.js';

/** The unmeasured transfer each process makes first (or the whole size, when smaller). */
const WARMUP_BYTES = 8 * 2 ** 20;

/** Runs the selected transfer scenarios; `undefined` when none is selected or `--only` picks no transfer contender. */
export async function runTransfers(options: BenchOptions): Promise<TransferReport | undefined> {
  const started = performance.now();
  const scenarios = TRANSFER_SCENARIOS.filter((s) => options.scenarios.includes(s.id));
  if (scenarios.length === 0) return undefined;
  let contenders;
  try {
    contenders = selectContenders(TRANSFER_CONTENDERS, options.only);
  } catch {
    console.log(`\ntransfers skipped: --only ${options.only.join(',')} names no transfer contender`);
    return undefined;
  }
  const size = options.transferSize;
  const warmupSize = Math.min(size, WARMUP_BYTES);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'httpbuilder-transfer-'));
  const cleanUp = () => rmSync(dir, { recursive: true, force: true });
  const onSignal = () => {
    cleanUp();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  const server = await startServer();
  try {
    if (scenarios.some((s) => s.id === 'd')) for (const bytes of new Set([warmupSize, size])) await writePatternFile(sourcePath(dir, bytes), bytes, { sync: true });
    // the first large file written in a run is slow whoever writes it (the file system, not the
    // client): write and drop one first, so that round 1's first download is not the one paying
    if (scenarios.some((s) => s.id === 'c')) await throwawayWrite(path.join(dir, 'throwaway.bin'), size);
    const outcomes: TransferOutcome[] = [];
    const setup = { origin: server.origin, dir, size, warmupSize, rounds: options.transferRounds };
    for (const scenario of scenarios) outcomes.push(await runTransferScenario(scenario, contenders, setup));
    return {
      date: new Date().toISOString(),
      node: process.version,
      sizeBytes: size,
      warmupBytes: warmupSize,
      rounds: options.transferRounds,
      pinning: {
        client: tasksetPath() ? `every transfer process started under taskset -c ${CLIENT_CPU}` : 'not pinned (taskset unavailable or < 2 cores)',
        server: server.pinned ? `server pid ${server.pid} started under taskset, affinity ${server.affinity}` : 'server not pinned',
      },
      sampleIntervalMs: SAMPLE_INTERVAL_MS,
      memoryLimitBytes: MEMORY_LIMIT_BYTES,
      scenarios: outcomes.map((o) => ({ id: o.scenario.id, title: o.scenario.title(size), contenders: o.contenders })),
      serverCheck: await checkServer(server.origin, outcomes),
      durationSeconds: (performance.now() - started) / 1000,
    };
  } finally {
    await server.stop();
    process.off('SIGINT', onSignal);
    cleanUp();
  }
}

async function throwawayWrite(file: string, size: number): Promise<void> {
  await writePatternFile(file, size);
  rmSync(file);
}

/** Every process sends two requests (warm-up, measured) to its scenario's route: the server must have counted them. */
async function checkServer(origin: string, outcomes: readonly TransferOutcome[]): Promise<string> {
  const served = (await serverStats(origin)).served;
  const notes = outcomes.map(({ scenario, processes }) => {
    const count = served[scenario.route] ?? 0;
    const ok = processes.attempted === processes.succeeded ? count === 2 * processes.succeeded : 2 * processes.succeeded <= count && count <= 2 * processes.attempted;
    if (!ok) throw new Error(`server request counts disagree: ${scenario.route} served ${count}, ${processes.succeeded} of ${processes.attempted} processes finished`);
    return `${scenario.route}: ${count} (${processes.succeeded} processes × warm-up + measured)`;
  });
  return `server counted exactly the transfers the clients made (${notes.join(', ')}); every download checked on disk (size, first, middle and last 64 KiB), every upload by the server's count of the file part`;
}
