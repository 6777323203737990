/**
 * `npm run bench`: builds `dist/` (the library is measured compiled, as users run it:
 * `library.ts`), starts the benchmark server in a process of its own, runs the request scenarios
 * (`requests.ts`) and then the transfer scenarios (`transfers.ts`) for the selected contenders,
 * checks the server's request counts, then prints the report and writes `latest.md` and
 * `latest.json` (`report.ts`). Scenarios left out with `--scenarios` keep their results from the
 * previous `latest.json`. Options: `options.ts`. A missed target or a failed contender is
 * reported, not fatal; the exit code is non-zero when the harness itself failed or the server's
 * counts disagree with the clients'.
 *
 * @module
 */
import os from 'node:os';
import type { Contender } from './contender.js';
import { CONTENDERS, selectContenders } from './contenders.js';
import { buildLibrary } from './library.js';
import { parseOptions, type BenchOptions } from './options.js';
import { PINNING, startServer } from './processes.js';
import { formatText, readPreviousReport, writeResults, FORMAT, type BenchReport } from './report.js';
import { requestSettings, runRequestScenarios } from './requests.js';
import { scenarios, type RequestScenario, type Scenario, type TransferScenario } from './scenarios.js';
import { ServerCheck, serverStats } from './server-check.js';
import { summarise, type ScenarioReport } from './summary.js';
import { runTransferScenarios, transferSettings } from './transfers.js';

async function main(): Promise<void> {
  const started = performance.now();
  const date = new Date().toISOString();
  const options = parseOptions(process.argv.slice(2));
  const contenders = selectContenders(CONTENDERS, options.only);
  const selected = scenarios(options.transferSize).filter((s) => options.scenarios.includes(s.id));
  const previous = readPreviousReport(options.out);
  buildLibrary();
  const { fresh, check } = await runScenarios(contenders, selected, options, date);
  const report: BenchReport = {
    format: FORMAT,
    date,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    cpu: `${os.cpus()[0]?.model.trim() ?? 'unknown'} × ${os.cpus().length}`,
    pinning: PINNING,
    options,
    method: methodLines(options, contenders, selected),
    durationSeconds: (performance.now() - started) / 1000,
    serverCheck: check.text,
    scenarios: withKept(fresh, previous),
  };
  console.log(`\n${formatText(report)}`);
  console.log(`\nwrote ${writeResults(report, options.out).join(', ')}`);
  if (!check.ok) process.exitCode = 1;
}

/** Runs `selected` against a server of their own: the request scenarios first, then the transfers; their summaries, and the server's check. */
async function runScenarios(contenders: readonly Contender[], selected: readonly Scenario[], options: BenchOptions, date: string) {
  const server = await startServer();
  console.log(`server: ${server.origin}; pinning: ${PINNING}\ncontenders: ${contenders.map((c) => c.name).join(', ')}`);
  try {
    const check = new ServerCheck();
    const requests = selected.filter((s): s is RequestScenario => s.kind === 'requests');
    const transfers = selected.filter((s): s is TransferScenario => s.kind === 'transfers');
    const results = [
      ...(await runRequestScenarios(contenders, requests, options, server.origin, check)),
      ...(await runTransferScenarios(contenders, transfers, options, server.origin, check)),
    ];
    return { fresh: results.map((result) => summarise(result, contenders, date)), check: check.verdict((await serverStats(server.origin)).served) };
  } finally {
    await server.stop();
  }
}

/** How this run measured, for the report. */
function methodLines(options: BenchOptions, contenders: readonly Contender[], selected: readonly Scenario[]): string[] {
  const only = options.only.length > 0 ? ` (--only ${options.only.join(',')}: with counterparts and baseline)` : '';
  return [
    `seed ${options.seed}${only}; each process and scenario derives its own schedule from it (\`bench/schedule.ts\`)`,
    ...(selected.some((s) => s.kind === 'requests') ? [`request scenarios: ${requestSettings(options, contenders)}`] : []),
    ...(selected.some((s) => s.kind === 'transfers') ? [`transfer scenarios: ${transferSettings(options)}`] : []),
  ];
}

/** The scenarios run now, plus those of `previous` not run this time (with their own date), in scenario order. */
function withKept(fresh: readonly ScenarioReport[], previous: BenchReport | undefined): ScenarioReport[] {
  const kept = (previous?.scenarios ?? []).filter((old) => !fresh.some((s) => s.id === old.id));
  return [...fresh, ...kept].sort((a, b) => a.id.localeCompare(b.id));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
