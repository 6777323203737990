/**
 * The transfer scenarios' part of the report: what `latest.json` holds under `transfers`, and
 * the tables printed and written to `latest.md` after scenario (a)'s.
 *
 * @module
 */
import { DASH, fmt, markdownTable, mib, textTable } from '../tables.js';
import { formatSize } from './size.js';
import type { TransferRatio, TransferSummary } from './summary.js';

/** One transfer scenario's results. */
export interface TransferScenarioReport {
  readonly id: string;
  readonly title: string;
  readonly contenders: readonly TransferSummary[];
}

/** Scenarios (c) and (d) of one run (`latest.json` → `transfers`). */
export interface TransferReport {
  readonly date: string;
  readonly node: string;
  readonly sizeBytes: number;
  readonly warmupBytes: number;
  readonly rounds: number;
  readonly pinning: { readonly client: string; readonly server: string };
  readonly sampleIntervalMs: number;
  readonly memoryLimitBytes: number;
  readonly scenarios: readonly TransferScenarioReport[];
  readonly serverCheck: string;
  readonly durationSeconds: number;
}

/** `1.02 (0.95–1.10)`: median of the per-round throughput ratios, then their range. */
function ratioCell(ratio: TransferRatio | undefined): string {
  if (!ratio) return DASH;
  return `${fmt(ratio.mbPerSec, 2)} (${fmt(Math.min(...ratio.roundMbPerSec), 2)}–${fmt(Math.max(...ratio.roundMbPerSec), 2)})`;
}

function resultRows(scenario: TransferScenarioReport, limit: number): string[][] {
  const header = ['contender', 'MB/s (median)', 'MB/s min–max', 'MB/s ÷ raw node:http', 'CPU µs/MiB', 'CPU ÷ raw node:http', 'RSS growth median / max', `≤ ${mib(limit)}`, 'Buffers growth max', 'peak RSS'];
  const rows = scenario.contenders.map((c) => {
    const name = c.name + (c.baseline ? ' [baseline]' : '');
    const m = c.medians;
    if (c.failure || !m) return [name, 'FAILED', ...Array<string>(header.length - 2).fill(DASH)];
    return [
      name,
      fmt(m.mbPerSec),
      `${fmt(m.minMbPerSec)}–${fmt(m.maxMbPerSec)}`,
      ratioCell(c.vsBaseline),
      fmt(m.cpuUsPerMiB),
      c.vsBaseline ? fmt(c.vsBaseline.cpu, 2) : DASH,
      `${mib(m.rssGrowthMedian)} / ${mib(m.rssGrowthMax)}`,
      c.memoryMet ? 'met' : 'NOT met',
      mib(m.arrayBuffersGrowthMax),
      mib(m.peakRssMax),
    ];
  });
  return [header, ...rows];
}

function counterpartRows(scenario: TransferScenarioReport): string[][] {
  const header = ['contender', 'counterpart', 'MB/s ÷ counterpart (rounds min–max)', 'CPU ÷ counterpart'];
  const rows = scenario.contenders
    .filter((c) => c.comparedWith !== undefined)
    .map((c) => [c.name, c.comparedWith ?? DASH, ratioCell(c.vsCounterpart), c.vsCounterpart ? fmt(c.vsCounterpart.cpu, 2) : DASH]);
  return [header, ...rows];
}

function failureLines(scenario: TransferScenarioReport): string[] {
  return scenario.contenders.flatMap((c) => (c.failure ? [`FAILED ${c.name} (at ${c.failure.stage}): ${c.failure.error}`] : []));
}

function environmentLines(report: TransferReport): string[] {
  return [
    `date: ${report.date}, node ${report.node}, duration ${fmt(report.durationSeconds)} s`,
    `size: ${formatSize(report.sizeBytes)} per transfer, ${report.rounds} round(s), order rotated per round; each transfer in a fresh process after an unmeasured ${formatSize(report.warmupBytes)} warm-up`,
    `memory: baseline RSS after a full GC, process.memoryUsage() sampled every ${report.sampleIntervalMs} ms; growth = peak − baseline; limit ${mib(report.memoryLimitBytes)} for every run`,
    `pinning: ${report.pinning.client}; ${report.pinning.server}`,
    `server check: ${report.serverCheck}`,
  ];
}

/** The transfer tables for stdout. */
export function formatTransfersText(report: TransferReport): string {
  const parts = ['Transfers', ...environmentLines(report)];
  for (const scenario of report.scenarios) {
    parts.push('', `Scenario (${scenario.id}) ${scenario.title}`, textTable(resultRows(scenario, report.memoryLimitBytes)));
    parts.push('', textTable(counterpartRows(scenario)), ...failureLines(scenario));
  }
  return parts.join('\n');
}

/** The transfer section of `latest.md`, every run included. */
export function formatTransfersMarkdown(report: TransferReport): string {
  const parts = ['## Transfers', '', ...environmentLines(report).map((l) => `- ${l}`), ''];
  parts.push(
    'MB/s is 10^6 bytes per second of the measured transfer (request to last byte written, or to the server\'s answer).',
    'CPU is `process.cpuUsage()` of the client process only. Ratios are medians over rounds of (contender ÷ other, same round).',
    'RSS growth is the figure that shows a body held in memory: a streamed transfer grows by its buffers plus garbage V8 has not',
    'collected yet, whatever the size; a buffered one by about the size. "Buffers" is `memoryUsage().arrayBuffers`.',
  );
  for (const scenario of report.scenarios) {
    parts.push('', `### Scenario (${scenario.id}) ${scenario.title}`, '', markdownTable(resultRows(scenario, report.memoryLimitBytes)), '');
    parts.push(markdownTable(counterpartRows(scenario)), ...failureLines(scenario).map((l) => `- ${l}`), '', '#### Contenders', '');
    parts.push(...scenario.contenders.map((c) => `- **${c.name}**: ${c.description}`), '', '#### Every run', '');
    const rows = [['round', 'order', 'contender', 'wall ms', 'MB/s', 'CPU µs/MiB', 'user ms', 'system ms', 'baseline RSS', 'peak RSS', 'RSS growth', 'Buffers growth', 'heap growth', 'samples', 'maxRSS (process)']];
    const all = scenario.contenders.flatMap((c) => c.runs.map((r) => ({ c, r }))).sort((a, b) => a.r.round - b.r.round || a.r.order - b.r.order);
    for (const { c, r } of all) {
      const m = r.memory;
      rows.push([String(r.round), String(r.order), c.name, fmt(r.wallMs), fmt(r.mbPerSec), fmt(r.cpuUsPerMiB), fmt(r.cpuUserUs / 1000), fmt(r.cpuSystemUs / 1000), mib(m.baselineRss), mib(m.peakRss), mib(m.rssGrowth), mib(m.arrayBuffersGrowth), mib(m.heapUsedGrowth), String(m.samples), mib(r.maxRssBytes)]);
    }
    parts.push(markdownTable(rows));
  }
  return `${parts.join('\n')}\n`;
}
