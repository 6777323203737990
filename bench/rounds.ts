/**
 * Interleaved rounds, for every scenario alike: in each round every contender does its share,
 * cut into slices that take turns with the other contenders' slices in an order shuffled afresh
 * for every slice (`schedule.ts`). A shared VM's speed drifts by 10-20% within seconds; slices a
 * second or less apart share that drift, so a ratio between two contenders of the same round
 * measures the code rather than the drift. A contender that throws (or hangs) is reported as
 * failed and left out from then on; the others carry on.
 *
 * @module
 */
import type { Measurement, MemoryGrowth } from './measure.js';
import type { Unit } from './scenarios.js';
import { seededRandom, shuffled } from './schedule.js';

/** Why and where a contender stopped: the run goes on without it. */
export interface Failure {
  /** `"open"`, `"warm-up"` or `"round N"`, after `"process N, "` in the request scenarios. */
  readonly stage: string;
  readonly error: string;
}

/** `"Name [code]: message"`, with the causes' messages appended (a missing package hides in `cause`). */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 4; depth++) {
    const { name, message, code, cause } = e as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown };
    const label = typeof name === 'string' ? name : 'Error';
    const text = typeof message === 'string' ? message : typeof e === 'string' ? e : `non-Error thrown: ${typeof e}`;
    parts.push(`${label}${typeof code === 'string' ? ` [${code}]` : ''}: ${text}`);
    e = cause;
  }
  return parts.join(' ← caused by ');
}

/** One round of one contender: its slices' measurements added up (of `memory`, the peaks over the slices; the baseline is the first slice's). */
export interface Sample extends Pick<Measurement, 'wallMs' | 'cpuUserUs' | 'cpuSystemUs' | 'newConnections' | 'memory'> {
  /** The benchmark process it ran in (numbered over the whole run; 0 for transfers, each in a process of its own). */
  readonly process: number;
  /** Round within that process, from 1. Ratios pair samples of the same process and round. */
  readonly round: number;
  /** Position in the round's first slice (0 = first); every later slice is shuffled anew. */
  readonly order: number;
  /** Requests, or bytes moved. */
  readonly amount: number;
  /** In the scenario's {@link Unit}: req/s or MB/s. */
  readonly rate: number;
  /** (user + system) CPU µs of the client process per request or per MiB. */
  readonly cpuPerUnit: number;
  /** The server's CPU µs per request or per MiB (the same work for everyone; differs only through batching). */
  readonly serverCpuPerUnit: number;
}

/** One slice's work: how much was done, and what it cost. */
export type Slice = { readonly amount: number; readonly measurement: Measurement };

/** How the rounds run: `seed` seeds their shuffles; `process` is recorded in every sample. */
export interface RoundsPlan {
  readonly rounds: number;
  readonly slices: number;
  readonly seed: number;
  readonly process: number;
  readonly unit: Unit;
}

/**
 * Runs the rounds of `contenders` (those in `failures` sit out; a contender that fails is added
 * there with the round it failed in) and returns each contender's samples, one per round it finished.
 */
export async function runRounds<C extends { readonly name: string }>(
  contenders: readonly C[],
  plan: RoundsPlan,
  failures: Map<C, Failure>,
  runSlice: (contender: C, slice: number) => Promise<Slice>,
): Promise<Map<C, Sample[]>> {
  const samples = new Map<C, Sample[]>(contenders.map((c) => [c, []]));
  const random = seededRandom(plan.seed);
  for (let round = 1; round <= plan.rounds; round++) {
    const present = contenders.filter((c) => !failures.has(c));
    const slices = new Map<C, Slice[]>(present.map((c) => [c, []]));
    // shuffled every slice: no contender always follows the same one (and inherits its leftover
    // garbage), and there is no period for the garbage collector to lock onto
    const schedule = Array.from({ length: plan.slices }, () => shuffled(present, random));
    for (const [slice, turns] of schedule.entries()) {
      for (const contender of turns) {
        if (failures.has(contender)) continue;
        try {
          slices.get(contender)!.push(await runSlice(contender, slice));
        } catch (error) {
          failures.set(contender, { stage: `round ${round}`, error: describeError(error) });
          console.log(`  FAILED ${contender.name} in round ${round}: ${describeError(error)}`);
        }
      }
    }
    for (const [order, contender] of schedule[0].entries()) {
      if (failures.has(contender)) continue; // its slices of this round are left out with it
      const sample = combine(slices.get(contender)!, { process: plan.process, round, order }, plan.unit);
      samples.get(contender)!.push(sample);
      const figures = `${sample.rate.toFixed(0).padStart(7)} ${plan.unit.rate}  ${sample.cpuPerUnit.toFixed(1).padStart(8)} ${plan.unit.cpu}`;
      console.log(`  round ${round}/${plan.rounds}  ${contender.name.padEnd(26)} ${figures}`);
    }
  }
  return samples;
}

/** Requests in slice `index` (0-based) of `slices`: `requests` split as evenly as whole numbers allow (10 in 3: 3, 3, 4). */
export function sliceSize(requests: number, slices: number, index: number): number {
  return Math.floor((requests * (index + 1)) / slices) - Math.floor((requests * index) / slices);
}

function combine(parts: readonly Slice[], at: Pick<Sample, 'process' | 'round' | 'order'>, unit: Unit): Sample {
  const sum = (of: (m: Measurement) => number) => parts.reduce((total, part) => total + of(part.measurement), 0);
  const most = (of: (m: MemoryGrowth) => number) => Math.max(...parts.map((part) => of(part.measurement.memory)));
  const amount = parts.reduce((total, part) => total + part.amount, 0);
  const totals = { ...at, amount, wallMs: sum((m) => m.wallMs), cpuUserUs: sum((m) => m.cpuUserUs), cpuSystemUs: sum((m) => m.cpuSystemUs) };
  const units = amount * unit.cpuScale;
  return {
    ...totals,
    rate: (amount * unit.rateScale) / (totals.wallMs / 1000),
    cpuPerUnit: (totals.cpuUserUs + totals.cpuSystemUs) / units,
    serverCpuPerUnit: sum((m) => m.serverCpuUs) / units,
    newConnections: sum((m) => m.newConnections),
    memory: {
      baselineRss: parts[0].measurement.memory.baselineRss,
      peakRss: most((m) => m.peakRss),
      rssGrowth: most((m) => m.rssGrowth),
      arrayBuffersGrowth: most((m) => m.arrayBuffersGrowth),
      heapUsedGrowth: most((m) => m.heapUsedGrowth),
    },
  };
}
