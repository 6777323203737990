/**
 * Number formats and tables (plain text for stdout, markdown for `latest.md`) shared by the
 * reports of every scenario.
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
  for (const [unit, scale] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const) {
    if (bytes >= scale) return `${Number((bytes / scale).toFixed(2))} ${unit}`;
  }
  return `${fmt(bytes)} B`;
}
