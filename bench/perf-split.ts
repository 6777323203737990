/**
 * Where one contender spends CPU that another does not, from Linux `perf` (the `cpu-clock`
 * software event, which works on VMs without hardware counters; node's `--perf-basic-prof`
 * names the JIT code). Both contenders run in one process, taking turns in blocks
 * (`blocks.ts`), and each sample of that process is charged to the block it fell in.
 *
 * Unlike V8's profiler (`interleaved-profile.ts`), a sample costs little: the totals come out
 * near the benchmark's, and so does the ratio (the fetch pair read 1.00 there, 1.08–1.13 here
 * and in the benchmark). It also names what V8's profiler cannot: V8's builtins and C++ (the
 * garbage collector, `Object.seal`), the kernel, and the other threads.
 *
 * @example
 * npx tsx bench/perf-split.ts 'raw fetch' 'httpbuilder-ts (fetch)'
 * BENCH_SCENARIO=b npx tsx bench/perf-split.ts 'raw fetch' 'httpbuilder-ts (fetch)' --rounds 60 --top 60
 *
 * Needs `perf` (Debian's `linux-perf`). The data stays in `bench/results/profile/interleaved/`.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BLOCKS_DIR, cpuPerRequest, readBlocks, requestsByName, runBlocks, type Block } from './blocks.js';
import { buildLibrary } from './library.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DATA = path.join(BLOCKS_DIR, 'perf.data');
const HZ = 4999;

/** Samples by key, per contender. */
type Charged = Map<string, Map<string, number>>;

function record(names: readonly string[], rounds: number, block: number): void {
  mkdirSync(BLOCKS_DIR, { recursive: true });
  // --perf-basic-prof turns on V8's log too: into the results folder, not the working directory
  const v8Log = [`--logfile=${path.join(BLOCKS_DIR, 'v8.log')}`, '--no-logfile-per-isolate'];
  const child = [process.execPath, '--perf-basic-prof', ...v8Log, '--import', 'tsx', fileURLToPath(import.meta.url), '--child', ...names, '--rounds', String(rounds), '--block', String(block)];
  // -k mono: sample times on CLOCK_MONOTONIC, the clock the blocks are timed with
  run('perf', ['record', '-q', '-e', 'cpu-clock', '-F', String(HZ), '-k', 'mono', '-o', DATA, '--', ...child]);
}

/** Every sample of the blocks' process, charged to the contender whose block it fell in, by area and by symbol. */
function charge(): { byArea: Charged; bySymbol: Charged; blocks: readonly Block[] } {
  const { pid, blocks } = readBlocks();
  const byArea: Charged = new Map();
  const bySymbol: Charged = new Map();
  const add = (charged: Charged, name: string, key: string) => {
    const totals = charged.get(name) ?? charged.set(name, new Map()).get(name)!;
    totals.set(key, (totals.get(key) ?? 0) + 1);
  };
  const script = run('perf', ['script', '-i', DATA, '-F', 'pid,tid,time,ip,sym,dso']);
  let b = 0;
  for (const line of script.split('\n')) {
    // " 1407/1413  25067.623718:   24a7a72 v8::internal::Foo (/usr/bin/node)", in time order
    const match = /^\s*(\d+)\/(\d+)\s+([\d.]+):\s+\S+\s+(.*?)\s+\(([^)]*)\)$/.exec(line);
    if (!match || Number(match[1]) !== pid) continue;
    const time = Number(match[3]) * 1e6;
    while (b < blocks.length && blocks[b].end < time) b++;
    if (b === blocks.length || time < blocks[b].start) continue;
    const area = `${match[2] === match[1] ? 'main' : 'other threads'}: ${areaOf(match[4], match[5])}`;
    add(byArea, blocks[b].name, area);
    add(bySymbol, blocks[b].name, `${area.padEnd(32)} ${match[4].slice(0, 100)}`);
  }
  return { byArea, bySymbol, blocks };
}

/** Which part of the process a sampled symbol belongs to. */
function areaOf(symbol: string, dso: string): string {
  if (dso.includes('kernel')) return 'kernel';
  if (dso.endsWith('/node')) return symbol.startsWith('Builtins_') ? 'V8 builtins' : 'V8 and node C++';
  if (!dso.includes('perf-')) return path.basename(dso);
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
  const perRequest = (name: string, samples: number) => (samples * 1e6) / HZ / requests.get(name)!;
  const total = (name: string) => perRequest(name, [...(byArea.get(name)?.values() ?? [])].reduce((x, y) => x + y, 0));
  const [a, b] = names;
  console.log(`A ${a}: ${total(a).toFixed(1)} µs/req sampled (process.cpuUsage: ${cpuPerRequest(blocks, a).toFixed(1)})`);
  console.log(`B ${b}: ${total(b).toFixed(1)} µs/req sampled (process.cpuUsage: ${cpuPerRequest(blocks, b).toFixed(1)}), ${(total(b) / total(a)).toFixed(3)} × A`);
  for (const [title, charged, rows] of [['area', byArea, Infinity], ['symbol', bySymbol, top]] as const) {
    const left = charged.get(a) ?? new Map<string, number>();
    const right = charged.get(b) ?? new Map<string, number>();
    const lines = [...new Set([...left.keys(), ...right.keys()])]
      .map((key) => ({ key, a: perRequest(a, left.get(key) ?? 0), b: perRequest(b, right.get(key) ?? 0) }))
      .sort((x, y) => Math.abs(y.b - y.a) - Math.abs(x.b - x.a))
      .slice(0, rows);
    console.log(`\nby ${title}, CPU µs per request:\n  B − A       A       B`);
    for (const line of lines) console.log(`${(line.b - line.a).toFixed(2).padStart(7)} ${line.a.toFixed(2).padStart(7)} ${line.b.toFixed(2).padStart(7)}  ${line.key}`);
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const option = (name: string, fallback: number) => {
    const at = args.indexOf(`--${name}`);
    return at < 0 ? fallback : Number(args.splice(at, 2)[1]);
  };
  const child = args.includes('--child');
  const [rounds, block, top] = [option('rounds', 40), option('block', 1000), option('top', 40)];
  const names = args.filter((arg) => arg !== '--child');
  if (names.length !== 2) throw new Error("usage: perf-split.ts '<contender A>' '<contender B>' [--rounds 40] [--block 1000] [--top 40]");
  const pair: [string, string] = [names[0], names[1]];
  if (child) return runBlocks(pair, rounds, block);
  buildLibrary();
  record(pair, rounds, block);
  report(pair, top);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
