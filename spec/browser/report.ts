/** The harness's output: one row per scenario and runtime, then `N passed, N failed`. */
import type { ScenarioOutcome } from './outcome.js';

/** One runtime's outcomes under its name ("Chromium 156", "workerd"). */
export interface RuntimeOutcomes {
  runtime: string;
  outcomes: ScenarioOutcome[];
}

/** The table as lines of text, and the totals. */
export function report(runs: readonly RuntimeOutcomes[]): { lines: string[]; passed: number; failed: number } {
  const rows = runs.flatMap(({ runtime, outcomes }) => outcomes.map((outcome) => ({ runtime, ...outcome })));
  const runtimeWidth = Math.max(7, ...rows.map((row) => row.runtime.length));
  const nameWidth = Math.max(8, ...rows.map((row) => row.name.length));
  const lines = [`${'runtime'.padEnd(runtimeWidth)}  ${'scenario'.padEnd(nameWidth)}  result`];
  for (const row of rows) {
    const result = row.passed ? 'pass' : `FAIL  ${row.detail ?? ''}`;
    lines.push(`${row.runtime.padEnd(runtimeWidth)}  ${row.name.padEnd(nameWidth)}  ${result}`);
  }
  const passed = rows.filter((row) => row.passed).length;
  return { lines, passed, failed: rows.length - passed };
}
