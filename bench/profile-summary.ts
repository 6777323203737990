/**
 * Summarises the newest `.cpuprofile` in a folder (default `bench/results/profile`): self time
 * by category (idle, GC, node internals, lib/, ...), the top self-time functions in `lib/`, and
 * the top `lib/` functions by "attributed" time: each sample charged to the innermost `lib/`
 * frame on its stack, i.e. the function's self time plus the node/builtin work it calls
 * directly (but not other lib/ functions). The latter is what a change in that function can save.
 *
 * @example
 * npx tsx bench/profile-summary.ts bench/results/profile 25
 *
 * The library runs compiled from `dist/` (see `library.ts`); frames are named by their `lib/*.ts`
 * source and line through the `.js.map` files tsc writes next to the build.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap, type SourceMapPayload } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { newestProfile, readProfile, selfTimes, type ProfileNode } from './profile-files.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST_URL = `file://${path.join(ROOT, 'dist')}/`;
const isLib = (url: string) => url.startsWith(DIST_URL);

/** Where a frame's self time goes in the category summary. */
function category(frame: ProfileNode['callFrame']): string {
  const { functionName: name, url } = frame;
  if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') return name;
  if (isLib(url)) return 'lib/ (httpbuilder-ts)';
  if (url.startsWith(`file://${path.join(ROOT, 'bench')}/`)) return 'bench/ (harness)';
  if (url.startsWith('node:')) return 'node: internals (JS)';
  if (url === '') return '(native / builtins)';
  return 'other JS (node_modules, tsx)';
}

function main(): void {
  const dir = process.argv[2] ?? path.join(ROOT, 'bench/results/profile');
  const top = Number(process.argv[3] ?? 20);
  const file = newestProfile(dir);
  const profile = readProfile(file);
  const parent = new Map<number, ProfileNode>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parent.set(child, n);
  const selfUs = selfTimes(profile);
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const busy = total - [...selfUs].filter(([n]) => n.callFrame.functionName === '(idle)').reduce((a, [, us]) => a + us, 0);
  const pct = (us: number, of: number) => `${((100 * us) / of).toFixed(1).padStart(5)}%`;

  const categories = new Map<string, number>();
  const functions = new Map<string, number>();
  const anyFunction = new Map<string, number>();
  for (const [node, us] of selfUs) {
    const { functionName, url } = node.callFrame;
    const anyKey = isLib(url) ? `lib/${libKey(node)}` : `${url.replace(`file://${ROOT}`, '') || '(native)'}:${functionName || '(anonymous)'}`;
    anyFunction.set(anyKey, (anyFunction.get(anyKey) ?? 0) + us);
    const cat = category(node.callFrame);
    categories.set(cat, (categories.get(cat) ?? 0) + us);
    if (cat === 'lib/ (httpbuilder-ts)') functions.set(libKey(node), (functions.get(libKey(node)) ?? 0) + us);
  }
  // charge every sample to the innermost lib/ frame above it (if any)
  const attributed = new Map<string, number>();
  let underLib = 0;
  for (const [node, us] of selfUs) {
    let frame: ProfileNode | undefined = node;
    while (frame && !isLib(frame.callFrame.url)) frame = parent.get(frame.id);
    if (!frame) continue;
    underLib += us;
    attributed.set(libKey(frame), (attributed.get(libKey(frame)) ?? 0) + us);
  }
  console.log(`${file}\ntotal ${(total / 1e6).toFixed(2)} s sampled, busy (non-idle) ${(busy / 1e6).toFixed(2)} s\n`);
  console.log('self time by category    % of busy');
  for (const [cat, us] of [...categories].sort((a, b) => b[1] - a[1])) console.log(`  ${cat.padEnd(30)} ${pct(us, busy)}`);
  console.log(`\ntop functions anywhere by self time (% of busy)`);
  for (const [key, us] of [...anyFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(us, busy)}  ${key}`);
  const libTotal = categories.get('lib/ (httpbuilder-ts)') ?? 0;
  const byFile = new Map<string, number>();
  for (const [key, us] of functions) byFile.set(key.split(':')[0], (byFile.get(key.split(':')[0]) ?? 0) + us);
  console.log(`\nlib/ self time by file (% of busy, % of lib/ self)`);
  for (const [name, us] of [...byFile].sort((a, b) => b[1] - a[1])) console.log(`  ${pct(us, busy)} ${pct(us, libTotal)}  ${name}`);
  console.log(`\ntop lib/ functions by self time (% of busy, % of lib/ self)`);
  for (const [key, us] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${pct(us, busy)} ${pct(us, libTotal)}  ${key}`);
  }
  console.log(`\ntop lib/ functions by attributed time (self + non-lib callees); all lib/-rooted samples: ${pct(underLib, busy)} of busy`);
  for (const [key, us] of [...attributed].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`  ${pct(us, busy)}  ${key}`);
  }
}

const sourceMaps = new Map<string, SourceMap | undefined>();

/** The `.js.map` tsc wrote next to a `dist/` file, if there is one. */
function sourceMapOf(url: string): SourceMap | undefined {
  if (!sourceMaps.has(url)) {
    const mapFile = `${fileURLToPath(url)}.map`;
    sourceMaps.set(url, existsSync(mapFile) ? new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8')) as SourceMapPayload) : undefined);
  }
  return sourceMaps.get(url);
}

/** `file.ts:function:line`, the line mapped back to the `.ts` source when a source map is known. */
function libKey(node: ProfileNode): string {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  const entry = sourceMapOf(url)?.findEntry(lineNumber, columnNumber);
  const file = url.slice(DIST_URL.length).replace(/\.js$/, '.ts');
  const line = entry && 'originalLine' in entry ? `${entry.originalLine + 1}` : `js${lineNumber + 1}:${columnNumber + 1}`;
  return `${file}:${functionName || '(anonymous)'}:${line}`;
}

main();
