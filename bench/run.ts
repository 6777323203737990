/**
 * `npm run bench`: builds `dist/`, starts the benchmark server in a process of its own, runs the
 * request scenarios (`requests.ts`) and then the transfers (`transfers.ts`) for the selected
 * contenders, checks the server's request counts, runs scenarios (f), (g) and (h) (`information.ts`, `opt-in-costs.ts`) and, the server stopped, (i) (`cold-start.ts`), prints the report and writes `latest.md` and
 * `latest.json` (`report.ts`). A missed target or a failed contender is reported, not fatal; the
 * exit code is non-zero when the harness itself failed or the server's counts disagree.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { Contender } from './contender.js';
import { CONTENDERS, selectContenders } from './contenders.js';
import type { RunContext } from './jobs.js';
import { parseOptions, type BenchOptions } from './options.js';
import { PINNING, startServer } from './processes.js';
import { runCacheScenario, runHttp2Scenario } from './information.js';
import { runOptInScenario } from './opt-in-costs.js';
import { runColdStartScenario } from './cold-start.js';
import { runScalingScenarios } from './scaling.js';
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
  const { fresh, check, http2, cache, optIn, scaling } = await runScenarios(contenders, selected, options, date, previous);
  // (i) after the server has stopped: new processes, nothing else running beside them
  const coldStart = options.scenarios.includes('i') ? runColdStartScenario(date, options.seed) : undefined;
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
    http2: http2 ?? previous?.http2,
    cache: cache ?? previous?.cache,
    optIn: optIn ?? previous?.optIn,
    coldStart: coldStart ?? previous?.coldStart,
    scaling,
  };
  console.log(`\n${formatText(report)}`);
  console.log(`\nwrote ${writeResults(report, options.out).join(', ')}`);
  if (!check.ok) process.exitCode = 1;
}

/**
 * `npm run build:esm` (the ES module part of `npm run build`: tsc, then the entries bundled by
 * scripts/bundle-esm.ts), so the benchmark never measures a stale build: the library contenders
 * import the compiled package, as users run it (through tsx, every function would pay for a
 * `__name()` call, about a microsecond per request, no user pays).
 */
function buildLibrary(): void {
  console.log('building dist/ (npm run build:esm) ...');
  const result = spawnSync('npm', ['run', '--silent', 'build:esm'], { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`building dist/ failed (${result.signal ?? `exit code ${result.status}`})`);
}

/** Runs `selected` against a server of their own: the request scenarios first, then the transfers; their summaries, and the server's check. */
async function runScenarios(
  contenders: readonly Contender[],
  selected: readonly Scenario[],
  options: BenchOptions,
  date: string,
  previous: BenchReport | undefined,
) {
  const server = await startServer();
  console.log(`server: ${server.origin}; pinning: ${PINNING}\ncontenders: ${contenders.map((c) => c.name).join(', ')}`);
  try {
    const context: RunContext = { contenders, options, origin: server.origin, check: new ServerCheck() };
    const requests = selected.filter((s): s is RequestScenario => s.kind === 'requests' && !s.proxied);
    const proxied = selected.filter((s): s is RequestScenario => s.kind === 'requests' && s.proxied === true);
    const transfers = selected.filter((s): s is TransferScenario => s.kind === 'transfers');
    // (e) in processes of its own: only the contenders that go through a proxy, every session opened through it
    const viaProxy: RunContext = { ...context, contenders: contenders.filter((c) => c.proxied), proxy: server.proxy };
    const results = [
      ...(await runRequestScenarios(requests, context)),
      ...(await runRequestScenarios(proxied, viaProxy)),
      ...(await runTransferScenarios(transfers, context)),
    ];
    const fresh = results.map((r) => summarise(r, proxied.some((s) => s === r.scenario) ? viaProxy.contenders : contenders, date));
    const check = context.check.verdict((await serverStats(server.origin)).served);
    const http2 = options.scenarios.includes('f') ? await runHttp2Scenario(server.secureOrigin, server.ca, date) : undefined;
    const cache = options.scenarios.includes('g') ? await runCacheScenario(server.origin, date) : undefined;
    const optIn = options.scenarios.includes('h') ? await runOptInScenario(server.origin, date) : undefined;
    const scaling = await runScalingScenarios(server, options, date, previous?.scaling);
    return { fresh, check, http2, cache, optIn, scaling };
  } finally {
    await server.stop();
  }
}

const proxiedMethod = (group: readonly Contender[]) =>
  `scenario (e): as (a), each session through a forward proxy in the server process (absolute-form GET, keep-alive both ways; raw node:http sends to the proxy with the absolute URL as path and the target in Host, the library sets c.client.proxy); information only, no target; in processes of its own (settings as above), one group: ${group.map((c) => c.name).join(', ')}`;

/** How this run measured, for the report. */
function methodLines(options: BenchOptions, contenders: readonly Contender[], selected: readonly Scenario[]): string[] {
  const only = options.only.length > 0 ? ` (--only ${options.only.join(',')}: with counterparts and baseline)` : '';
  return [
    `seed ${options.seed}${only}; each process and scenario derives its own schedule from it (\`bench/schedule.ts\`)`,
    ...(selected.some((s) => s.kind === 'requests') ? [`request scenarios: ${requestSettings(options, contenders)}`] : []),
    ...(selected.some((s) => s.id === 'e') ? [proxiedMethod(contenders.filter((c) => c.proxied))] : []),
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
