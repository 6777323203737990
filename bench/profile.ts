/**
 * A long, steady loop of one contender's scenario-(a) requests, for a CPU profile of the client:
 *
 * @example
 * node --import tsx --cpu-prof --cpu-prof-dir=bench/results/profile --cpu-prof-interval 100 bench/profile.ts
 * npx tsx bench/profile-summary.ts bench/results/profile
 *
 * @example
 * // a backend against its raw client, per request (one folder per profile)
 * BENCH_CONTENDER='httpbuilder-ts (fetch)' node --import tsx --cpu-prof --cpu-prof-dir=bench/results/profile/lib-fetch --cpu-prof-interval 100 bench/profile.ts --rounds 1 --requests 40000
 * BENCH_CONTENDER='raw fetch' node --import tsx --cpu-prof --cpu-prof-dir=bench/results/profile/raw-fetch --cpu-prof-interval 100 bench/profile.ts --rounds 1 --requests 40000
 * npx tsx bench/profile-diff.ts bench/results/profile/lib-fetch bench/results/profile/raw-fetch
 *
 * Same settings as `run.ts` (`BENCH_REQUESTS`, `BENCH_ROUNDS`, `BENCH_WARMUP`, `BENCH_CONCURRENCY`,
 * or `--requests N` ...): warm-up, then `rounds × requests` requests in one stretch.
 * `BENCH_CONTENDER` picks the contender: its exact name, else the first whose name contains it
 * (default `httpbuilder-ts (native)`), e.g. `BENCH_CONTENDER='httpbuilder-ts (axios)'` or
 * `BENCH_CONTENDER='raw got'`.
 * tsx runs lib/ as minified one-line modules, so this also saves their source maps
 * (`sourcemaps.json` in the `--cpu-prof-dir`) for `profile-summary.ts` to name `.ts` lines, and
 * `run.json` (contender, requests) for `profile-diff.ts` to count per request.
 *
 * @module
 */
import { readdirSync, mkdirSync, writeFileSync } from 'node:fs';
import { findSourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CONTENDERS, type Session } from './contenders.js';
import { measureRun } from './measure.js';
import { parseOptions } from './options.js';
import { pinSelf } from './pinning.js';
import { SMALL_JSON } from './scenarios.js';
import { startServer } from './server-process.js';

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), process.env);
  const wanted = process.env.BENCH_CONTENDER ?? 'httpbuilder-ts (native)';
  const contender = CONTENDERS.find((c) => c.name === wanted) ?? CONTENDERS.find((c) => c.name.includes(wanted));
  if (!contender) throw new Error(`no contender matches '${wanted}' (names: ${CONTENDERS.map((c) => c.name).join(', ')})`);
  console.log(pinSelf().status);
  const server = await startServer();
  let session: Session | undefined;
  try {
    session = await contender.open(server.origin);
    const open = session;
    if (options.warmup > 0) await measureRun(() => SMALL_JSON.run(open), SMALL_JSON.check, options.warmup, options.concurrency);
    const total = options.rounds * options.requests;
    const result = await measureRun(() => SMALL_JSON.run(open), SMALL_JSON.check, total, options.concurrency);
    console.log(`${contender.name}: ${total} requests, ${result.reqPerSec.toFixed(0)} req/s, ${result.cpuUsPerReq.toFixed(1)} CPU µs/req`);
    // the profile covers the warm-up too
    writeFileSync(path.join(profileDir(), 'run.json'), `${JSON.stringify({ contender: contender.name, requests: options.warmup + total, measured: result })}\n`);
  } finally {
    await session?.close();
    await server.stop();
  }
  saveSourceMaps();
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The `--cpu-prof-dir` (created), or `bench/results/profile`. */
function profileDir(): string {
  const dirArg = process.execArgv.find((a) => a.startsWith('--cpu-prof-dir='));
  const dir = path.resolve(ROOT, dirArg ? dirArg.slice('--cpu-prof-dir='.length) : 'bench/results/profile');
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** Writes the source maps tsx registered for lib/ files (without their sources) next to the profile. */
function saveSourceMaps(): void {
  const dir = profileDir();
  const maps: Record<string, unknown> = {};
  for (const file of readdirSync(path.join(ROOT, 'lib'), { recursive: true, encoding: 'utf8' })) {
    const url = pathToFileURL(path.join(ROOT, 'lib', file)).href;
    const payload = findSourceMap(url)?.payload;
    if (payload) maps[url] = { ...payload, sourcesContent: undefined };
  }
  writeFileSync(path.join(dir, 'sourcemaps.json'), JSON.stringify(maps));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
