/**
 * Turns one transfer scenario's runs into per-contender medians, the memory verdict, and ratios
 * against raw node:http and the contender's counterpart, each taken per round (the two runs of
 * the same round) and then the median of those.
 *
 * @module
 */
import type { Failure } from '../failure.js';
import { median } from '../measure.js';
import type { TransferContender } from './contender.js';
import type { TransferRun } from './job.js';

/** RSS growth a streamed transfer may cost, whatever its size (issue #7). */
export const MEMORY_LIMIT_BYTES = 64 * 2 ** 20;

/** One measured run as the runner recorded it. */
export type TransferRunRecord = TransferRun & {
  readonly round: number;
  /** Position within its round (0 = first). */
  readonly order: number;
};

/** Medians (and worst cases) of a contender's runs. */
export interface TransferMedians {
  readonly mbPerSec: number;
  readonly minMbPerSec: number;
  readonly maxMbPerSec: number;
  readonly cpuUsPerMiB: number;
  readonly rssGrowthMedian: number;
  /** The worst run: what the memory verdict judges. */
  readonly rssGrowthMax: number;
  readonly arrayBuffersGrowthMax: number;
  readonly peakRssMax: number;
}

/** This contender against another one, round by round. */
export interface TransferRatio {
  readonly against: string;
  /** Median over rounds of (own MB/s ÷ the other's). */
  readonly mbPerSec: number;
  /** The per-round throughput ratios, in round order. */
  readonly roundMbPerSec: readonly number[];
  /** Median over rounds of (own CPU µs/MiB ÷ the other's). */
  readonly cpu: number;
}

/** One contender's runs of one transfer scenario, summarised. */
export interface TransferSummary {
  readonly name: string;
  readonly description: string;
  readonly baseline: boolean;
  readonly comparedWith?: string;
  readonly failure?: Failure;
  readonly medians?: TransferMedians;
  /** RSS growth of every run ≤ {@link MEMORY_LIMIT_BYTES}. */
  readonly memoryMet?: boolean;
  readonly vsBaseline?: TransferRatio;
  readonly vsCounterpart?: TransferRatio;
  readonly runs: readonly TransferRunRecord[];
}

/** Summaries in `contenders` order; a failed contender keeps its runs but gets no figures. */
export function summariseTransfers(
  contenders: readonly TransferContender[],
  runs: ReadonlyMap<TransferContender, readonly TransferRunRecord[]>,
  failures: ReadonlyMap<TransferContender, Failure>,
): TransferSummary[] {
  const usable = (c: TransferContender | undefined) => (c && !failures.has(c) ? (runs.get(c) ?? []) : []);
  const baseline = contenders.find((c) => c.baseline);
  return contenders.map((contender) => {
    const own = usable(contender);
    const counterpart = contenders.find((c) => c.name === contender.comparedWith);
    const medians = own.length > 0 ? mediansOf(own) : undefined;
    return {
      name: contender.name,
      description: contender.description,
      baseline: contender === baseline,
      comparedWith: contender.comparedWith,
      failure: failures.get(contender),
      medians,
      memoryMet: medians && medians.rssGrowthMax <= MEMORY_LIMIT_BYTES,
      vsBaseline: baseline && contender !== baseline && medians ? pair(own, usable(baseline), baseline.name) : undefined,
      vsCounterpart: counterpart && medians ? pair(own, usable(counterpart), counterpart.name) : undefined,
      runs: runs.get(contender) ?? [],
    };
  });
}

function mediansOf(own: readonly TransferRunRecord[]): TransferMedians {
  const rate = own.map((r) => r.mbPerSec);
  const growth = own.map((r) => r.memory.rssGrowth);
  return {
    mbPerSec: median(rate),
    minMbPerSec: Math.min(...rate),
    maxMbPerSec: Math.max(...rate),
    cpuUsPerMiB: median(own.map((r) => r.cpuUsPerMiB)),
    rssGrowthMedian: median(growth),
    rssGrowthMax: Math.max(...growth),
    arrayBuffersGrowthMax: Math.max(...own.map((r) => r.memory.arrayBuffersGrowth)),
    peakRssMax: Math.max(...own.map((r) => r.memory.peakRss)),
  };
}

function pair(own: readonly TransferRunRecord[], other: readonly TransferRunRecord[], against: string): TransferRatio | undefined {
  const pairs = own.flatMap((r) => {
    const o = other.find((x) => x.round === r.round);
    return o ? [{ rate: r.mbPerSec / o.mbPerSec, cpu: r.cpuUsPerMiB / o.cpuUsPerMiB }] : [];
  });
  if (pairs.length === 0) return undefined;
  const roundMbPerSec = pairs.map((p) => p.rate);
  return { against, mbPerSec: median(roundMbPerSec), roundMbPerSec, cpu: median(pairs.map((p) => p.cpu)) };
}
