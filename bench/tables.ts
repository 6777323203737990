/**
 * Number formats and tables (plain text for stdout, markdown for `latest.md`) for the report, and
 * what the information-only scenarios (f) and (g) share: a row per backend, measured in turn.
 *
 * @module
 */
import type { BackendName } from './contenders/library.js';

/** `12,345.6`: en-US grouping, exactly `digits` decimals. */
export const fmt = (value: number, digits = 0): string => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** `123.4 MiB`. */
export const mib = (bytes: number): string => `${fmt(bytes / 2 ** 20, 1)} MiB`;

/** An empty cell. */
export const DASH = '—';

/** A row of the information-only scenarios (f) and (g): a backend's figures, or the failure that stopped them. */
export type BackendRow<R> = { readonly backend: string } & (R | { readonly failure: string });

/** What an information-only scenario found, as `latest.json` keeps it. */
export type BackendReport<R> = { readonly date: string; readonly title: string; readonly rows: ReadonlyArray<BackendRow<R>> };

/** Measures each backend in turn (`id`: the scenario, for the progress lines); a failure becomes that backend's row. */
export async function eachBackend<R extends object>(id: string, backends: readonly BackendName[], measure: (name: BackendName) => Promise<R>) {
  const rows: Array<BackendRow<R>> = [];
  const failed = (backend: string, error: unknown) => ({ backend, failure: error instanceof Error ? error.message : String(error) });
  for (const backend of backends) {
    console.log(`scenario (${id}): ${backend}`);
    rows.push(
      await measure(backend).then(
        (figures) => ({ backend, ...figures }),
        (error: unknown) => failed(backend, error),
      ),
    );
  }
  return rows;
}

/** The table of an information-only scenario: a row per backend, its `cells`, or the failure that stopped it. */
export function backendTable<R>(header: string[], rows: ReadonlyArray<BackendRow<R>>, cells: (row: R) => string[]): string[][] {
  const failed = (failure: string) => [`FAILED: ${failure}`, ...header.slice(2).map(() => DASH)];
  return [header, ...rows.map((row) => [`httpbuilder-ts (${row.backend})`, ...('failure' in row ? failed(row.failure) : cells(row as R))])];
}

/** Columns padded to width; the first left-aligned, the others right-aligned. */
export function textTable(rows: readonly string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const line = (r: readonly string[]) => r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ');
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)].join('\n');
}

/** A markdown table; the first column left-aligned, the others right-aligned. */
export function markdownTable(rows: readonly string[][]): string {
  const line = (r: readonly string[]) => `| ${r.join(' | ')} |`;
  return [line(rows[0]), `|${rows[0].map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

/** `256 MiB`, `1 GiB`, `1.5 MiB`, `12,345 B`. */
export function formatSize(bytes: number): string {
  const power = Math.min(3, Math.floor(Math.log2(Math.max(1, bytes)) / 10)); // of 1,024: B, KiB, MiB, GiB
  return power === 0 ? `${fmt(bytes)} B` : `${Number((bytes / 2 ** (10 * power)).toFixed(2))} ${['B', 'KiB', 'MiB', 'GiB'][power]}`;
}
