/** The harness's output: one row per runtime, backend and scenario, then `N passed, N failed`. */
import type { ScenarioResult } from './outcome.js';

/** One runtime's results under its name ("Chrome 156", "workerd"). */
export interface RuntimeResults {
  runtime: string;
  results: ScenarioResult[];
}

/** The table as lines of text, and the totals. */
export function report(runs: readonly RuntimeResults[]): { lines: string[]; passed: number; failed: number } {
  const rows = runs.flatMap(({ runtime, results }) => results.map((result) => ({ runtime, ...result })));
  const width = (header: string, cells: string[]) => Math.max(header.length, ...cells.map((cell) => cell.length));
  const widths = [
    width(
      'runtime',
      rows.map((row) => row.runtime),
    ),
    width(
      'backend',
      rows.map((row) => row.backend),
    ),
    width(
      'scenario',
      rows.map((row) => row.scenario),
    ),
  ];
  const line = (cells: string[], rest: string) => `${cells.map((cell, index) => cell.padEnd(widths[index])).join('  ')}  ${rest}`;
  const lines = [line(['runtime', 'backend', 'scenario'], 'result')];
  for (const row of rows)
    lines.push(line([row.runtime, row.backend, row.scenario], row.ok ? `pass  ${row.ms} ms` : `FAIL  ${(row.error ?? '').replace(/\s*\n\s*/g, ' | ')}`));
  const passed = rows.filter((row) => row.ok).length;
  return { lines, passed, failed: rows.length - passed };
}
