/**
 * Turns one scenario's runs into per-contender medians and paired ratios: each contender against
 * its counterpart (the raw client its backend uses) and against the baseline (raw node:http),
 * each ratio taken per round between the two runs of that round, then the median of those.
 *
 * @module
 */
import type { Contender } from './contender.js';
import type { Failure } from './failure.js';
import { median, type RunResult } from './measure.js';
import { medianInterval, type MedianInterval } from './median-interval.js';

/** One measured run as recorded by `rounds.ts`. */
export type RunRecord = RunResult & {
  readonly round: number;
  /** Position in its round's first slice (0 = first); every later slice is shuffled anew. */
  readonly order: number;
  /** TCP connections the server accepted during the run (0 when every request reused a pooled socket). */
  readonly newConnections: number;
  /** The server process's CPU µs per request during the run (same work per request; differs only through batching). */
  readonly serverCpuUsPerReq: number;
};

/** This contender against another one, round by round. */
export interface Ratio {
  /** The other contender's name. */
  readonly against: string;
  /** Median over rounds of (own CPU µs/req ÷ the other's, same round). */
  readonly cpu: number;
  /** The per-round CPU ratios, in round order: how stable the ratio is. */
  readonly roundCpu: readonly number[];
  /** Median over rounds of (own req/s ÷ the other's, same round). */
  readonly reqPerSec: number;
}

/** A {@link Ratio} against the counterpart, with the target it aims for. */
export type TargetRatio = Ratio & {
  /** Upper bound for {@link Ratio.cpu}, if any. */
  readonly target?: number;
  /**
   * A 95% interval for the median per-round ratio (`medianInterval`): the rounds are a sample,
   * and one run's median lands a few percent either side of where another run's would.
   */
  readonly interval?: MedianInterval;
  /**
   * Against the target (absent without one): `met` when the whole interval is at or below it,
   * `not met` when the whole interval is above it, `unsettled` when the interval straddles it
   * (more rounds settle it: `--processes N`), or when there are too few rounds for an interval.
   */
  readonly verdict?: Verdict;
  /**
   * With `--processes N`: each process's own {@link Ratio.cpu}, in run order. A process's level
   * can differ from the next's by more than its rounds average out, so the report shows them
   * beside the pooled figure.
   */
  readonly processCpu?: readonly number[];
};

/** Medians of a contender's runs (absent for a contender that failed). */
export interface Medians {
  readonly reqPerSec: number;
  readonly minReqPerSec: number;
  readonly maxReqPerSec: number;
  readonly cpuUsPerReq: number;
  readonly minCpuUsPerReq: number;
  readonly maxCpuUsPerReq: number;
  /** The user / system split of CPU µs/req (medians of each, so they need not add up exactly). */
  readonly userUsPerReq: number;
  readonly systemUsPerReq: number;
  readonly serverCpuUsPerReq: number;
  /** Highest sampled RSS during this contender's measured runs (the process is shared, so it includes the others' leftovers). */
  readonly peakRssBytes: number;
  /** Most connections the server accepted during one run (0: every request reused a pooled socket). */
  readonly maxNewConnections: number;
}

/** One contender's runs of one scenario, summarised. */
export interface ContenderSummary {
  readonly name: string;
  readonly description: string;
  readonly baseline: boolean;
  /** Set when the contender did not finish: its runs (if any) are kept but not summarised. */
  readonly failure?: Failure;
  readonly medians?: Medians;
  /** Name of its counterpart, even when that one failed. */
  readonly comparedWith?: string;
  /** Against its counterpart (absent when either has no runs). */
  readonly vsCounterpart?: TargetRatio;
  /** Against the baseline (absent for the baseline itself). */
  readonly vsBaseline?: Ratio;
  /** Rounds in order. */
  readonly runs: readonly RunRecord[];
  /** With `--isolate`: the (1-based) group these figures come from (its one process, or with `--processes N` its N pooled ones). */
  readonly process?: number;
}

/** Summarises each contender's runs and its ratios against its counterpart and the baseline. */
export function summarise(
  contenders: readonly Contender[],
  runs: ReadonlyMap<Contender, readonly RunRecord[]>,
  failures: ReadonlyMap<Contender, Failure>,
): ContenderSummary[] {
  const usable = (c: Contender | undefined) => (c && !failures.has(c) ? (runs.get(c) ?? []) : []);
  const baseline = contenders.find((c) => c.baseline);
  return contenders.map((contender) => {
    const own = usable(contender);
    const counterpart = contenders.find((c) => c.name === contender.comparedWith);
    const vsCounterpart = counterpart && pair(own, usable(counterpart), counterpart.name);
    const target = contender.cpuRatioTarget;
    return {
      name: contender.name,
      description: contender.description,
      baseline: contender === baseline,
      failure: failures.get(contender),
      medians: own.length > 0 ? medians(own) : undefined,
      comparedWith: contender.comparedWith,
      vsCounterpart: vsCounterpart && (target === undefined ? vsCounterpart : judged(vsCounterpart, target)),
      vsBaseline: baseline && contender !== baseline ? pair(own, usable(baseline), baseline.name) : undefined,
      runs: runs.get(contender) ?? [],
    };
  });
}

/** How a ratio stands against its target. */
export type Verdict = 'met' | 'not met' | 'unsettled';

/** `ratio` judged against `target` by the interval of its median, not by the median alone. */
function judged(ratio: Ratio, target: number): TargetRatio {
  return { ...ratio, target, ...judgedRounds(ratio.roundCpu, target) };
}

/**
 * Per-round ratios against `target`: the interval of their median, and the verdict it gives.
 *
 * @example
 * judgedRounds([1.04, 1.06, 1.02, 1.05, 1.07, 1.03], 1.1); // { interval: { low: 1.02, high: 1.07, … }, verdict: 'met' }
 */
export function judgedRounds(roundCpu: readonly number[], target: number): { interval: MedianInterval | undefined; verdict: Verdict } {
  const interval = medianInterval(roundCpu);
  const verdict: Verdict = interval === undefined ? 'unsettled' : interval.high <= target ? 'met' : interval.low > target ? 'not met' : 'unsettled';
  return { interval, verdict };
}

function medians(own: readonly RunRecord[]): Medians {
  const cpu = own.map((r) => r.cpuUsPerReq);
  const rate = own.map((r) => r.reqPerSec);
  return {
    reqPerSec: median(rate),
    minReqPerSec: Math.min(...rate),
    maxReqPerSec: Math.max(...rate),
    cpuUsPerReq: median(cpu),
    minCpuUsPerReq: Math.min(...cpu),
    maxCpuUsPerReq: Math.max(...cpu),
    userUsPerReq: median(own.map((r) => r.cpuUserUs / r.requests)),
    systemUsPerReq: median(own.map((r) => r.cpuSystemUs / r.requests)),
    serverCpuUsPerReq: median(own.map((r) => r.serverCpuUsPerReq)),
    peakRssBytes: Math.max(...own.map((r) => r.peakRssBytes)),
    maxNewConnections: Math.max(...own.map((r) => r.newConnections)),
  };
}

/** Ratios over the rounds both have a run in; `undefined` when there is none. */
function pair(own: readonly RunRecord[], other: readonly RunRecord[], against: string): Ratio | undefined {
  const pairs = own.flatMap((r) => {
    const o = other.find((x) => x.round === r.round);
    return o ? [{ cpu: r.cpuUsPerReq / o.cpuUsPerReq, rate: r.reqPerSec / o.reqPerSec }] : [];
  });
  if (pairs.length === 0) return undefined;
  const roundCpu = pairs.map((p) => p.cpu);
  return { against, cpu: median(roundCpu), roundCpu, reqPerSec: median(pairs.map((p) => p.rate)) };
}
