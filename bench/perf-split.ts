/**
 * Where one contender spends CPU that another does not, from Linux `perf` (the `cpu-clock`
 * software event, which works on VMs without hardware counters; node's `--perf-basic-prof`
 * names the JIT code). Both contenders run in one process, taking turns in blocks
 * (`blocks.ts`), and each sample of that process is charged to the block it fell in.
 *
 * Unlike V8's profiler (`interleaved-profile.ts`, which read the fetch GET pair as 1.00 at
 * 383 µs/req each), its totals come out near the benchmark's (~230 µs/req) and so do its ratios
 * (1.00–1.07 for that pair). It also names what V8's profiler cannot: V8's builtins and C++
 * (the garbage collector, `Object.seal`), the kernel, and the other threads.
 *
 * @example
 * npx tsx bench/perf-split.ts 'raw fetch' 'httpbuilder-ts (fetch)'
 * BENCH_SCENARIO=b npx tsx bench/perf-split.ts 'raw fetch' 'httpbuilder-ts (fetch)' --rounds 60 --top 60
 *
 * Needs `perf` (Debian's `linux-perf`). The data stays in `bench/results/profile/perf-split/`.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuPerRequest, printDifferences, readBlocks, requestsByName, runBlocks, type Block } from './blocks.js';
import { takeCount } from './options.js';
import { buildLibrary } from './library.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIR = path.join(ROOT, 'bench/results/profile/perf-split');
const DATA = path.join(DIR, 'perf.data');

/** CPU ns by key, per contender. */
type Charged = Map<string, Map<string, number>>;

function record(names: readonly string[], rounds: number, block: number): void {
  rmSync(DIR, { recursive: true, force: true });
  mkdirSync(DIR, { recursive: true });
  // --perf-basic-prof turns on V8's log too: into the results folder, not the working directory
  const v8Log = [`--logfile=${path.join(DIR, 'v8.log')}`, '--no-logfile-per-isolate'];
  const child = [process.execPath, '--perf-basic-prof', ...v8Log, '--import', 'tsx', fileURLToPath(import.meta.url), '--child', ...names, '--rounds', String(rounds), '--block', String(block)];
  // -k mono: sample times on CLOCK_MONOTONIC, the clock the blocks are timed with
  run('perf', ['record', '-q', '-e', 'cpu-clock', '-F', '4999', '-k', 'mono', '-o', DATA, '--', ...child]);
}

/**
 * Every sample of the blocks' process, charged to the contender whose block it fell in, by area
 * and by symbol: its period (ns of CPU, whatever rate the kernel throttled sampling to).
 */
function charge(): { byArea: Charged; bySymbol: Charged; blocks: readonly Block[] } {
  const { pid, blocks } = readBlocks(DIR);
  const byArea: Charged = new Map();
  const bySymbol: Charged = new Map();
  const add = (charged: Charged, name: string, key: string, ns: number) => {
    const totals = charged.get(name) ?? charged.set(name, new Map()).get(name)!;
    totals.set(key, (totals.get(key) ?? 0) + ns);
  };
  const script = run('perf', ['script', '-i', DATA, '-F', 'pid,tid,time,period,ip,sym,dso']);
  // the JIT symbol map --perf-basic-prof left: read by perf script, of no use after it
  rmSync(`/tmp/perf-${pid}.map`, { force: true });
  for (const line of script.split('\n')) {
    // " 1407/1413  25067.623718:     200160   24a7a72 v8::internal::Foo (/usr/bin/node)"
    const match = /^\s*(\d+)\/(\d+)\s+([\d.]+):\s+(\d+)\s+\S+\s+(.*?)\s+\(([^)]*)\)$/.exec(line);
    if (!match || Number(match[1]) !== pid) continue;
    const block = blockAt(blocks, Number(match[3]) * 1e6);
    if (block === undefined) continue;
    const area = `${match[2] === match[1] ? 'main' : 'other threads'}: ${areaOf(match[5], match[6])}`;
    add(byArea, block.name, area, Number(match[4]));
    add(bySymbol, block.name, `${area.padEnd(32)} ${match[5].slice(0, 100)}`, Number(match[4]));
  }
  return { byArea, bySymbol, blocks };
}

/** The block running at `time` (µs), if any: a binary search over blocks in time order. */
function blockAt(blocks: readonly Block[], time: number): Block | undefined {
  let low = 0;
  let high = blocks.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if (blocks[middle].end < time) low = middle + 1;
    else if (blocks[middle].start > time) high = middle - 1;
    else return blocks[middle];
  }
  return undefined;
}

/** Which part of the process a sampled symbol belongs to. */
function areaOf(symbol: string, dso: string): string {
  if (dso.includes('kernel')) return 'kernel';
  if (dso.endsWith('/node')) {
    if (symbol.startsWith('Builtins_')) return 'V8 builtins';
    // apart, so that code compiled again and again shows (a step's optimised code lost at each major GC did)
    return /^v8::internal::(compiler|maglev)::|OptimizedCompilationJob|TurbofanCompilationJob/.test(symbol) ? 'V8 optimising compiler' : 'V8 and node C++';
  }
  if (!/\/perf-\d+\.map$/.test(dso)) return path.basename(dso);
  if (symbol.includes('/dist/')) return 'JS: the library';
  if (symbol.includes('/undici/')) return 'JS: undici';
  if (/\/node_modules\/(axios|got)\//.test(symbol)) return 'JS: axios, got';
  if (symbol.includes(' node:')) return 'JS: node internals';
  return 'JS: other (bench, regexps, wasm)';
}

function run(command: string, args: readonly string[]): string {
  const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'inherit'] });
  if (result.error) throw new Error(`${command}: ${result.error.message} (perf is in Debian's linux-perf)`);
  if (result.status !== 0) throw new Error(`${command} ${args[0]} failed (${result.signal ?? `exit code ${result.status}`})`);
  return result.stdout;
}

function report(names: readonly [string, string], top: number): void {
  const { byArea, bySymbol, blocks } = charge();
  const requests = requestsByName(blocks);
  const perRequest = (name: string, ns: number) => ns / 1000 / requests.get(name)!;
  const total = (name: string) => perRequest(name, [...(byArea.get(name)?.values() ?? [])].reduce((x, y) => x + y, 0));
  const [a, b] = names;
  console.log(`blocks: ${readBlocks(DIR).order}`);
  console.log(`A ${a}: ${total(a).toFixed(1)} µs/req sampled (process.cpuUsage: ${cpuPerRequest(blocks, a).toFixed(1)})`);
  console.log(`B ${b}: ${total(b).toFixed(1)} µs/req sampled (process.cpuUsage: ${cpuPerRequest(blocks, b).toFixed(1)}), ${(total(b) / total(a)).toFixed(3)} × A`);
  const inMicroseconds = (charged: Charged, name: string) => new Map([...(charged.get(name) ?? [])].map(([key, ns]) => [key, perRequest(name, ns)]));
  for (const [title, charged, rows] of [['area', byArea, Infinity], ['symbol', bySymbol, top]] as const) {
    printDifferences(`by ${title}, CPU µs per request`, inMicroseconds(charged, a), inMicroseconds(charged, b), rows);
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const child = args.includes('--child');
  const [rounds, block, top] = [takeCount(args, 'rounds', 40), takeCount(args, 'block', 1000), takeCount(args, 'top', 40)];
  const names = args.filter((arg) => arg !== '--child');
  if (names.length !== 2) throw new Error("usage: perf-split.ts '<contender A>' '<contender B>' [--rounds 40] [--block 1000] [--top 40]");
  const pair: [string, string] = [names[0], names[1]];
  if (child) return runBlocks(DIR, pair, rounds, block);
  buildLibrary();
  record(pair, rounds, block);
  report(pair, top);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
