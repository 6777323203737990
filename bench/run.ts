/**
 * `npm run bench`: runs the selected contenders (`BENCH_ONLY`, see `options.ts`) in one process
 * per library contender (`isolate.ts`, the default), or with `--isolate=0` all in this process (`in-process.ts`),
 * then prints the report and writes `bench/results/latest.md` and `latest.json`. Exits non-zero
 * only on errors of the harness itself (a missed target or a failed contender is reported, not fatal).
 *
 * With `BENCH_REPORT_FILE` set (how `isolate.ts` runs its child processes) it writes the report
 * as JSON to that file instead.
 *
 * @module
 */
import { writeFileSync } from 'node:fs';
import { CONTENDERS, selectContenders } from './contenders.js';
import { runInProcess } from './in-process.js';
import { runIsolated } from './isolate.js';
import { parseOptions } from './options.js';
import { formatText, writeResults } from './report.js';

async function main(): Promise<void> {
  const started = performance.now();
  const options = parseOptions(process.argv.slice(2), process.env);
  const contenders = selectContenders(CONTENDERS, options.only);
  const report = options.isolate ? await runIsolated(contenders, options, started) : await runInProcess(contenders, options, started);
  const reportFile = process.env.BENCH_REPORT_FILE;
  if (reportFile) {
    writeFileSync(reportFile, JSON.stringify(report));
    return;
  }
  console.log(`\n${formatText(report)}`);
  console.log(`\nwrote ${writeResults(report).join(', ')}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
