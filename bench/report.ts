/**
 * Prints the summaries (`summary.ts`) as tables: results, ratios against each contender's
 * counterpart and the baseline with the targets met or not, failures, fairness checks, then the
 * transfer scenarios' tables (`transfer/report.ts`); writes `bench/results/latest.md` and
 * `latest.json`, and reads the previous `latest.json` back (scenarios not run this time keep
 * their last results).
 *
 * @module
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { BenchOptions } from './options.js';
import type { ContenderSummary, Ratio, TargetRatio } from './summary.js';
import type { MedianInterval } from './median-interval.js';
import { DASH, fmt, markdownTable, mib, textTable } from './tables.js';
import { formatTransfersMarkdown, formatTransfersText, type TransferReport } from './transfer/report.js';

/** One scenario's results. */
export interface ScenarioReport {
  readonly id: string;
  readonly title: string;
  readonly contenders: readonly ContenderSummary[];
  /** Set when this scenario was not run this time: the date of the run its results come from. */
  readonly keptFrom?: string;
}

/** Everything `latest.json` holds. */
export interface BenchReport {
  readonly date: string;
  readonly node: string;
  readonly cpuModel: string;
  readonly cpuCount: number;
  readonly platform: string;
  readonly pinning: { readonly client: string; readonly server: string };
  readonly options: BenchOptions;
  readonly scenarios: readonly ScenarioReport[];
  /** Peak RSS of the whole client process over the whole benchmark (`resourceUsage().maxRSS`). */
  readonly clientMaxRssBytes: number;
  /** Requests the server counted per route against what the clients issued. */
  readonly serverCheck: string;
  /** Wall time of the whole invocation, server start to report. */
  readonly durationSeconds: number;
  /** With `--isolate`: the contenders of each process, in run order. */
  readonly processes?: readonly (readonly string[])[];
  /**
   * Scenarios (c) and (d). Everything above is the request scenarios'; either part may come from an
   * earlier run (`--scenarios`), each part's own `date` says which.
   */
  readonly transfers?: TransferReport;
}

function resultRows(scenario: ScenarioReport): string[][] {
  const header = ['contender', 'req/s (median)', 'CPU µs/req (median)', 'CPU µs/req min–max', 'user / sys µs/req'];
  const rows = scenario.contenders.map((c) => {
    const name = c.name + (c.baseline ? ' [baseline]' : '');
    const m = c.medians;
    if (c.failure || !m) return [name, 'FAILED', DASH, DASH, DASH];
    return [name, fmt(m.reqPerSec), fmt(m.cpuUsPerReq, 1), `${fmt(m.minCpuUsPerReq, 1)}–${fmt(m.maxCpuUsPerReq, 1)}`, `${fmt(m.userUsPerReq, 1)} / ${fmt(m.systemUsPerReq, 1)}`];
  });
  return [header, ...rows];
}

/** `1.23 (1.10–1.40)`: median of the per-round ratios, then their range. */
function ratioCell(ratio: Ratio | undefined): string {
  if (!ratio) return DASH;
  return `${fmt(ratio.cpu, 2)} (${fmt(Math.min(...ratio.roundCpu), 2)}–${fmt(Math.max(...ratio.roundCpu), 2)})`;
}

function targetCell(c: ContenderSummary): string {
  const r = c.vsCounterpart;
  if (r?.target !== undefined) return `≤ ${r.target}: ${verdictText(r, false)}`;
  // a target that could not be judged: one of the two did not run
  if (c.comparedWith !== undefined && !r) return 'not measured';
  return DASH;
}

function ratioRows(scenario: ScenarioReport): string[][] {
  const baseline = scenario.contenders.find((c) => c.baseline)?.name ?? 'baseline';
  const header = ['contender', 'counterpart', 'CPU ÷ counterpart (rounds min–max)', 'target', `CPU ÷ ${baseline} (rounds min–max)`, 'req/s ÷ counterpart'];
  const rows = scenario.contenders
    .filter((c) => !c.baseline)
    .map((c) => [
      c.name,
      c.comparedWith ?? DASH,
      ratioCell(c.vsCounterpart),
      targetCell(c),
      ratioCell(c.vsBaseline),
      c.vsCounterpart ? fmt(c.vsCounterpart.reqPerSec, 2) : DASH,
    ]);
  return [header, ...rows];
}

function failureLines(scenario: ScenarioReport): string[] {
  return scenario.contenders.flatMap((c) => (c.failure ? [`FAILED ${c.name} (at ${c.failure.stage}): ${c.failure.error}`] : []));
}

function targetLine(scenario: ScenarioReport): string {
  const judged = scenario.contenders.filter((c) => c.vsCounterpart?.target !== undefined || (c.comparedWith !== undefined && !c.vsCounterpart));
  const parts = judged.map((c) => {
    const r = c.vsCounterpart;
    if (!r || r.target === undefined) return `${c.name}: not measured`;
    // three digits: 1.503 must not read as "1.50 > 1.5"
    const perProcess = r.processCpu ? ` (per process: ${r.processCpu.map((cpu) => fmt(cpu, 3)).join(', ')})` : '';
    const interval = r.interval ? `, ${intervalText(r.interval)}` : '';
    return `${c.name} ${fmt(r.cpu, 3)}${interval}: ${verdictText(r, true)} (≤ ${r.target})${perProcess}`;
  });
  return `targets (CPU µs/req ÷ counterpart, median of per-round ratios, with a distribution-free interval for that median, its coverage nominal as rounds are taken as independent; met when the whole interval is within the target): ${parts.join('; ')}`;
}

/**
 * An interval for a median of ratios as the reports print it (three digits: 1.503 must not read as 1.50).
 *
 * @example
 * intervalText({ low: 1.02, high: 1.084, coverage: 0.971 }); // '97% interval 1.020–1.084'
 */
export function intervalText(interval: MedianInterval): string {
  return `${Math.floor(interval.coverage * 100)}% interval ${fmt(interval.low, 3)}–${fmt(interval.high, 3)}`;
}

/** The verdict as the report prints it; `advice` says why one is unsettled and how to settle it. */
function verdictText(r: TargetRatio, advice: boolean): string {
  if (r.verdict === 'met') return 'met';
  if (r.verdict === 'not met') return 'NOT met';
  if (!r.interval) return advice ? 'unsettled (too few rounds for an interval: at least 6, --rounds or --processes N)' : 'unsettled (too few rounds)';
  return advice ? 'unsettled (the interval straddles the target: more rounds narrow it, --processes N)' : 'unsettled';
}

// checks that the comparison is fair rather than results: server work, socket reuse, memory
function diagnosticRows(scenario: ScenarioReport): string[][] {
  const header = ['contender', 'req/s min–max', 'server CPU µs/req', 'new conns/run (max)', 'peak RSS (sampled)'];
  const rows = scenario.contenders.flatMap((c) => {
    const m = c.medians;
    if (c.failure || !m) return [];
    return [[c.name, `${fmt(m.minReqPerSec)}–${fmt(m.maxReqPerSec)}`, fmt(m.serverCpuUsPerReq, 1), fmt(m.maxNewConnections), mib(m.peakRssBytes)]];
  });
  return [header, ...rows];
}

function environmentLines(report: BenchReport): string[] {
  const o = report.options;
  const pooled = report.processes !== undefined && o.processes > 1;
  return [
    `date: ${report.date}`,
    `node: ${report.node} (${report.platform}), CPU: ${report.cpuModel} × ${report.cpuCount}`,
    `pinning: ${report.pinning.client}; ${report.pinning.server}`,
    `rounds: ${o.rounds}${pooled ? ` per process (${o.rounds * o.processes} in all)` : ''}, requests per contender and round: ${fmt(o.requests)} in ${o.slices} slices taking turns with the other contenders in an order shuffled per slice (seed ${o.seed}, from which each ${report.processes ? 'process and ' : ''}scenario derives its own: \`bench/schedule.ts\`), concurrency: ${o.concurrency}, warm-up: ${fmt(o.warmup)} per contender${pooled ? ' and process' : ''}` +
      (o.only.length > 0 ? `, only: ${o.only.join(',')} (+ counterparts and baseline)` : ''),
    `duration: ${fmt(report.durationSeconds)} s; ${shortestRun(report)}`,
    report.processes
      ? `isolation: one process per group${pooled ? `, ${o.processes} processes each (one after another, their rounds pooled)` : ''} (${report.processes.map((g, i) => `${i + 1}) ${g.join(', ')}`).join('; ')}); ratios pair runs of the same round in the same process; the baseline's row is from the first group that ran it without failing${pooled ? ` (its ${o.processes} processes pooled)` : ''}`
      : 'isolation: none, every contender in this one process (the pipeline code the backends share is compiled for all of them)',
    `client process peak RSS (maxRSS, whole run): ${mib(report.clientMaxRssBytes)}`,
    `server check: ${report.serverCheck}`,
  ];
}

/** Measured slices should last long enough (≥ 0.1 s) for timer and scheduler noise to stay small. */
function shortestRun(report: BenchReport): string {
  const slices = report.options.slices;
  const runs = report.scenarios.flatMap((s) => s.contenders.flatMap((c) => c.runs.map((r) => ({ name: c.name, ms: r.wallMs / slices }))));
  if (runs.length === 0) return 'no run measured';
  const shortest = runs.reduce((a, b) => (b.ms < a.ms ? b : a));
  return `shortest measured slice (on average over its round) ${fmt(shortest.ms / 1000, 2)} s (${shortest.name})`;
}

function heading(scenario: ScenarioReport): string {
  return scenario.keptFrom ? `${scenario.title} — not run this time, results of ${scenario.keptFrom}` : scenario.title;
}

/** The human-readable table for stdout. */
export function formatText(report: BenchReport): string {
  const parts = report.scenarios.length > 0 ? environmentLines(report) : ['request scenarios: not run'];
  for (const scenario of report.scenarios) {
    parts.push('', `Scenario (${scenario.id}) ${heading(scenario)}`, textTable(resultRows(scenario)), '', textTable(ratioRows(scenario)));
    parts.push(targetLine(scenario), ...failureLines(scenario), '', textTable(diagnosticRows(scenario)));
  }
  if (report.transfers) parts.push('', formatTransfersText(report.transfers));
  return parts.join('\n');
}

/** The same as markdown, plus every run and what each contender does. */
export function formatMarkdown(report: BenchReport): string {
  const parts = ['# httpbuilder-ts benchmark'];
  if (report.scenarios.length > 0) {
    parts.push(
      '',
      ...environmentLines(report).map((l) => `- ${l}`),
      '',
      'CPU is `process.cpuUsage()` (user + system, all threads) of the client process only; the server runs in a separate process.',
      "Medians across rounds; one full GC before each scenario's warm-up, none between rounds. Within a round each contender's requests run in slices that take turns",
      "with the other contenders' slices, so a drift in the VM's speed (10-20% within seconds on a shared VM) falls on all of them alike.",
      'Absolute numbers drift between invocations; the per-round ratios are the figure to compare.',
      'Each ratio is the median over rounds of (contender ÷ other, both runs of the same round), with the range of those per-round ratios;',
      "a contender's counterpart is the raw client its backend uses underneath, and both run in every round, their slices taking turns.",
      '"server CPU µs/req" is the same server work per request: it differs between contenders only through batching',
      '(a slower client leaves the server idle more often, so each request pays more wake-ups), which also affects client CPU.',
    );
  }
  for (const scenario of report.scenarios) {
    parts.push('', `## Scenario (${scenario.id}) ${heading(scenario)}`, '', markdownTable(resultRows(scenario)), '');
    parts.push('### Ratios', '', markdownTable(ratioRows(scenario)), '', `- ${targetLine(scenario)}`, ...failureLines(scenario).map((l) => `- ${l}`));
    parts.push('', '### Fairness checks', '', markdownTable(diagnosticRows(scenario)), '');
    parts.push(
      report.processes
        ? 'Peak RSS is sampled while each contender runs, in its own process shared only with its group (see isolation above).'
        : 'Peak RSS is sampled while each contender runs, but all contenders share one process: the process-wide peak above is the figure to quote.',
    );
    parts.push('', '### Contenders', '');
    parts.push(...scenario.contenders.map((c) => `- **${c.name}**: ${c.description}`), '', '### Every run', '');
    const runRows = [['process', 'round', 'order', 'contender', 'wall ms', 'req/s', 'CPU µs/req', 'user ms', 'system ms', 'server CPU µs/req', 'new conns', 'peak RSS']];
    const all = scenario.contenders
      .flatMap((c) => c.runs.map((r) => ({ c, r })))
      .sort((a, b) => (a.c.process ?? 1) - (b.c.process ?? 1) || a.r.round - b.r.round || a.r.order - b.r.order);
    for (const { c, r } of all) {
      runRows.push([String(c.process ?? 1), String(r.round), String(r.order), c.name, fmt(r.wallMs), fmt(r.reqPerSec), fmt(r.cpuUsPerReq, 1), fmt(r.cpuUserUs / 1000), fmt(r.cpuSystemUs / 1000), fmt(r.serverCpuUsPerReq, 1), fmt(r.newConnections), mib(r.peakRssBytes)]);
    }
    parts.push(markdownTable(runRows));
  }
  if (report.transfers) parts.push('', formatTransfersMarkdown(report.transfers));
  return `${parts.join('\n').trimEnd()}\n`;
}

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));

/** The report in `bench/results/latest.json`, if there is a readable one. */
export function readPreviousReport(): BenchReport | undefined {
  const file = `${RESULTS_DIR}latest.json`;
  if (!existsSync(file)) return undefined;
  try {
    const report = JSON.parse(readFileSync(file, 'utf8')) as BenchReport;
    return Array.isArray(report.scenarios) ? report : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `bench/results/latest.md` and `latest.json`; returns their paths. */
export function writeResults(report: BenchReport): string[] {
  const dir = RESULTS_DIR;
  mkdirSync(dir, { recursive: true });
  const md = `${dir}latest.md`;
  const json = `${dir}latest.json`;
  writeFileSync(md, formatMarkdown(report));
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  return [md, json];
}
