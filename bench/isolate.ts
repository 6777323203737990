/**
 * `--isolate` (the default): each library contender runs in a process of its own, with its counterpart and
 * the baseline (plus one more process for selected contenders outside every pair). In one
 * process shared by all, the pipeline code every backend goes through sees four backends and
 * is compiled for all of them, which an application using one backend never pays; raw clients
 * share nothing, so they do not suffer from it. Rounds stay interleaved inside each process, so
 * every ratio still pairs runs of the same round; figures across processes are absolute numbers
 * taken minutes apart. The baseline's own row comes from the first group that ran it (pooled over
 * that group's processes with `--processes`).
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Contender } from './contender.js';
import { describeError, type Failure } from './failure.js';
import type { BenchOptions } from './options.js';
import type { BenchReport, ScenarioReport } from './report.js';
import { selectScenarios } from './scenarios.js';
import { derivedSeed } from './schedule.js';
import { summarise, type ContenderSummary, type RunRecord } from './summary.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RUN_SCRIPT = fileURLToPath(new URL('./run.ts', import.meta.url));

/** The processes `--isolate` runs, each a list in `contenders` order. */
export function isolationGroups(contenders: readonly Contender[]): Contender[][] {
  const baseline = contenders.find((c) => c.baseline);
  const groups: Contender[][] = [];
  const placed = new Set<Contender>();
  for (const contender of contenders.filter((c) => c.comparedWith !== undefined)) {
    const group = contenders.filter((c) => c === contender || c.name === contender.comparedWith || c === baseline);
    group.forEach((c) => placed.add(c));
    groups.push(group);
  }
  const rest = contenders.filter((c) => !placed.has(c));
  if (rest.length > 0) groups.push(contenders.filter((c) => rest.includes(c) || c === baseline));
  return groups;
}

/** Runs each group in a child process (`run.ts` with `BENCH_REPORT_FILE`), one after the other, and merges their reports. */
export async function runIsolated(contenders: readonly Contender[], options: BenchOptions, started: number): Promise<BenchReport> {
  const groups = isolationGroups(contenders);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'httpbuilder-bench-'));
  const reports: (BenchReport | Error)[] = [];
  try {
    for (const [i, group] of groups.entries()) {
      const repeats: (BenchReport | Error)[] = [];
      for (let k = 1; k <= options.processes; k++) {
        const of = options.processes > 1 ? ` (${k} of ${options.processes})` : '';
        console.log(`\n=== process ${i + 1}/${groups.length}${of}: ${group.map((c) => c.name).join(', ')}`);
        // a schedule of its own per process, the same when this group runs again alone (--only)
        const seed = derivedSeed(options.seed, `${group.map((c) => c.name).join(',')} #${k}`);
        repeats.push(await runChild(group, { ...options, seed }, path.join(dir, `group-${i + 1}-${k}.json`)).catch((error: unknown) => new Error(describeError(error))));
      }
      reports.push(pooled(group, repeats, options.rounds));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return merge(contenders, groups, reports, options, started);
}

function runChild(group: readonly Contender[], options: BenchOptions, reportFile: string): Promise<BenchReport> {
  // --processes 1: the child runs exactly `rounds` (with --isolate=0 it would multiply them by the processes)
  const args = ['--rounds', options.rounds, '--requests', options.requests, '--slices', options.slices, '--warmup', options.warmup, '--seed', options.seed, '--concurrency', options.concurrency, '--processes', 1].map(String);
  // full names: substrings of themselves only, so the child selects exactly this group
  // request scenarios only: the transfers run once, from the parent (`transfer/runner.ts`)
  const requestScenarios = selectScenarios(options.scenarios).map((s) => s.id);
  args.push('--only', group.map((c) => c.name).join(','), '--isolate=0', '--scenarios', requestScenarios.join(','));
  const child = spawn(process.execPath, ['--import', 'tsx', RUN_SCRIPT, ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, BENCH_REPORT_FILE: reportFile },
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code !== 0) return reject(new Error(`benchmark process exited with ${signal ?? `code ${code}`}`));
      try {
        resolve(JSON.parse(readFileSync(reportFile, 'utf8')) as BenchReport);
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
  });
}

/**
 * One report for a group run in several processes: each contender's rounds from all of them
 * (numbered on, so a ratio still pairs runs of the same round in the same process), summarised
 * again; every process's server check and the largest RSS. The first process's report for
 * everything else; a failed process fails the group.
 */
function pooled(group: readonly Contender[], repeats: readonly (BenchReport | Error)[], rounds: number): BenchReport | Error {
  const failed = repeats.find((r) => r instanceof Error);
  if (failed || repeats.length === 1) return failed ?? repeats[0];
  const reports = repeats as readonly BenchReport[];
  const scenarios = reports[0].scenarios.map((scenario) => {
    const runs = new Map<Contender, RunRecord[]>(group.map((c) => [c, []]));
    const failures = new Map<Contender, Failure>();
    reports.forEach((report, k) => {
      for (const contender of group) {
        const summary = report.scenarios.find((s) => s.id === scenario.id)?.contenders.find((c) => c.name === contender.name);
        if (summary?.failure) failures.set(contender, summary.failure);
        runs.get(contender)!.push(...(summary?.runs ?? []).map((run) => ({ ...run, round: run.round + k * rounds })));
      }
    });
    const contenders = summarise(group, runs, failures).map((summary) => withProcessRatios(summary, reports, scenario.id));
    return { ...scenario, contenders };
  });
  const checks = [...new Set(reports.map((r) => r.serverCheck))];
  const serverCheck = checks.length === 1 ? `each of ${reports.length} processes: ${checks[0]}` : reports.map((r, k) => `process ${k + 1}: ${r.serverCheck}`).join('; ');
  return { ...reports[0], scenarios, serverCheck, clientMaxRssBytes: Math.max(...reports.map((r) => r.clientMaxRssBytes)) };
}

/** `summary` with each process's own ratio to the counterpart beside the pooled one. */
function withProcessRatios(summary: ContenderSummary, reports: readonly BenchReport[], scenarioId: string): ContenderSummary {
  if (!summary.vsCounterpart) return summary;
  const own = reports.map((report) => report.scenarios.find((s) => s.id === scenarioId)?.contenders.find((c) => c.name === summary.name)?.vsCounterpart?.cpu);
  // a process that paired no round of the two (one of them failed there) has no ratio of its own: show none then
  if (own.some((cpu) => cpu === undefined)) return summary;
  return { ...summary, vsCounterpart: { ...summary.vsCounterpart, processCpu: own as number[] } };
}

function merge(contenders: readonly Contender[], groups: readonly Contender[][], reports: readonly (BenchReport | Error)[], options: BenchOptions, started: number): BenchReport {
  const done = reports.flatMap((r, i) => (r instanceof Error ? [] : [{ report: r, process: i + 1 }]));
  const first = done[0]?.report;
  const perGroup = (text: (r: BenchReport) => string) => reports.map((r, i) => `group ${i + 1}: ${r instanceof Error ? 'failed' : text(r)}`).join('; ');
  const scenarios: ScenarioReport[] = selectScenarios(options.scenarios).map((scenario) => ({
    id: scenario.id,
    title: scenario.title,
    contenders: contenders.map((contender) => pick(contender, groups, reports, scenario.id)),
  }));
  return {
    date: first?.date ?? new Date().toISOString(),
    node: process.version,
    cpuModel: first?.cpuModel ?? os.cpus()[0]?.model.trim() ?? 'unknown',
    cpuCount: os.cpus().length,
    platform: `${process.platform}-${process.arch}`,
    pinning: { client: alike(reports, (r) => r.pinning.client), server: alike(reports, (r) => r.pinning.server) },
    options,
    scenarios,
    clientMaxRssBytes: Math.max(0, ...done.map((d) => d.report.clientMaxRssBytes)),
    serverCheck: perGroup((r) => r.serverCheck),
    durationSeconds: (performance.now() - started) / 1000,
    processes: groups.map((g) => g.map((c) => c.name)),
  };
}

/** `"every process: …"` when the texts differ only in pids, else each process's own. */
function alike(reports: readonly (BenchReport | Error)[], text: (r: BenchReport) => string): string {
  const texts = reports.map((r) => (r instanceof Error ? 'failed' : text(r)));
  const shapes = new Set(texts.map((t) => t.replace(/pid \d+ /g, '')));
  if (shapes.size === 1) return `every process: ${[...shapes][0]}`;
  return texts.map((t, i) => `group ${i + 1}: ${t}`).join('; ');
}

/** The contender's summary from the first group that ran it without failing (else its failure). */
function pick(contender: Contender, groups: readonly Contender[][], reports: readonly (BenchReport | Error)[], scenarioId: string): ContenderSummary {
  let fallback: ContenderSummary | undefined;
  for (const [i, group] of groups.entries()) {
    if (!group.includes(contender)) continue;
    const report = reports[i];
    const summary =
      report instanceof Error
        ? { name: contender.name, description: contender.description, baseline: contender.baseline === true, comparedWith: contender.comparedWith, failure: { stage: `group ${i + 1}`, error: report.message }, runs: [] }
        : report.scenarios.find((s) => s.id === scenarioId)?.contenders.find((c) => c.name === contender.name);
    if (summary && !summary.failure) return { ...summary, process: i + 1 };
    fallback ??= summary && { ...summary, process: i + 1 };
  }
  return fallback ?? { name: contender.name, description: contender.description, baseline: contender.baseline === true, failure: { stage: 'isolate', error: 'in no process' }, runs: [] };
}
