/**
 * The report of a run: printed as text tables, written as `latest.md` (the same tables plus what
 * each contender does and every sample) and `latest.json`, and read back so that the scenarios a
 * run leaves out (`--scenarios`) keep their previous results.
 *
 * @module
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchOptions } from './options.js';
import type { Sample } from './rounds.js';
import { UNITS } from './scenarios.js';
import { MEMORY_LIMIT_BYTES, type Ratio, type ScenarioReport, type TargetRatio } from './summary.js';
import { cacheRows, http2Rows, type CacheReport, type Http2Report } from './information.js';
import { optInRows, type OptInReport } from './opt-in-costs.js';
import { coldStartRows, type ColdStartReport } from './cold-start.js';
import { scalingTables, type ScalingReport } from './scaling.js';
import { DASH, fmt, markdownTable, mib, textTable } from './tables.js';

/** The version of `latest.json`'s layout: a report of another version is not read back. */
export const FORMAT = 2;

/** Everything `latest.json` holds. */
export interface BenchReport {
  readonly format: typeof FORMAT;
  readonly date: string;
  readonly node: string;
  readonly platform: string;
  /** CPU model × count. */
  readonly cpu: string;
  readonly pinning: string;
  readonly options: BenchOptions;
  /** How this run measured, one line per kind of scenario it ran. */
  readonly method: readonly string[];
  readonly durationSeconds: number;
  /** The server's request counts against the clients' (`server-check.ts`). */
  readonly serverCheck: string;
  readonly scenarios: readonly ScenarioReport[];
  /** Scenarios (f), (g), (h) and (i), of shapes of their own; a previous run's when not run this time. */
  readonly http2?: Http2Report;
  readonly cache?: CacheReport;
  readonly optIn?: OptInReport;
  readonly coldStart?: ColdStartReport;
  /** Scenarios (j)–(m), each part with its own date. */
  readonly scaling?: ScalingReport;
}

const isTarget = (ratio: Ratio | TargetRatio | undefined): ratio is TargetRatio => ratio !== undefined && 'target' in ratio;

function resultRows(s: ScenarioReport): string[][] {
  const unit = UNITS[s.kind];
  const memory = s.kind === 'transfers';
  const header = ['contender', `${unit.rate} (median)`, `${unit.cpu} (median)`, `${unit.cpu} min–max`, 'user / sys'];
  if (memory) header.push('RSS growth median / max', `≤ ${mib(MEMORY_LIMIT_BYTES)}`, 'Buffers growth max');
  const cpu = (value: number) => fmt(value, memory ? 0 : 1);
  const rows = s.contenders.map(({ name, baseline, failure, medians: m, memoryMet }) => {
    const label = name + (baseline ? ' [baseline]' : '');
    if (failure || !m) return [label, 'FAILED', ...Array<string>(header.length - 2).fill(DASH)];
    const row = [label, fmt(m.rate), cpu(m.cpu), `${cpu(m.minCpu)}–${cpu(m.maxCpu)}`, `${cpu(m.userCpu)} / ${cpu(m.systemCpu)}`];
    if (memory) row.push(`${mib(m.medianRssGrowth)} / ${mib(m.maxRssGrowth)}`, memoryMet ? 'met' : 'NOT met', mib(m.maxArrayBuffersGrowth));
    return row;
  });
  return [header, ...rows];
}

/** `1.23 (1.10–1.40)`: median of the per-round ratios, then their range. */
const ratioCell = (r: Ratio | undefined) => (r ? `${fmt(r.cpu, 2)} (${fmt(Math.min(...r.roundCpu), 2)}–${fmt(Math.max(...r.roundCpu), 2)})` : DASH);

function ratioRows(s: ScenarioReport): string[][] {
  const { rate } = UNITS[s.kind];
  const against = ['counterpart', s.contenders.find((c) => c.baseline)?.name ?? 'baseline'];
  const header = ['contender', 'counterpart', ...against.map((a) => `CPU ÷ ${a} (rounds min–max)`), ...against.map((a) => `${rate} ÷ ${a}`)];
  const rateCell = (r: Ratio | undefined) => (r ? fmt(r.rate, 2) : DASH);
  const rows = s.contenders
    .filter((c) => !c.baseline)
    .map((c) => [c.name, c.counterpart ?? DASH, ratioCell(c.vsCounterpart), ratioCell(c.vsBaseline), rateCell(c.vsCounterpart), rateCell(c.vsBaseline)]);
  return [header, ...rows];
}

const VERDICTS = { met: 'met', 'not met': 'NOT met', unsettled: 'unsettled' } as const;

/** The targets of a request scenario, each with its interval and verdict (none for a scenario without targets), then the failures. */
function noteLines(s: ScenarioReport): string[] {
  const failures = s.contenders.flatMap((c) => (c.failure ? [`FAILED ${c.name} (at ${c.failure.stage}): ${c.failure.error}`] : []));
  const parts = s.contenders.flatMap((c) => {
    const r = c.vsCounterpart;
    if (!isTarget(r)) return s.kind === 'requests' && c.counterpart !== undefined && !r ? [`${c.name}: not measured`] : [];
    // three digits: 1.503 must not read as "1.50 > 1.5"
    const perProcess = r.processCpu ? ` (per process: ${r.processCpu.map((cpu) => fmt(cpu, 3)).join(', ')})` : '';
    const { interval } = r;
    const within = interval ? `, ${Math.floor(interval.coverage * 100)}% interval ${fmt(interval.low, 3)}–${fmt(interval.high, 3)}` : '';
    return [`${c.name} ${fmt(r.cpu, 3)}${within}: ${interval ? VERDICTS[r.verdict] : 'unsettled (too few rounds)'} (≤ ${r.target})${perProcess}`];
  });
  if (parts.length === 0) return failures;
  const what =
    'CPU per request ÷ counterpart, median of per-round ratios, with a distribution-free interval for that median; met when the whole interval is within the target';
  const unsettled = s.contenders.some((c) => isTarget(c.vsCounterpart) && c.vsCounterpart.verdict === 'unsettled');
  return [`targets (${what}): ${parts.join('; ')}${unsettled ? ' — to settle: more rounds (--processes N; an interval needs at least 6)' : ''}`, ...failures];
}

// checks that the comparison was fair rather than results: the server's work, socket reuse, memory
function fairnessRows(s: ScenarioReport): string[][] {
  const unit = UNITS[s.kind];
  const header = ['contender', `${unit.rate} min–max`, `server ${unit.cpu}`, 'new connections per round (max)', 'peak RSS'];
  const rows = s.contenders.flatMap(({ name, failure, medians: m }) =>
    failure || !m ? [] : [[name, `${fmt(m.minRate)}–${fmt(m.maxRate)}`, fmt(m.serverCpu, 1), fmt(m.maxNewConnections), mib(m.peakRss)]],
  );
  return [header, ...rows];
}

function sampleRows(s: ScenarioReport): string[][] {
  const unit = UNITS[s.kind];
  const columns: [heading: string, cell: (r: Sample, contender: string) => string][] = [
    ['process', (r) => String(r.process)],
    ['round', (r) => String(r.round)],
    ['order', (r) => String(r.order)],
    ['contender', (_, contender) => contender],
    ['wall ms', (r) => fmt(r.wallMs)],
    [unit.rate, (r) => fmt(r.rate)],
    [unit.cpu, (r) => fmt(r.cpuPerUnit, 1)],
    ['user ms', (r) => fmt(r.cpuUserUs / 1000)],
    ['system ms', (r) => fmt(r.cpuSystemUs / 1000)],
    [`server ${unit.cpu}`, (r) => fmt(r.serverCpuPerUnit, 1)],
    ['new conns', (r) => fmt(r.newConnections)],
    ['peak RSS', (r) => mib(r.memory.peakRss)],
    ['RSS growth', (r) => mib(r.memory.rssGrowth)],
    ['Buffers growth', (r) => mib(r.memory.arrayBuffersGrowth)],
  ];
  const all = s.contenders
    .flatMap((c) => c.samples.map((sample) => ({ name: c.name, sample })))
    .sort((a, b) => a.sample.process - b.sample.process || a.sample.round - b.sample.round || a.sample.order - b.sample.order);
  return [columns.map(([heading]) => heading), ...all.map(({ name, sample }) => columns.map(([, cell]) => cell(sample, name)))];
}

function environmentLines(report: BenchReport): string[] {
  return [
    `date: ${report.date}, node ${report.node} (${report.platform}), CPU: ${report.cpu}, duration ${fmt(report.durationSeconds)} s`,
    `pinning: ${report.pinning}`,
    ...report.method,
    `server check: ${report.serverCheck}`,
  ];
}

/** `Scenario (x) title`, noting when its results come from an earlier run. */
function heading(id: string, { title, date }: { title: string; date: string }, report: BenchReport): string {
  return `Scenario (${id}) ${title}${date === report.date ? '' : ` — not run this time: the results of ${date}`}`;
}

/** The tables for stdout. */
export function formatText(report: BenchReport): string {
  const parts = environmentLines(report);
  for (const s of report.scenarios)
    parts.push('', heading(s.id, s, report), textTable(resultRows(s)), '', textTable(ratioRows(s)), ...noteLines(s), '', textTable(fairnessRows(s)));
  if (report.http2) parts.push('', heading('f', report.http2, report), textTable(http2Rows(report.http2)));
  if (report.cache) parts.push('', heading('g', report.cache, report), textTable(cacheRows(report.cache)));
  if (report.optIn) parts.push('', heading('h', report.optIn, report), textTable(optInRows(report.optIn)));
  if (report.coldStart) parts.push('', heading('i', report.coldStart, report), textTable(coldStartRows(report.coldStart)));
  for (const { id, section, rows } of scalingTables(report.scaling ?? {}))
    parts.push('', heading(id, section, report), textTable(rows), ...section.failures.map((f) => `FAILED ${f}`));
  return parts.join('\n');
}

const METHOD_NOTE =
  'CPU is `process.cpuUsage()` (user + system, all threads) of the client process; the server runs in one of its own. Each ratio is the median over rounds of (contender ÷ other, both samples of the same process and round), with the range of those per-round ratios; a counterpart is the raw client a backend runs on. Absolute figures drift on a shared machine: compare the ratios. The method: docs/performance.md.';

/** The same as markdown, plus what each contender does and every sample. */
export function formatMarkdown(report: BenchReport): string {
  const parts = ['# httpbuilder-ts benchmark', '', ...environmentLines(report).map((l) => `- ${l}`), '', METHOD_NOTE];
  for (const s of report.scenarios) {
    parts.push('', `## ${heading(s.id, s, report)}`, '', markdownTable(resultRows(s)), '', '### Ratios', '', markdownTable(ratioRows(s)), '');
    parts.push(...noteLines(s).map((l) => `- ${l}`), '', '### Fairness checks', '', markdownTable(fairnessRows(s)), '');
    parts.push('### Contenders', '', ...s.contenders.map((c) => `- **${c.name}**: ${c.description}`), '', '### Every sample', '', markdownTable(sampleRows(s)));
  }
  if (report.http2) parts.push('', `## ${heading('f', report.http2, report)}`, '', markdownTable(http2Rows(report.http2)), '');
  if (report.cache) parts.push('', `## ${heading('g', report.cache, report)}`, '', markdownTable(cacheRows(report.cache)), '');
  if (report.optIn) parts.push('', `## ${heading('h', report.optIn, report)}`, '', markdownTable(optInRows(report.optIn)), '');
  if (report.coldStart) parts.push('', `## ${heading('i', report.coldStart, report)}`, '', markdownTable(coldStartRows(report.coldStart)), '');
  for (const { id, section, rows } of scalingTables(report.scaling ?? {}))
    parts.push('', `## ${heading(id, section, report)}`, '', markdownTable(rows), '', ...section.failures.map((f) => `- FAILED ${f}`), '');
  const text = parts.join('\n').replace(/\n{3,}/g, '\n\n');
  return `${text.trimEnd()}\n`;
}

/** The report in `dir/latest.json`, if there is one this version can read (an older layout is ignored, with a note). */
export function readPreviousReport(dir: string): BenchReport | undefined {
  const file = path.join(dir, 'latest.json');
  if (!existsSync(file)) return undefined;
  try {
    const report = JSON.parse(readFileSync(file, 'utf8')) as Partial<BenchReport>;
    if (report.format === FORMAT && Array.isArray(report.scenarios)) return report as BenchReport;
    console.log(`${file} is of an older layout: the scenarios not run this time have no results to keep`);
  } catch {
    console.log(`${file} cannot be read: the scenarios not run this time have no results to keep`);
  }
  return undefined;
}

/** Writes `dir/latest.md` and `dir/latest.json`; returns their paths. */
export function writeResults(report: BenchReport, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const [md, json] = [path.join(dir, 'latest.md'), path.join(dir, 'latest.json')];
  writeFileSync(md, formatMarkdown(report));
  writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  return [md, json];
}
