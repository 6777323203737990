/**
 * Measuring one run: N requests through C concurrent loops, wall time and this process's CPU
 * time (user + system, all threads, from `process.cpuUsage()`), plus sampled RSS.
 *
 * @module
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** What one run of one contender produced. */
export interface RunResult {
  readonly requests: number;
  readonly wallMs: number;
  readonly cpuUserUs: number;
  readonly cpuSystemUs: number;
  readonly reqPerSec: number;
  /** (user + system) CPU µs of the client process per request. */
  readonly cpuUsPerReq: number;
  /** Highest RSS seen while the run was in flight (sampled every 200 ms, plus at start and end). */
  readonly peakRssBytes: number;
}

/**
 * Requests started and completed, added to across runs: the server's own count must match
 * (`succeeded ≤ served ≤ attempted` once a run failed, exactly `succeeded` otherwise).
 */
export interface Tally {
  attempted: number;
  succeeded: number;
}

/**
 * Runs `total` calls of `op`, `concurrency` at a time (each loop awaits one call before the
 * next), and checks every result. Rejects on the first failure or bad result. Counts into
 * `tally` when given (no extra promise per request, so no cost to the figures).
 */
export async function measureRun(
  op: () => Promise<unknown>,
  check: (value: unknown) => boolean,
  total: number,
  concurrency: number,
  tally: Tally = { attempted: 0, succeeded: 0 },
): Promise<RunResult> {
  let issued = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
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
  let peakRss = process.memoryUsage.rss();
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    // reading RSS costs ~0.3 ms here (/proc): sample rarely so it stays out of the CPU figures
  }, 200);
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  } finally {
    clearInterval(sampler);
  }
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  const cpu = process.cpuUsage(cpuStart);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  return {
    requests: total,
    wallMs,
    cpuUserUs: cpu.user,
    cpuSystemUs: cpu.system,
    reqPerSec: total / (wallMs / 1000),
    cpuUsPerReq: (cpu.user + cpu.system) / total,
    peakRssBytes: peakRss,
  };
}

/** Several runs of one contender as one: totals of requests, time and CPU, the highest RSS. */
export function combineRuns(parts: readonly RunResult[]): RunResult {
  const sum = (of: (part: RunResult) => number) => parts.reduce((total, part) => total + of(part), 0);
  const requests = sum((part) => part.requests);
  const wallMs = sum((part) => part.wallMs);
  const cpuUserUs = sum((part) => part.cpuUserUs);
  const cpuSystemUs = sum((part) => part.cpuSystemUs);
  return {
    requests,
    wallMs,
    cpuUserUs,
    cpuSystemUs,
    reqPerSec: requests / (wallMs / 1000),
    cpuUsPerReq: (cpuUserUs + cpuSystemUs) / requests,
    peakRssBytes: Math.max(...parts.map((part) => part.peakRssBytes)),
  };
}

// A scenario's measured rounds start from a collected heap (once: see rounds.ts for why not per
// round), as do overhead.ts's runs. `gc` is only exposed with --expose-gc; this
// enables it at run time because `npm run bench` is plain `tsx bench/run.ts`.
const collect: () => void = (() => {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
})();

/** Full GC (twice: what the first one finalises, the second one frees). */
export function collectGarbage(): void {
  collect();
  collect();
}

/** Full GC, then a short idle pause so sockets and timers settle before the next run. */
export async function settle(): Promise<void> {
  collectGarbage();
  await new Promise((resolve) => setTimeout(resolve, 200));
}

/** Median (mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
