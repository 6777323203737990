/**
 * Which contender's blocks V8's major garbage collections land on, and what such a block costs.
 * Two contenders take turns in blocks in one process (`blocks.ts`); every GC pause the process
 * reports (`perf_hooks` 'gc' entries) is placed in the block it started in. A major collection
 * is caused by both contenders' garbage but paid by whichever block it lands in: this shows
 * whether that happens in proportion, or locked onto the schedule (see `schedule.ts`).
 *
 * @example
 * npx tsx bench/gc-split.ts 'raw fetch' 'httpbuilder-ts (fetch)'
 * BENCH_SCENARIO=b npx tsx bench/gc-split.ts 'raw fetch' 'httpbuilder-ts (fetch)' --rounds 60
 * npx tsx bench/gc-split.ts 'raw fetch' 'httpbuilder-ts (fetch)' --rotate   # the old fixed order: watch the lock
 *
 * @module
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { cpuPerRequest, readBlocks, runBlocks, type Block, type BlockRun } from './blocks.js';
import { takeCount } from './options.js';

/** One GC pause, on the blocks' clock (µs of CLOCK_MONOTONIC). */
interface Pause {
  readonly start: number;
  readonly us: number;
  readonly major: boolean;
}

/** The pauses from now on; `stop()` ends the recording. */
function recordPauses(): { pauses: Pause[]; stop: () => void } {
  // performance.now() is ms since the time origin, the blocks' clock µs of hrtime: one offset between them
  const offset = Number(process.hrtime.bigint() / 1000n) - performance.now() * 1000;
  const pauses: Pause[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
      pauses.push({ start: offset + entry.startTime * 1000, us: entry.duration * 1000, major: kind !== constants.NODE_PERFORMANCE_GC_MINOR });
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return { pauses, stop: () => observer.disconnect() };
}

/** CPU µs per request of `name` over `blocks`, or a dash when there are none. */
function perRequest(blocks: readonly Block[], name: string): string {
  return blocks.length === 0 ? '—' : cpuPerRequest(blocks, name).toFixed(1);
}

function report(names: readonly [string, string], run: BlockRun, pauses: readonly Pause[]): void {
  const { blocks } = run;
  console.log(`blocks: ${run.order}; a major GC pause is any that is not a scavenge (mark-compact, incremental marking, weak callbacks)`);
  const majorIn = (block: Block) => pauses.filter((p) => p.major && p.start >= block.start && p.start <= block.end);
  const cpu = names.map((name) => cpuPerRequest(blocks, name));
  console.log(`B ÷ A: ${(cpu[1] / cpu[0]).toFixed(3)} (A ${names[0]}: ${cpu[0].toFixed(1)} CPU µs/req, B ${names[1]}: ${cpu[1].toFixed(1)})`);
  for (const [i, name] of names.entries()) {
    const mine = blocks.filter((b) => b.name === name);
    const withMajor = mine.filter((b) => majorIn(b).length > 0);
    const without = mine.filter((b) => majorIn(b).length === 0);
    const requests = mine.reduce((sum, b) => sum + b.requests, 0);
    const majorUs = withMajor.reduce((sum, b) => sum + majorIn(b).reduce((s, p) => s + p.us, 0), 0);
    const minorUs = pauses.filter((p) => !p.major && mine.some((b) => p.start >= b.start && p.start <= b.end)).reduce((sum, p) => sum + p.us, 0);
    console.log(
      `${'AB'[i]}: ${withMajor.length} of ${mine.length} blocks with a major GC pause (${(majorUs / requests).toFixed(1)} µs/req paused), ` +
        `${perRequest(withMajor, name)} CPU µs/req in those, ${perRequest(without, name)} in the others; minor GC paused ${(minorUs / requests).toFixed(1)} µs/req`,
    );
  }
  const aName = names[0];
  const quiet = names.map((name) => cpuPerRequest(blocks.filter((b) => b.name === name && majorIn(b).length === 0), name));
  console.log(`B ÷ A over blocks without a major GC: ${(quiet[1] / quiet[0]).toFixed(3)}`);
  console.log('\nblocks in order (A or B, then M for each major GC pause in it):');
  const cells = blocks.map((b) => `${b.name === aName ? 'A' : 'B'}${'M'.repeat(majorIn(b).length)}`.padEnd(5));
  for (let i = 0; i < cells.length; i += 20) console.log(cells.slice(i, i + 20).join(''));
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const [rounds, block] = [takeCount(args, 'rounds', 40), takeCount(args, 'block', 1000)];
  const rotate = args.includes('--rotate');
  const names = args.filter((arg) => arg !== '--rotate');
  if (names.length !== 2) throw new Error("usage: gc-split.ts '<contender A>' '<contender B>' [--rounds 40] [--block 1000] [--rotate]");
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gc-split-'));
  try {
    const recording = recordPauses();
    await runBlocks(dir, [names[0], names[1]], rounds, block, rotate ? 'rotated' : 'shuffled');
    await new Promise((resolve) => setTimeout(resolve, 100)); // the last entries are delivered asynchronously
    recording.stop();
    report([names[0], names[1]], readBlocks(dir), recording.pauses);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
