/**
 * Measuring one piece of work in the client process: wall time, this process's CPU time (user +
 * system, all threads, from `process.cpuUsage()`), memory sampled while it runs, and what the
 * server saw meanwhile. Also the loops of the request scenarios and the full GC between parts.
 *
 * @module
 */
import { serverStats, type Tally } from './server-check.js';

/** Memory around a piece of work: RSS when it began and its peak while it ran (or at its end); each growth is a peak less its baseline. */
export interface MemoryGrowth {
  readonly baselineRss: number;
  readonly peakRss: number;
  /** A client that holds a body grows by about its size, one that streams by its buffers. */
  readonly rssGrowth: number;
  /** Of `arrayBuffers` (Buffers): body bytes held show here first. */
  readonly arrayBuffersGrowth: number;
  readonly heapUsedGrowth: number;
}

/** What one piece of work cost the client, and what the server did meanwhile. */
export interface Measurement {
  readonly wallMs: number;
  readonly cpuUserUs: number;
  readonly cpuSystemUs: number;
  /** The server process's CPU µs during the work (the same per request for everyone but for batching). */
  readonly serverCpuUs: number;
  /** TCP connections the server accepted during the work (0 when every request reused a pooled socket). */
  readonly newConnections: number;
  readonly memory: MemoryGrowth;
}

/** How often memory is sampled during request slices: reading RSS costs ~0.3 ms here (/proc), so rarely enough to stay out of the CPU figures. */
export const REQUEST_SAMPLE_MS = 200;
/** How often memory is sampled during a transfer, whose growth is the figure of interest. */
export const TRANSFER_SAMPLE_MS = 20;

/**
 * Runs `work` and measures it, sampling memory every `sampleEveryMs`. With `origin`, the
 * server's stats are read before and after, outside the measured window (each read opens one
 * connection of its own, which is subtracted); without, the server figures are 0.
 */
export async function measure<T>(work: () => Promise<T>, sampleEveryMs: number, origin?: string): Promise<{ value: T; measurement: Measurement }> {
  const before = origin === undefined ? undefined : await serverStats(origin);
  const base = process.memoryUsage();
  const peak = { rss: base.rss, arrayBuffers: base.arrayBuffers, heapUsed: base.heapUsed };
  const sample = () => {
    const now = process.memoryUsage();
    peak.rss = Math.max(peak.rss, now.rss);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers);
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
  };
  const timer = setInterval(sample, sampleEveryMs);
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  const value = await work().finally(() => clearInterval(timer));
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const cpu = process.cpuUsage(cpuStart);
  sample();
  const after = origin === undefined ? undefined : await serverStats(origin);
  const memory = {
    baselineRss: base.rss,
    peakRss: peak.rss,
    rssGrowth: peak.rss - base.rss,
    arrayBuffersGrowth: peak.arrayBuffers - base.arrayBuffers,
    heapUsedGrowth: peak.heapUsed - base.heapUsed,
  };
  const server =
    before && after
      ? { serverCpuUs: after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system, newConnections: after.connections - before.connections - 1 }
      : { serverCpuUs: 0, newConnections: 0 };
  return { value, measurement: { wallMs, cpuUserUs: cpu.user, cpuSystemUs: cpu.system, ...server, memory } };
}

/**
 * One large transfer measured for its memory (by the benchmark and by `spec/memory`): a full GC
 * first, so that the baseline holds no garbage of earlier work, then memory sampled often.
 */
export async function measureTransfer<T>(work: () => Promise<T>, origin?: string): Promise<{ value: T; measurement: Measurement }> {
  await settle();
  return measure(work, TRANSFER_SAMPLE_MS, origin);
}

/**
 * Runs `total` calls of `op`, `concurrency` at a time (each loop awaits one call before the
 * next), and checks every result; rejects on the first failure or bad result. Counts into
 * `tally` (no extra promise per request, so no cost to the figures).
 */
export async function requestLoops(op: () => Promise<unknown>, check: (value: unknown) => boolean, total: number, concurrency: number, tally: Tally) {
  let issued = 0;
  let failed = false;
  const loop = async (): Promise<void> => {
    while (issued < total && !failed) {
      issued++;
      tally.attempted++;
      try {
        const value = await op();
        tally.succeeded++;
        if (!check(value)) throw new Error(`unexpected result: ${JSON.stringify(value)?.slice(0, 200)}`);
      } catch (error) {
        failed = true; // stop the other loops from issuing more
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, loop));
}

/**
 * Full GCs around a short idle pause, so sockets and timers settle and what follows starts from a
 * collected heap: what the first GC finalises, the second frees. Needs `node --expose-gc` (every
 * benchmark process has it: `processes.ts`).
 */
export async function settle(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the benchmark needs node --expose-gc');
  gc();
  gc();
  await new Promise((resolve) => setTimeout(resolve, 200));
  gc();
}

/** `promise`, or a rejection once `ms` have passed. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`did not finish within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Median (mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
