/**
 * `npm run bench`: runs the request scenarios (a) and (b) for the selected contenders (`BENCH_ONLY`, see `options.ts`)
 * in one process per library contender (`isolate.ts`, the default), or with `--isolate=0` all in
 * this process (`in-process.ts`); then the transfer scenarios (c) and (d) (`transfer/runner.ts`,
 * one process per transfer). Prints the report and writes `bench/results/latest.md` and
 * `latest.json`; a part left out with `--scenarios` keeps its results from the previous
 * `latest.json`. The library is measured as users run it, compiled (`library.ts`: dist/ is
 * built first). Exits non-zero only on errors of the harness itself (a missed target or a
 * failed contender is reported, not fatal).
 *
 * With `BENCH_REPORT_FILE` set (how `isolate.ts` runs its child processes) it runs the request
 * scenarios only and writes the report as JSON to that file instead.
 *
 * @module
 */
import os from 'node:os';
import { writeFileSync } from 'node:fs';
import { CONTENDERS, selectContenders, type Contender } from './contenders.js';
import { runInProcess } from './in-process.js';
import { runIsolated } from './isolate.js';
import { buildLibrary } from './library.js';
import { parseOptions, type BenchOptions } from './options.js';
import { formatText, readPreviousReport, writeResults, type BenchReport, type ScenarioReport } from './report.js';
import { SCENARIOS, selectScenarios } from './scenarios.js';
import { runTransfers } from './transfer/runner.js';

async function main(): Promise<void> {
  const started = performance.now();
  const options = parseOptions(process.argv.slice(2), process.env);
  const reportFile = process.env.BENCH_REPORT_FILE;
  // the parent builds dist/ once; its child processes (isolate, transfers) load that build
  if (!reportFile) buildLibrary();
  const previous = reportFile ? undefined : readPreviousReport();
  let report = previous ?? emptyReport(options);
  const contenders = selectScenarios(options.scenarios).length > 0 ? selectFor(options) : [];
  if (contenders.length > 0) {
    const fresh = options.isolate ? await runIsolated(contenders, options, started) : await runInProcess(contenders, options, started);
    report = { ...fresh, scenarios: withKept(fresh, previous), transfers: previous?.transfers };
  } else if (previous) {
    console.log(`request scenarios not run: their results from ${previous.date} are kept`);
  }
  if (reportFile) {
    writeFileSync(reportFile, JSON.stringify(report));
    return;
  }
  const transfers = await runTransfers(options);
  if (transfers) report = { ...report, transfers };
  else if (report.transfers) console.log(`transfers not run: their results from ${report.transfers.date} are kept`);
  console.log(`\n${formatText(report)}`);
  console.log(`\nwrote ${writeResults(report).join(', ')}`);
}

/** The request scenarios of `fresh`, plus those of `previous` it did not run (marked with their date), in run order. */
function withKept(fresh: BenchReport, previous: BenchReport | undefined): ScenarioReport[] {
  const kept = (previous?.scenarios ?? []).filter((old) => !fresh.scenarios.some((s) => s.id === old.id)).map((old) => ({ ...old, keptFrom: old.keptFrom ?? previous?.date }));
  const ids = SCENARIOS.map((s) => s.id);
  return [...fresh.scenarios, ...kept].sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
}

/** The request scenarios' contenders; none when `--only` names only transfer contenders (`raw undici`) and transfers run too. */
function selectFor(options: BenchOptions): Contender[] {
  try {
    return selectContenders(CONTENDERS, options.only);
  } catch (error) {
    if (options.scenarios.every((id) => selectScenarios([id]).length > 0)) throw error;
    console.log(`request scenarios skipped: ${(error as Error).message}`);
    return [];
  }
}

/** A report without request scenarios, for a first run that skips them. */
function emptyReport(options: BenchOptions): BenchReport {
  return {
    date: new Date().toISOString(),
    node: process.version,
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown',
    cpuCount: os.cpus().length,
    platform: `${process.platform}-${process.arch}`,
    pinning: { client: 'not run', server: 'not run' },
    options,
    scenarios: [],
    clientMaxRssBytes: 0,
    serverCheck: 'request scenarios not run',
    durationSeconds: 0,
  };
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
