/**
 * The library's own cost per call when its code is cold, as it is next to a real transport.
 * `overhead.ts` times the library in a tight loop, where all of it stays in the CPU's caches:
 * about 2 µs per GET. Next to fetch the same pipeline costs about 10 (docs/performance.md,
 * "Early morning"), because fetch's work between two of its steps pushes its code, inline
 * caches and objects out. Here each call follows a run of a few thousand distinct functions
 * (`cache-evictor.ts`), and what is printed is the library's call less the same scenario done
 * on the backend directly (send, read, JSON.parse; for POST also JSON.stringify), hot and cold,
 * both in one process, one call of each in turn. A figure steady to about a microsecond, for
 * changes that aim at the pipeline's footprint (fewer functions and objects per request)
 * rather than its instructions, which the socket benchmark cannot resolve.
 *
 * Each call is timed alone with `process.hrtime` (one thread, no I/O: its wall time is its CPU
 * time); the evictor's own time is outside the timing.
 *
 * @example
 * npx tsx bench/cold-overhead.ts                       # builds dist/, then 7 runs × 4,000 pairs per scenario
 * npx tsx bench/cold-overhead.ts --no-build --functions 1000
 *
 * @module
 */
import type { WireResponse } from '../lib/index.js';
import { cacheEvictor } from './cache-evictor.js';
import { librarySession } from './contenders/library.js';
import { buildLibrary, importLibrary } from './library.js';
import { median } from './measure.js';
import { GET_WIRE, memoryBackend, POST_WIRE } from './memory-backend.js';
import { takeCount } from './options.js';
import { POST_DOCUMENT, SCENARIOS } from './scenarios.js';

const RUNS = 7;
const PAIRS = 4_000;
const utf8 = new TextDecoder();

const parsed = (response: WireResponse): Promise<unknown> => response.readAll!().then((bytes) => JSON.parse(utf8.decode(bytes)) as unknown);

/** The scenario done on the memory backend directly: what a user of a raw client writes. */
function bareCall(id: string): () => Promise<unknown> {
  if (id === 'a') return () => memoryBackend.send(GET_WIRE).then(parsed);
  return () => {
    // the memory backend echoes on its own: the text is made, and framed, as a raw client does
    const text = JSON.stringify(POST_DOCUMENT);
    return memoryBackend.send({ ...POST_WIRE, headers: { 'Content-Type': 'application/json', 'Content-Length': String(Buffer.byteLength(text)) } }).then(parsed);
  };
}

/** µs of `library` less µs of `bare`, one call of each in turn, each after `before()`. */
async function difference(library: () => Promise<unknown>, bare: () => Promise<unknown>, before: () => void): Promise<number> {
  let libraryNs = 0n;
  let bareNs = 0n;
  for (let i = 0; i < PAIRS; i++) {
    before();
    let started = process.hrtime.bigint();
    await library();
    libraryNs += process.hrtime.bigint() - started;
    before();
    started = process.hrtime.bigint();
    await bare();
    bareNs += process.hrtime.bigint() - started;
  }
  return Number(libraryNs - bareNs) / PAIRS / 1000;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const functions = takeCount(argv, 'functions', 2_000);
  if (!argv.includes('--no-build')) buildLibrary();
  const { HttpBuilder } = await importLibrary();
  const client = HttpBuilder.configure((c) => {
    c.request.uri = 'http://127.0.0.1:8080';
    c.client.backend = memoryBackend;
  });
  const session = librarySession(client);
  const evict = cacheEvictor(functions);
  const nothing = () => {};
  for (const scenario of SCENARIOS) {
    const library = () => scenario.run(session);
    const bare = bareCall(scenario.id);
    // both sides do the whole work: the same document comes back parsed
    if (!scenario.check(await library()) || !scenario.check(await bare())) throw new Error(`unexpected result in scenario (${scenario.id})`);
    for (const [label, before] of [['hot', nothing], [`cold (${functions} functions between calls)`, evict]] as const) {
      await difference(library, bare, before); // warm-up (JIT)
      const runs: number[] = [];
      for (let run = 0; run < RUNS; run++) runs.push(await difference(library, bare, before));
      console.log(`(${scenario.id}) ${label}: the library ${median(runs).toFixed(2)} µs per call more than the backend alone (runs ${runs.map((r) => r.toFixed(1)).join(', ')})`);
    }
  }
  await session.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
