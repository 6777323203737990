import { type Progress } from '../config/execution-config.js';

/** Where the bar is drawn: a terminal stream (`process.stderr`). */
export interface BarTarget {
  write(text: string): unknown;
  /** The terminal width; 80 when unknown or 0. */
  readonly columns?: number;
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

/** `1536` → `1.5 KiB`; bytes below 1024 without decimals. */
export function formatBytes(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${UNITS[unit]}`;
}

/**
 * One frame of the bar, at most `width` characters: `[#####.....]  50%  1.0 MiB / 2.0 MiB`,
 * or just the bytes so far when the total is unknown.
 */
export function renderBar(progress: Progress, width: number): string {
  const done = formatBytes(progress.transferred);
  if (progress.total === undefined || progress.percent === undefined) return `${done} received`.slice(0, width);
  const percent = Math.floor(progress.percent);
  const tail = ` ${String(percent).padStart(3)}%  ${done} / ${formatBytes(progress.total)}`;
  const barWidth = Math.min(40, width - tail.length - 2);
  if (barWidth < 5) return tail.trim().slice(0, width);
  const filled = Math.round((barWidth * percent) / 100);
  return `[${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}]${tail}`;
}

/**
 * A one-line progress bar redrawn in place (`\r` and erase-line), at most every `interval` ms
 * so a fast download does not flood the terminal. Call {@link update} as bytes arrive and
 * {@link finish} once at the end: it draws the last frame and ends the line.
 */
export class ProgressBar {
  #last: Progress | undefined;
  #drawnAt = -Infinity;
  #drawn = false;

  constructor(
    private readonly target: BarTarget,
    private readonly interval = 100,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records `progress` and redraws when the last frame is older than the interval. */
  update(progress: Progress): void {
    this.#last = progress;
    const time = this.now();
    if (time - this.#drawnAt < this.interval) return;
    this.#drawnAt = time;
    this.#draw(progress);
  }

  /** Draws the final frame (if anything was received) and moves to the next line. */
  finish(): void {
    if (this.#last !== undefined) this.#draw(this.#last);
    if (this.#drawn) this.target.write('\n');
    this.#drawn = false;
  }

  #draw(progress: Progress): void {
    this.#drawn = true;
    this.target.write(`\r${renderBar(progress, (this.target.columns || 80) - 1)}\x1b[K`);
  }
}
