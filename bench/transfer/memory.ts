/**
 * Memory of the client process around one transfer: a baseline after a full GC, then
 * `process.memoryUsage()` sampled every 20 ms while the transfer runs. Growth is
 * `peak − baseline`: a client that holds the body grows by about its size, one that streams by
 * its buffers plus the garbage V8 has not collected yet. Needs `node --expose-gc`.
 *
 * @module
 */

/** Peak minus baseline of what `process.memoryUsage()` reports, in bytes. */
export interface MemoryGrowth {
  /** RSS after a full GC, just before the transfer. */
  readonly baselineRss: number;
  /** Highest RSS sampled during the transfer (and at its end). */
  readonly peakRss: number;
  /** `peakRss − baselineRss`. */
  readonly rssGrowth: number;
  /** Highest `arrayBuffers` (Buffers) minus its baseline: body bytes held show here first. */
  readonly arrayBuffersGrowth: number;
  /** Highest `heapUsed` minus its baseline. */
  readonly heapUsedGrowth: number;
  /** Samples taken. */
  readonly samples: number;
}

/** How often the sampler reads memory (reading RSS costs well under a millisecond). */
export const SAMPLE_INTERVAL_MS = 20;

/** Two full GCs and a short pause, so the baseline holds no garbage of earlier work. */
export async function collectGarbage(): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('memory baselines need node --expose-gc');
  gc();
  gc();
  await new Promise((resolve) => setTimeout(resolve, 100));
  gc();
}

/**
 * Collects garbage, takes the baseline, runs `work` while sampling, and returns its result
 * with the growth. The sampler stops even when `work` rejects.
 */
export async function measureMemory<T>(work: () => Promise<T>): Promise<{ result: T; memory: MemoryGrowth }> {
  await collectGarbage();
  const base = process.memoryUsage();
  const peak = { rss: base.rss, arrayBuffers: base.arrayBuffers, heapUsed: base.heapUsed };
  let samples = 0;
  const sample = () => {
    const now = process.memoryUsage();
    samples++;
    peak.rss = Math.max(peak.rss, now.rss);
    peak.arrayBuffers = Math.max(peak.arrayBuffers, now.arrayBuffers);
    peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
  };
  const timer = setInterval(sample, SAMPLE_INTERVAL_MS);
  let result: T;
  try {
    result = await work();
  } finally {
    clearInterval(timer);
  }
  sample();
  const memory: MemoryGrowth = {
    baselineRss: base.rss,
    peakRss: peak.rss,
    rssGrowth: peak.rss - base.rss,
    arrayBuffersGrowth: peak.arrayBuffers - base.arrayBuffers,
    heapUsedGrowth: peak.heapUsed - base.heapUsed,
    samples,
  };
  return { result, memory };
}
