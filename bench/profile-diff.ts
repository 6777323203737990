/**
 * Compares two profiles from `profile.ts` per request: where a contender spends the CPU its
 * counterpart does not (self time per function, µs per request, largest difference first).
 * Charges work to the function that does it, wherever it sits (node internals, undici, lib/),
 * so extra work a lib/ function causes in its callees shows up under those callees.
 *
 * @example
 * npx tsx bench/profile-diff.ts bench/results/profile/lib-fetch bench/results/profile/raw-fetch 30
 *
 * Request counts come from each folder's `run.json` (written by `profile.ts`); both runs must be
 * sampled at the same `--cpu-prof-interval`. The profiler adds its own cost, so the totals run
 * higher than the benchmark's CPU µs/req; differences between the two are what count.
 *
 * @module
 */
import { newestProfile, readProfile, readRun, selfTimes, shortLocation } from './profile-files.js';

/** Self µs per request by `where:function`, idle left out. */
function perRequest(dir: string): { name: string; total: number; byFunction: Map<string, number> } {
  const run = readRun(dir);
  if (!run) throw new Error(`${dir} has no run.json: profile it with bench/profile.ts`);
  const byFunction = new Map<string, number>();
  for (const [node, us] of selfTimes(readProfile(newestProfile(dir)))) {
    const { functionName, url } = node.callFrame;
    if (functionName === '(idle)') continue;
    // node_modules/undici/lib/... → undici/lib/...; file:///…/lib/x.ts → lib/x.ts
    const where = shortLocation(url);
    const key = `${where}:${functionName || '(anonymous)'}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + us / run.requests);
  }
  return { name: run.contender, total: [...byFunction.values()].reduce((a, b) => a + b, 0), byFunction };
}

function main(): void {
  const [dirA, dirB, topArg] = process.argv.slice(2);
  if (!dirA || !dirB) throw new Error('usage: profile-diff.ts <profile dir A> <profile dir B> [top N]');
  const a = perRequest(dirA);
  const b = perRequest(dirB);
  const top = Number(topArg ?? 30);
  console.log(`busy µs/req (profiled): A ${a.name} ${a.total.toFixed(1)}, B ${b.name} ${b.total.toFixed(1)}, A − B ${(a.total - b.total).toFixed(1)}\n`);
  console.log(`${'A − B'.padStart(7)} ${'A'.padStart(7)} ${'B'.padStart(7)}  function (self µs/req)`);
  const keys = new Set([...a.byFunction.keys(), ...b.byFunction.keys()]);
  const rows = [...keys].map((key) => ({ key, a: a.byFunction.get(key) ?? 0, b: b.byFunction.get(key) ?? 0 }));
  rows.sort((x, y) => y.a - y.b - (x.a - x.b));
  for (const r of rows.slice(0, top)) console.log(`${(r.a - r.b).toFixed(2).padStart(7)} ${r.a.toFixed(2).padStart(7)} ${r.b.toFixed(2).padStart(7)}  ${r.key}`);
}

main();
