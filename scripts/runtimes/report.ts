/** The table `npm run test:runtimes` prints: a row per runtime, a column per backend. */
import type { ScenarioResult } from '../../spec/portable/scenarios.js';

/** What one runtime process gave: its results, and what went wrong outside any scenario. */
export interface RuntimeRun {
  readonly label: string;
  readonly results: readonly ScenarioResult[];
  /** Scenarios expected per backend (a result missing counts as failed). */
  readonly expected: ReadonlyMap<string, number>;
  /** A crash, a time-out, a non-zero exit: counted as one failure. */
  readonly problem?: string;
  readonly ms: number;
}

/** A cell: `15/15`, `refused` for a backend the runtime refuses as documented, or the count of what passed. */
function cell(run: RuntimeRun, backend: string): string {
  const results = run.results.filter((result) => result.backend === backend);
  const expected = run.expected.get(backend);
  if (expected === undefined) return '-';
  const passed = results.filter((result) => result.ok).length;
  if (results.length === 1 && results[0].scenario.startsWith('ConfigError')) return passed === 1 ? 'ConfigError' : 'FAILED';
  return `${passed}/${expected}`;
}

/** Failures of `run`: one line each, a missing result counted as one. */
export function failures(run: RuntimeRun): string[] {
  const lines = run.results.filter((result) => !result.ok).map((result) => `${run.label} × ${result.backend}: ${result.scenario}: ${result.error ?? ''}`);
  for (const [backend, expected] of run.expected) {
    const got = run.results.filter((result) => result.backend === backend).length;
    if (got < expected) lines.push(`${run.label} × ${backend}: ${expected - got} scenario(s) gave no result`);
  }
  if (run.problem) lines.push(`${run.label}: ${run.problem}`);
  return lines;
}

export function passedCount(run: RuntimeRun): number {
  return run.results.filter((result) => result.ok).length;
}

/** The table of every run, then every failure with its message. */
export function table(runs: readonly RuntimeRun[], backends: readonly string[]): string {
  const rows = [
    ['runtime', ...backends, 'time'],
    ...runs.map((run) => [run.label, ...backends.map((backend) => cell(run, backend)), `${(run.ms / 1000).toFixed(1)} s`]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  const lines = rows.map((row) =>
    row
      .map((text, column) => text.padEnd(widths[column]))
      .join('  ')
      .trimEnd(),
  );
  lines.splice(1, 0, widths.map((width) => '-'.repeat(width)).join('  '));
  const failed = runs.flatMap(failures);
  if (failed.length > 0) lines.push('', 'failures:', ...failed.map((line) => `  ${line}`));
  return lines.join('\n');
}
