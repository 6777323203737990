/**
 * A long, steady loop of one contender's requests of one scenario (`BENCH_SCENARIO=b` for the
 * POST, default `a`), for a CPU profile of the client:
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
 * It builds `dist/` first (the library is measured compiled, see `library.ts`) and saves
 * `run.json` (contender, requests) for `profile-diff.ts` to count per request.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTENDERS, type Session } from './contenders.js';
import { buildLibrary } from './library.js';
import { measureRun } from './measure.js';
import { parseOptions } from './options.js';
import { pinSelf } from './pinning.js';
import { SCENARIOS } from './scenarios.js';
import { startServer } from './server-process.js';

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2), process.env);
  const wanted = process.env.BENCH_CONTENDER ?? 'httpbuilder-ts (native)';
  const contender = CONTENDERS.find((c) => c.name === wanted) ?? CONTENDERS.find((c) => c.name.includes(wanted));
  if (!contender) throw new Error(`no contender matches '${wanted}' (names: ${CONTENDERS.map((c) => c.name).join(', ')})`);
  const scenarioId = process.env.BENCH_SCENARIO ?? 'a';
  const scenario = SCENARIOS.find((s) => s.id === scenarioId);
  if (!scenario) throw new Error(`BENCH_SCENARIO must be one of ${SCENARIOS.map((s) => s.id).join(', ')}, got '${scenarioId}'`);
  buildLibrary();
  console.log(pinSelf().status);
  const server = await startServer();
  let session: Session | undefined;
  try {
    session = await contender.open(server.origin);
    const open = session;
    if (options.warmup > 0) await measureRun(() => scenario.run(open), scenario.check, options.warmup, options.concurrency);
    const total = options.rounds * options.requests;
    const result = await measureRun(() => scenario.run(open), scenario.check, total, options.concurrency);
    console.log(`${contender.name}, scenario (${scenario.id}): ${total} requests, ${result.reqPerSec.toFixed(0)} req/s, ${result.cpuUsPerReq.toFixed(1)} CPU µs/req`);
    // the profile covers the warm-up too
    writeFileSync(path.join(profileDir(), 'run.json'), `${JSON.stringify({ contender: contender.name, scenario: scenario.id, requests: options.warmup + total, measured: result })}\n`);
  } finally {
    await session?.close();
    await server.stop();
  }
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The `--cpu-prof-dir` (created), or `bench/results/profile`. */
function profileDir(): string {
  const dirArg = process.execArgv.find((a) => a.startsWith('--cpu-prof-dir='));
  const dir = path.resolve(ROOT, dirArg ? dirArg.slice('--cpu-prof-dir='.length) : 'bench/results/profile');
  mkdirSync(dir, { recursive: true });
  return dir;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
