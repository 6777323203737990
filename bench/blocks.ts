/**
 * Two contenders in one process, taking turns in blocks of requests, each block's clock times
 * noted: a profile of the whole process is then split by block, so that both contenders see the
 * same machine (a shared VM drifts by more than the differences looked for). Used by
 * `interleaved-profile.ts` (V8's profiler), `perf-split.ts` (Linux perf) and `gc-split.ts`. A
 * contender is any of the bench's, or a probe (`PROBES`: a backend without the pipeline).
 *
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONTENDERS, PROBES, type Contender } from './contenders.js';
import { measureRun } from './measure.js';
import { pinSelf } from './pinning.js';
import { seedFrom } from './options.js';
import { seededRandom, shuffled } from './schedule.js';
import { SCENARIOS } from './scenarios.js';
import { startServer } from './server-process.js';

const BLOCKS = 'blocks.json';

/** One measured block: which contender, when (µs of CLOCK_MONOTONIC, the clock of V8's profiler and of `perf record -k mono`), how many requests. */
export interface Block {
  readonly name: string;
  readonly start: number;
  readonly end: number;
  readonly requests: number;
  readonly cpuUs: number;
}

/** The blocks of a run, the process that ran them (a profile of several processes is filtered by it) and their order. */
export interface BlockRun {
  readonly pid: number;
  readonly blocks: readonly Block[];
  /** How the blocks took turns, for the report: shuffled with a seed (`BENCH_SEED` repeats it), or rotated. */
  readonly order: string;
}

/**
 * Warms both contenders up, then runs `rounds` × both, `block` requests at a time; saves the
 * blocks in `dir` (which must exist). The order is shuffled per round (seeded by `BENCH_SEED`, or
 * a fresh seed); `rotated` (A B, B A, A B, ...) is the old order, kept to show how the garbage
 * collector locks onto its period (`schedule.ts`).
 */
export async function runBlocks(dir: string, names: readonly [string, string], rounds: number, block: number, order: 'shuffled' | 'rotated' = 'shuffled'): Promise<void> {
  pinSelf();
  const scenario = SCENARIOS.find((s) => s.id === (process.env.BENCH_SCENARIO ?? 'a'));
  if (!scenario) throw new Error(`BENCH_SCENARIO must be one of ${SCENARIOS.map((s) => s.id).join(', ')}`);
  const server = await startServer();
  const sessions = await Promise.all(names.map((name) => contender(name).open(server.origin)));
  const now = () => Number(process.hrtime.bigint() / 1000n);
  try {
    for (const session of sessions) await measureRun(() => scenario.run(session), scenario.check, 3000, 32);
    const blocks: Block[] = [];
    const seed = seedFrom(process.env);
    const random = seededRandom(seed);
    for (let round = 0; round < rounds; round++) {
      for (const i of order === 'shuffled' ? shuffled([0, 1], random) : round % 2 === 0 ? [0, 1] : [1, 0]) {
        const start = now();
        const run = await measureRun(() => scenario.run(sessions[i]), scenario.check, block, 32);
        blocks.push({ name: names[i], start, end: now(), requests: block, cpuUs: run.cpuUsPerReq * block });
      }
    }
    const described = order === 'shuffled' ? `shuffled per round, seed ${seed} (BENCH_SEED=${seed} repeats it)` : 'rotated (A B, B A, ...)';
    writeFileSync(path.join(dir, BLOCKS), JSON.stringify({ pid: process.pid, blocks, order: described } satisfies BlockRun));
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    await server.stop();
  }
}

/** The blocks of the last run in `dir`, in time order. */
export function readBlocks(dir: string): BlockRun {
  const run = JSON.parse(readFileSync(path.join(dir, BLOCKS), 'utf8')) as BlockRun;
  return { ...run, blocks: run.blocks.toSorted((a, b) => a.start - b.start) };
}

/** Requests per contender over `blocks`. */
export function requestsByName(blocks: readonly Block[]): Map<string, number> {
  const requests = new Map<string, number>();
  for (const block of blocks) requests.set(block.name, (requests.get(block.name) ?? 0) + block.requests);
  return requests;
}

/** CPU µs per request of `name` from the blocks' own `process.cpuUsage()` (what the benchmark counts). */
export function cpuPerRequest(blocks: readonly Block[], name: string): number {
  const mine = blocks.filter((block) => block.name === name);
  return mine.reduce((sum, block) => sum + block.cpuUs, 0) / mine.reduce((sum, block) => sum + block.requests, 0);
}

/**
 * Prints `A`'s and `B`'s figures by key (µs per request), largest difference first, at most `top` rows.
 *
 * @example
 * printDifferences('by area, CPU µs per request', left, right, Infinity);
 */
export function printDifferences(title: string, a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>, top: number): void {
  const rows = [...new Set([...a.keys(), ...b.keys()])]
    .map((key) => ({ key, a: a.get(key) ?? 0, b: b.get(key) ?? 0 }))
    .sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a))
    .slice(0, top);
  console.log(`\n${title}:\n  B − A       A       B`);
  for (const row of rows) console.log(`${(row.b - row.a).toFixed(2).padStart(7)} ${row.a.toFixed(2).padStart(7)} ${row.b.toFixed(2).padStart(7)}  ${row.key}`);
}

function contender(name: string): Contender {
  const known = [...CONTENDERS, ...PROBES];
  const found = known.find((c) => c.name === name);
  if (!found) throw new Error(`no contender '${name}' (names: ${known.map((c) => c.name).join(', ')})`);
  return found;
}
