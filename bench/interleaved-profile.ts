/**
 * Where one contender spends CPU that another does not, with the machine's drift taken out:
 * both run in one process under one CPU profile, alternating in short blocks (`--block`
 * requests each, order shuffled per round), and every sample is charged to the contender whose
 * block was running. Two separate profiles (`profile.ts` + `profile-diff.ts`) differ by 10-20%
 * on a shared VM whose speed drifts; these blocks differ by the work itself.
 *
 * @example
 * npx tsx bench/interleaved-profile.ts 'raw fetch' 'httpbuilder-ts (fetch)'
 * BENCH_SCENARIO=b npx tsx bench/interleaved-profile.ts 'raw fetch' 'httpbuilder-ts (fetch)' --rounds 60 --block 500
 *
 * Prints, per request: busy and CPU µs of each contender, then B − A by area (lib/, undici, node
 * internals, GC, ...) and by function. The profile and `blocks.json` stay in
 * `bench/results/profile/interleaved/` for a second look (`--report-only`).
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuPerRequest, printDifferences, readBlocks, requestsByName, runBlocks } from './blocks.js';
import { takeCount } from './options.js';
import { buildLibrary } from './library.js';
import { newestProfile, readProfile, shortLocation, type ProfileNode } from './profile-files.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIR = path.join(ROOT, 'bench/results/profile/interleaved');

interface Options {
  readonly names: readonly [string, string];
  readonly rounds: number;
  readonly block: number;
  readonly top: number;
}

function parse(argv: readonly string[]): Options & { child: boolean; reportOnly: boolean } {
  const args = [...argv];
  const [rounds, block, top] = [takeCount(args, 'rounds', 40), takeCount(args, 'block', 800), takeCount(args, 'top', 30)];
  const flags = ['--child', '--report-only'];
  const names = args.filter((arg) => !flags.includes(arg));
  if (names.length !== 2) throw new Error("usage: interleaved-profile.ts '<contender A>' '<contender B>' [--rounds 40] [--block 800] [--top 30] [--report-only]");
  return { names: [names[0], names[1]], rounds, block, top, child: args.includes('--child'), reportOnly: args.includes('--report-only') };
}

/** `lib/...` for the compiled library, `undici/...` for packages, node's own files as they are. */
function where(node: ProfileNode): string {
  return shortLocation(node.callFrame.url, true);
}

function area(node: ProfileNode): string {
  const file = where(node);
  if (file === '(native)') return `(native) ${node.callFrame.functionName}`;
  if (file.startsWith('node:')) return file.split('/').slice(0, 3).join('/');
  return file.split('/')[0];
}

/** Self µs per request, by key, for each contender: a sample counts for the block it fell in. */
function charge(options: Options, key: (node: ProfileNode) => string): Map<string, Map<string, number>> {
  const profile = readProfile(newestProfile(DIR));
  const { blocks } = readBlocks(DIR);
  const requests = requestsByName(blocks);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const out = new Map(options.names.map((name) => [name, new Map<string, number>()]));
  let time = profile.startTime;
  let b = 0;
  profile.samples.forEach((id, i) => {
    time += profile.timeDeltas[i];
    while (b < blocks.length && blocks[b].end < time) b++;
    const block = blocks[b];
    const node = byId.get(id)!;
    if (!block || time < block.start || node.callFrame.functionName === '(idle)') return;
    // a sample stands for the time until the next one
    const us = (profile.timeDeltas[i + 1] ?? 0) / requests.get(block.name)!;
    const totals = out.get(block.name)!;
    totals.set(key(node), (totals.get(key(node)) ?? 0) + us);
  });
  return out;
}

function report(options: Options): void {
  const { blocks, order } = readBlocks(DIR);
  console.log(`blocks: ${order}`);
  const [a, b] = options.names;
  const cpu = (name: string) => cpuPerRequest(blocks, name);
  const sum = (m: Map<string, number>) => [...m.values()].reduce((x, y) => x + y, 0);
  for (const [title, key] of [
    ['area', area],
    ['function', (node: ProfileNode) => `${where(node)}:${node.callFrame.functionName || '(anonymous)'}`],
  ] as const) {
    const charged = charge(options, key);
    const [left, right] = [charged.get(a)!, charged.get(b)!];
    if (title === 'area') {
      console.log(`A ${a}: CPU ${cpu(a).toFixed(1)} µs/req, busy in profile ${sum(left).toFixed(1)}`);
      console.log(`B ${b}: CPU ${cpu(b).toFixed(1)} µs/req (${(cpu(b) / cpu(a)).toFixed(3)} × A), busy in profile ${sum(right).toFixed(1)}`);
    }
    printDifferences(`by ${title}, self µs per request`, left, right, options.top);
  }
}

async function main(): Promise<void> {
  const options = parse(process.argv.slice(2));
  if (options.child) return runBlocks(DIR, options.names, options.rounds, options.block);
  if (!options.reportOnly) {
    buildLibrary();
    rmSync(DIR, { recursive: true, force: true });
    mkdirSync(DIR, { recursive: true });
    const args = ['--import', 'tsx', '--cpu-prof', `--cpu-prof-dir=${DIR}`, '--cpu-prof-interval', '50', fileURLToPath(import.meta.url), '--child', ...process.argv.slice(2)];
    const child = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
    if (child.status !== 0) throw new Error(`the profiled run failed (${child.signal ?? `exit code ${child.status}`})`);
  }
  report(options);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
