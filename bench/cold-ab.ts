/**
 * Two builds of the library compared cold, in one process: each call after the cache evictor
 * (`cache-evictor.ts`, as in `cold-overhead.ts`), the two builds taking turns call by call, so
 * the VM's drift falls on both alike. `cold-overhead.ts` run once per build in separate
 * processes cannot tell apart changes under about a microsecond (processes differ by that
 * much); this resolves about half of one. Against a copy of itself it reads 0 to +0.4 µs for
 * GET (the build loaded first is a little slower): read a difference as real when it is
 * beyond that, and the same with the builds given the other way round.
 *
 * A build is a compiled `dist/` made with `npx tsc -p tsconfig.build.json --outDir <folder>`,
 * into a folder inside this repository (`bench/results/builds/`, which git ignores): its
 * modules need the package's `"type": "module"`. Outside it, node loads them by detecting
 * their syntax, and two copies of the same build then read 10–14 µs apart.
 *
 * @example
 * npx tsc -p tsconfig.build.json --outDir bench/results/builds/before   # before the change
 * npx tsc -p tsconfig.build.json --outDir bench/results/builds/after    # after it
 * npx tsx bench/cold-ab.ts bench/results/builds/before bench/results/builds/after   # 9 runs × 3,000 calls of each, per scenario (~1 min)
 *
 * @module
 */
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { HttpBuilder } from '../lib/index.js';
import { cacheEvictor } from './cache-evictor.js';
import type { Session } from './contender.js';
import { librarySession } from './contenders/library.js';
import { median } from './measure.js';
import { memoryBackend } from './memory-backend.js';
import { takeCount } from './options.js';
import { SCENARIOS } from './scenarios.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function openBuild(folder: string): Promise<Session> {
  const inside = relative(ROOT, resolve(folder));
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) throw new Error(`${folder}: build into a folder inside the repository (bench/results/builds/...), so its modules load as the package's ES modules`);
  const module = (await import(pathToFileURL(resolve(folder, 'index.js')).href)) as { HttpBuilder: typeof HttpBuilder };
  return librarySession(
    module.HttpBuilder.configure((c) => {
      c.request.uri = 'http://127.0.0.1:8080';
      c.client.backend = memoryBackend;
    }),
  );
}

/** µs per call of `a` less µs per call of `b`, over `pairs` calls of each in turn, each call cold. */
async function difference(a: () => Promise<unknown>, b: () => Promise<unknown>, pairs: number, evict: () => void): Promise<number> {
  let total = 0n;
  for (let i = 0; i < pairs; i++) {
    // who goes first alternates: the call right after the other build's may find some of its own code warm
    for (const [call, sign] of i % 2 === 0 ? ([[a, 1n], [b, -1n]] as const) : ([[b, -1n], [a, 1n]] as const)) {
      evict();
      const started = process.hrtime.bigint();
      await call();
      total += sign * (process.hrtime.bigint() - started);
    }
  }
  return Number(total) / pairs / 1000;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const runs = takeCount(argv, 'runs', 9);
  const pairs = takeCount(argv, 'pairs', 3_000);
  const functions = takeCount(argv, 'functions', 2_000);
  if (argv.length !== 2) throw new Error('usage: npx tsx bench/cold-ab.ts <build A> <build B> [--runs N] [--pairs N] [--functions N]');
  const [a, b] = await Promise.all(argv.map(openBuild));
  const evict = cacheEvictor(functions);
  for (const scenario of SCENARIOS) {
    if (!scenario.check(await scenario.run(a)) || !scenario.check(await scenario.run(b))) throw new Error(`unexpected result in scenario (${scenario.id})`);
    const callA = () => scenario.run(a);
    const callB = () => scenario.run(b);
    await difference(callA, callB, pairs, evict); // warm-up (JIT)
    const differences: number[] = [];
    for (let run = 0; run < runs; run++) differences.push(await difference(callA, callB, pairs, evict));
    console.log(`(${scenario.id}) A − B, cold: ${median(differences).toFixed(2)} µs per call (runs ${differences.map((d) => d.toFixed(2)).join(', ')})`);
  }
  await Promise.all([a.close(), b.close()]);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
