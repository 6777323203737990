/**
 * Turns a scenario's samples into each contender's medians and its ratios against its
 * counterpart (the raw client its backend runs on) and the baseline (raw node:http): each ratio
 * taken per round between the two samples of that round, then the median of those, judged
 * against the contender's target by an interval for that median (`median-interval.ts`).
 *
 * @module
 */
import type { Contender, ScenarioKind } from './contender.js';
import { median } from './measure.js';
import { medianInterval, type MedianInterval } from './median-interval.js';
import type { Failure, Sample } from './rounds.js';
import { UNITS, type Scenario, type ScenarioId, type Unit } from './scenarios.js';

/** RSS growth a streamed transfer may cost, whatever its size. */
export const MEMORY_LIMIT_BYTES = 64 * 2 ** 20;

/** What a scenario's run produced, before it is summarised: per contender, one sample per round it finished. */
export interface ScenarioResult {
  readonly scenario: Scenario;
  readonly samples: ReadonlyMap<Contender, readonly Sample[]>;
  readonly failures: ReadonlyMap<Contender, Failure>;
}

/** This contender against the one named `against`: medians of the ratios of CPU per unit and of rate, over the rounds both have a sample in. */
export interface Ratio {
  readonly against: string;
  readonly cpu: number;
  /** The per-round CPU ratios, in sample order. */
  readonly roundCpu: readonly number[];
  readonly rate: number;
  /** With samples of several processes: each process's own median CPU ratio, in run order (a process's level can differ from the next's). */
  readonly processCpu?: readonly number[];
}

/** A {@link Ratio} against the counterpart, judged against the contender's target by a 95% interval for its median (`judged`). */
export type TargetRatio = Ratio & { readonly target: number; readonly interval?: MedianInterval; readonly verdict: 'met' | 'not met' | 'unsettled' };

/** Medians of a contender's samples, and their extremes. */
export type Medians = Readonly<ReturnType<typeof mediansOf>>;

/** One contender's samples of one scenario, summarised (a failed contender's samples are kept, not summarised). */
export interface ContenderSummary {
  readonly name: string;
  readonly description: string;
  readonly baseline: boolean;
  readonly failure?: Failure;
  readonly medians?: Medians;
  /** Name of its counterpart, even when that one failed. */
  readonly counterpart?: string;
  /** Absent when either has no samples; with a target in the request scenarios. */
  readonly vsCounterpart?: Ratio | TargetRatio;
  readonly vsBaseline?: Ratio;
  /** Transfers: whether every sample's RSS growth stayed within {@link MEMORY_LIMIT_BYTES}. */
  readonly memoryMet?: boolean;
  readonly samples: readonly Sample[];
}

/** One scenario's results, as `latest.json` keeps them, with the date of the run they come from. */
export interface ScenarioReport {
  readonly id: ScenarioId;
  readonly kind: ScenarioKind;
  readonly title: string;
  readonly date: string;
  readonly contenders: readonly ContenderSummary[];
}

/** Summarises every contender of `result`, in the order of `contenders`. */
export function summarise(result: ScenarioResult, contenders: readonly Contender[], date: string): ScenarioReport {
  const { scenario, failures } = result;
  const usable = (c: Contender | undefined) => (c && !failures.has(c) ? (result.samples.get(c) ?? []) : []);
  const baseline = contenders.find((c) => c.baseline);
  const summaries = contenders.map((contender): ContenderSummary => {
    const own = usable(contender);
    const counterpart = contenders.find((c) => c.name === contender.counterpart);
    const vsCounterpart = counterpart && pair(own, usable(counterpart), counterpart.name);
    const target = scenario.kind === 'requests' && !scenario.proxied ? contender.target : undefined;
    const medians = own.length > 0 ? mediansOf(own, UNITS[scenario.kind]) : undefined;
    return {
      name: contender.name,
      description: contender.description[scenario.kind],
      baseline: contender === baseline,
      failure: failures.get(contender),
      medians,
      counterpart: contender.counterpart,
      vsCounterpart: vsCounterpart && target !== undefined ? judged(vsCounterpart, target) : vsCounterpart,
      vsBaseline: baseline && contender !== baseline ? pair(own, usable(baseline), baseline.name) : undefined,
      memoryMet: scenario.kind === 'transfers' && medians ? medians.maxRssGrowth <= MEMORY_LIMIT_BYTES : undefined,
      samples: result.samples.get(contender) ?? [],
    };
  });
  return { id: scenario.id, kind: scenario.kind, title: scenario.title, date, contenders: summaries };
}

/** `ratio` with its verdict: `met` when all of a 95% interval for its median is within `target`, `not met` when all is beyond, else `unsettled`. */
function judged(ratio: Ratio, target: number): TargetRatio {
  const interval = medianInterval(ratio.roundCpu);
  const verdict = interval === undefined ? 'unsettled' : interval.high <= target ? 'met' : interval.low > target ? 'not met' : 'unsettled';
  return { ...ratio, target, interval, verdict };
}

function mediansOf(own: readonly Sample[], unit: Unit) {
  const cpu = own.map((s) => s.cpuPerUnit);
  const rate = own.map((s) => s.rate);
  const growth = own.map((s) => s.memory.rssGrowth);
  const perUnit = (us: (s: Sample) => number) => median(own.map((s) => us(s) / (s.amount * unit.cpuScale)));
  return {
    rate: median(rate),
    minRate: Math.min(...rate),
    maxRate: Math.max(...rate),
    cpu: median(cpu),
    minCpu: Math.min(...cpu),
    maxCpu: Math.max(...cpu),
    // the user / system split of the CPU figure (medians of each, so they need not add up exactly)
    userCpu: perUnit((s) => s.cpuUserUs),
    systemCpu: perUnit((s) => s.cpuSystemUs),
    serverCpu: median(own.map((s) => s.serverCpuPerUnit)),
    maxNewConnections: Math.max(...own.map((s) => s.newConnections)),
    peakRss: Math.max(...own.map((s) => s.memory.peakRss)),
    medianRssGrowth: median(growth),
    maxRssGrowth: Math.max(...growth),
    maxArrayBuffersGrowth: Math.max(...own.map((s) => s.memory.arrayBuffersGrowth)),
  };
}

/** Ratios over the rounds both have a sample in (same process, same round); `undefined` when there is none. */
function pair(own: readonly Sample[], other: readonly Sample[], against: string): Ratio | undefined {
  const pairs = own.flatMap((s) => {
    const o = other.find((x) => x.process === s.process && x.round === s.round);
    return o ? [{ process: s.process, cpu: s.cpuPerUnit / o.cpuPerUnit, rate: s.rate / o.rate }] : [];
  });
  if (pairs.length === 0) return undefined;
  const roundCpu = pairs.map((p) => p.cpu);
  const processes = [...new Set(pairs.map((p) => p.process))];
  const processCpu = processes.length > 1 ? processes.map((n) => median(pairs.filter((p) => p.process === n).map((p) => p.cpu))) : undefined;
  return { against, cpu: median(roundCpu), roundCpu, rate: median(pairs.map((p) => p.rate)), processCpu };
}
