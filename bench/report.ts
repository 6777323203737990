/**
 * Turns run results into medians and ratios, prints them as a table and writes
 * `bench/results/latest.md` and `latest.json`.
 *
 * @module
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Contender } from './contenders.js';
import { median, type RunResult } from './measure.js';
import type { BenchOptions } from './options.js';

/** One measured run as recorded by `run.ts`. */
export type RunRecord = RunResult & {
  readonly round: number;
  /** Position within its round (0 = first). */
  readonly order: number;
  /** TCP connections the server accepted during the run (0 when every request reused a pooled socket). */
  readonly newConnections: number;
  /** The server process's CPU µs per request during the run (same work per request; differs only through batching). */
  readonly serverCpuUsPerReq: number;
};

/** One contender's runs of one scenario, summarised. */
export interface ContenderSummary {
  readonly name: string;
  readonly description: string;
  readonly baseline: boolean;
  readonly medianReqPerSec: number;
  readonly minReqPerSec: number;
  readonly maxReqPerSec: number;
  readonly medianCpuUsPerReq: number;
  readonly minCpuUsPerReq: number;
  readonly maxCpuUsPerReq: number;
  /** The user / system split of CPU µs/req (medians of each, so they need not add up exactly). */
  readonly medianUserUsPerReq: number;
  readonly medianSystemUsPerReq: number;
  readonly medianServerCpuUsPerReq: number;
  /** Highest sampled RSS during this contender's measured runs (the process is shared, so it includes the others' leftovers). */
  readonly peakRssBytes: number;
  /** median CPU µs/req ÷ baseline's (absent for the baseline). */
  readonly cpuRatio?: number;
  /** median req/s ÷ baseline's. */
  readonly reqPerSecRatio?: number;
  /** Per-round CPU ratios against the baseline's run of the same round: how stable the ratio is. */
  readonly roundCpuRatios?: readonly number[];
  readonly cpuRatioTarget?: number;
  /** Rounds in order. */
  readonly runs: readonly RunRecord[];
}

/** One scenario's results. */
export interface ScenarioReport {
  readonly id: string;
  readonly title: string;
  readonly contenders: readonly ContenderSummary[];
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
}

/** Summarises each contender's runs and its ratios against the baseline. */
export function summarise(
  contenders: readonly Contender[],
  runs: ReadonlyMap<Contender, readonly RunRecord[]>,
): ContenderSummary[] {
  const baseline = contenders.find((c) => c.baseline);
  const baseRuns = baseline ? (runs.get(baseline) ?? []) : [];
  const baseCpu = median(baseRuns.map((r) => r.cpuUsPerReq));
  const baseRate = median(baseRuns.map((r) => r.reqPerSec));
  return contenders.map((contender) => {
    const own = runs.get(contender) ?? [];
    const cpu = own.map((r) => r.cpuUsPerReq);
    const rate = own.map((r) => r.reqPerSec);
    const compared = baseline !== undefined && contender !== baseline;
    return {
      name: contender.name,
      description: contender.description,
      baseline: contender === baseline,
      medianReqPerSec: median(rate),
      minReqPerSec: Math.min(...rate),
      maxReqPerSec: Math.max(...rate),
      medianCpuUsPerReq: median(cpu),
      minCpuUsPerReq: Math.min(...cpu),
      maxCpuUsPerReq: Math.max(...cpu),
      medianUserUsPerReq: median(own.map((r) => r.cpuUserUs / r.requests)),
      medianSystemUsPerReq: median(own.map((r) => r.cpuSystemUs / r.requests)),
      medianServerCpuUsPerReq: median(own.map((r) => r.serverCpuUsPerReq)),
      peakRssBytes: Math.max(...own.map((r) => r.peakRssBytes)),
      cpuRatio: compared ? median(cpu) / baseCpu : undefined,
      reqPerSecRatio: compared ? median(rate) / baseRate : undefined,
      roundCpuRatios: compared ? own.map((r) => r.cpuUsPerReq / (baseRuns.find((b) => b.round === r.round)?.cpuUsPerReq ?? NaN)) : undefined,
      cpuRatioTarget: contender.cpuRatioTarget,
      runs: own,
    };
  });
}

const fmt = (value: number, digits = 0): string => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const mib = (bytes: number): string => `${fmt(bytes / 2 ** 20, 1)} MiB`;

function resultRows(scenario: ScenarioReport): string[][] {
  const header = ['contender', 'req/s (median)', 'CPU µs/req (median)', 'CPU µs/req min–max', 'user / sys µs/req'];
  const rows = scenario.contenders.map((c) => [
    c.name + (c.baseline ? ' [baseline]' : ''),
    fmt(c.medianReqPerSec),
    fmt(c.medianCpuUsPerReq, 1),
    `${fmt(c.minCpuUsPerReq, 1)}–${fmt(c.maxCpuUsPerReq, 1)}`,
    `${fmt(c.medianUserUsPerReq, 1)} / ${fmt(c.medianSystemUsPerReq, 1)}`,
  ]);
  return [header, ...rows];
}

// checks that the comparison is fair rather than results: server work, socket reuse, memory
function diagnosticRows(scenario: ScenarioReport): string[][] {
  const header = ['contender', 'req/s min–max', 'server CPU µs/req', 'new conns/run (max)', 'peak RSS (sampled)'];
  const rows = scenario.contenders.map((c) => [
    c.name,
    `${fmt(c.minReqPerSec)}–${fmt(c.maxReqPerSec)}`,
    fmt(c.medianServerCpuUsPerReq, 1),
    fmt(Math.max(...c.runs.map((r) => r.newConnections))),
    mib(c.peakRssBytes),
  ]);
  return [header, ...rows];
}

function ratioLines(scenario: ScenarioReport): string[] {
  const baseline = scenario.contenders.find((c) => c.baseline)?.name ?? 'baseline';
  return scenario.contenders.flatMap((c) => {
    if (c.cpuRatio === undefined || c.reqPerSecRatio === undefined) return [];
    const rounds = c.roundCpuRatios ?? [];
    const target = c.cpuRatioTarget === undefined ? '' : ` (target ≤ ${c.cpuRatioTarget}: ${c.cpuRatio <= c.cpuRatioTarget ? 'met' : 'NOT met'})`;
    return [
      `${c.name} ÷ ${baseline}: CPU µs/req ratio ${fmt(c.cpuRatio, 2)}${target}; ` +
        `per-round ${fmt(Math.min(...rounds), 2)}–${fmt(Math.max(...rounds), 2)}; req/s ratio ${fmt(c.reqPerSecRatio, 2)}`,
    ];
  });
}

function textTable(rows: readonly string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: readonly string[]) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

function markdownTable(rows: readonly string[][]): string {
  const line = (r: readonly string[]) => `| ${r.join(' | ')} |`;
  return [line(rows[0]), `|${rows[0].map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

function environmentLines(report: BenchReport): string[] {
  const o = report.options;
  return [
    `date: ${report.date}`,
    `node: ${report.node} (${report.platform}), CPU: ${report.cpuModel} × ${report.cpuCount}`,
    `pinning: ${report.pinning.client}; ${report.pinning.server}`,
    `rounds: ${o.rounds} (order rotated per round), requests per run: ${fmt(o.requests)}, concurrency: ${o.concurrency}, warm-up: ${fmt(o.warmup)} per contender`,
    `client process peak RSS (maxRSS, whole run): ${mib(report.clientMaxRssBytes)}`,
    `server check: ${report.serverCheck}`,
  ];
}

/** The human-readable table for stdout. */
export function formatText(report: BenchReport): string {
  const parts = environmentLines(report);
  for (const scenario of report.scenarios) {
    parts.push('', `Scenario (${scenario.id}) ${scenario.title}`, textTable(resultRows(scenario)), ...ratioLines(scenario));
    parts.push('', textTable(diagnosticRows(scenario)));
  }
  return parts.join('\n');
}

/** The same as markdown, plus every run and what each contender does. */
export function formatMarkdown(report: BenchReport): string {
  const parts = ['# httpbuilder-ts benchmark', '', ...environmentLines(report).map((l) => `- ${l}`)];
  parts.push(
    '',
    'CPU is `process.cpuUsage()` (user + system, all threads) of the client process only; the server runs in a separate process.',
    'Medians across rounds; a full GC runs before every measured run. Absolute numbers drift between invocations on a shared VM;',
    'the per-round ratios (contenders measured seconds apart, order rotated) are the figure to compare.',
    '"server CPU µs/req" is the same server work per request: it differs between contenders only through batching',
    '(a slower client leaves the server idle more often, so each request pays more wake-ups), which also affects client CPU.',
  );
  for (const scenario of report.scenarios) {
    parts.push('', `## Scenario (${scenario.id}) ${scenario.title}`, '', markdownTable(resultRows(scenario)), '');
    parts.push(...ratioLines(scenario).map((l) => `- ${l}`), '', '### Fairness checks', '', markdownTable(diagnosticRows(scenario)), '');
    parts.push('Peak RSS is sampled while each contender runs, but all contenders share one process: the process-wide peak above is the figure to quote.');
    parts.push('', '### Contenders', '');
    parts.push(...scenario.contenders.map((c) => `- **${c.name}**: ${c.description}`), '', '### Every run', '');
    const runRows = [['round', 'order', 'contender', 'wall ms', 'req/s', 'CPU µs/req', 'user ms', 'system ms', 'server CPU µs/req', 'new conns', 'peak RSS']];
    const all = scenario.contenders.flatMap((c) => c.runs.map((r) => ({ c, r }))).sort((a, b) => a.r.round - b.r.round || a.r.order - b.r.order);
    for (const { c, r } of all) {
      runRows.push([String(r.round), String(r.order), c.name, fmt(r.wallMs), fmt(r.reqPerSec), fmt(r.cpuUsPerReq, 1), fmt(r.cpuUserUs / 1000), fmt(r.cpuSystemUs / 1000), fmt(r.serverCpuUsPerReq, 1), fmt(r.newConnections), mib(r.peakRssBytes)]);
    }
    parts.push(markdownTable(runRows));
  }
  return `${parts.join('\n')}\n`;
}

/** Writes `bench/results/latest.md` and `latest.json`; returns their paths. */
export function writeResults(report: BenchReport): string[] {
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const md = `${dir}latest.md`;
  const json = `${dir}latest.json`;
  writeFileSync(md, formatMarkdown(report));
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  return [md, json];
}
