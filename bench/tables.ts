/**
 * Number formats and tables (plain text for stdout, markdown for `latest.md`) for the report.
 *
 * @module
 */

/** `12,345.6`: en-US grouping, exactly `digits` decimals. */
export const fmt = (value: number, digits = 0): string => value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** `123.4 MiB`. */
export const mib = (bytes: number): string => `${fmt(bytes / 2 ** 20, 1)} MiB`;

/** An empty cell. */
export const DASH = '—';

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
