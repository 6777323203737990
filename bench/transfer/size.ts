/**
 * Byte sizes as people write them: `256MiB`, `1GiB`, `512KiB`, `1048576` (binary units; `MB`
 * and `GB` are read as MiB and GiB too, since the figures are always stated in MiB).
 *
 * @module
 */

const UNITS: Readonly<Record<string, number>> = { '': 1, b: 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 };

/** Parses a size; throws on anything that is not a positive whole number of bytes. */
export function parseSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?\s*$/i.exec(text);
  const bytes = match ? Number(match[1]) * UNITS[match[2].toLowerCase()] : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new Error(`a transfer size must be like 256MiB, 1GiB or a byte count, got '${text}'`);
  return bytes;
}

/** `256 MiB`, `1 GiB`, `1.5 MiB`, `12,345 B`. */
export function formatSize(bytes: number): string {
  for (const [unit, scale] of [['GiB', 2 ** 30], ['MiB', 2 ** 20], ['KiB', 2 ** 10]] as const) {
    if (bytes >= scale) return `${Number((bytes / scale).toFixed(2))} ${unit}`;
  }
  return `${bytes.toLocaleString('en-US')} B`;
}
