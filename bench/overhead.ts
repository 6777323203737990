/**
 * The library's own cost per call, without any I/O: the calls of scenarios (a) and (b) against
 * a backend that answers at once from memory. What is left is configuration merging, freezing,
 * URL building, header checks, encoding, the pipeline stages, parsing and dispatch — the
 * overhead issue #7 asks to take out, measured far more steadily than through sockets. Then
 * two figures that do not drift at all: promises and bytes allocated per call (`call-counts.ts`),
 * which cost more than their share next to an allocation-heavy transport such as fetch.
 *
 * @example
 * npx tsx bench/overhead.ts            # builds dist/, then 7 runs × 50,000 calls per scenario
 * npx tsx bench/overhead.ts --no-build # measure the dist/ as it is
 *
 * @module
 */
import { librarySession } from './contenders/library.js';
import { buildLibrary, importLibrary } from './library.js';
import { bytesPerCall, promisesPerCall } from './call-counts.js';
import { median, settle } from './measure.js';
import { GET_WIRE, memoryBackend, POST_WIRE } from './memory-backend.js';
import { SCENARIOS } from './scenarios.js';

const CALLS = 50_000;
const COUNTED_CALLS = 5_000;
const RUNS = 7;
const CONCURRENCY = 32;

async function main(): Promise<void> {
  if (!process.argv.includes('--no-build')) buildLibrary();
  const { HttpBuilder } = await importLibrary();
  const client = HttpBuilder.configure((c) => {
    c.request.uri = 'http://127.0.0.1:8080';
    c.client.backend = memoryBackend;
  });
  const session = librarySession(client);
  for (const scenario of SCENARIOS) {
    const perCall: number[] = [];
    for (let run = 0; run <= RUNS; run++) {
      await settle();
      const started = process.cpuUsage();
      let issued = 0;
      const loop = async () => {
        while (issued++ < CALLS) if (!scenario.check(await scenario.run(session))) throw new Error(`unexpected result in scenario (${scenario.id})`);
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, loop));
      const cpu = process.cpuUsage(started);
      // run 0 is the warm-up (JIT)
      if (run > 0) perCall.push((cpu.user + cpu.system) / CALLS);
    }
    const range = `${Math.min(...perCall).toFixed(2)}–${Math.max(...perCall).toFixed(2)}`;
    console.log(`(${scenario.id}) ${scenario.title}: ${median(perCall).toFixed(2)} CPU µs per call (runs ${range}), no I/O`);
    // the library's own share: what a call costs less what the memory backend alone costs
    const call = () => scenario.run(session);
    const backendOnly = () => memoryBackend.send(scenario.id === 'b' ? POST_WIRE : GET_WIRE).then((response) => response.readAll!());
    // less one: backendOnly's own then()
    const promises = (await promisesPerCall(call, COUNTED_CALLS)) - ((await promisesPerCall(backendOnly, COUNTED_CALLS)) - 1);
    const bytes = (await bytesPerCall(call, COUNTED_CALLS)) - (await bytesPerCall(backendOnly, COUNTED_CALLS));
    console.log(`    the library's own: ${promises.toFixed(1)} promises and about ${(bytes / 1024).toFixed(2)} KiB allocated per call`);
  }
  await session.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
