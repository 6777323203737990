/**
 * What `run.ts` hands the scenario runners (`requests.ts`, `transfers.ts`), what they ask a worker
 * process (`worker.ts`) to do, and what the worker answers. A job is passed as JSON in the
 * `BENCH_JOB` environment variable, the answer in the job's `answerFile`.
 *
 * @module
 */
import type { Contender } from './contender.js';
import type { Measurement } from './measure.js';
import type { BenchOptions } from './options.js';
import type { Failure, Sample } from './rounds.js';
import type { ScalingAnswer, ScalingCase } from './scaling-cases.js';
import type { ScenarioId } from './scenarios.js';
import type { ServerCheck, Tally } from './server-check.js';

/** What the scenario runners share: the selected contenders, the options, the server, and its request counts' check. */
export interface RunContext {
  readonly contenders: readonly Contender[];
  readonly options: BenchOptions;
  /** `http://127.0.0.1:PORT` of the benchmark server. */
  readonly origin: string;
  /** The forward proxy every session goes through, in the proxied scenario (e) only. */
  readonly proxy?: string;
  readonly check: ServerCheck;
}

/** The request scenarios for one group of contenders (names, in report order), in this one process; `rounds` and `requests` as the options say. */
export interface RequestJob extends Pick<BenchOptions, 'rounds' | 'requests'>, Pick<RunContext, 'origin' | 'proxy'> {
  readonly kind: 'requests';
  readonly contenders: readonly string[];
  readonly scenarios: readonly ScenarioId[];
  /** This process's number in the run (recorded in every sample). */
  readonly process: number;
  readonly slices: number;
  /** Unmeasured requests per contender before each scenario's rounds. */
  readonly warmup: number;
  readonly concurrency: number;
  /** This process's own seed for its shuffles. */
  readonly seed: number;
  readonly answerFile: string;
}

/** Per request scenario, in the job's order. */
export interface RequestAnswer {
  readonly scenarios: readonly {
    readonly id: ScenarioId;
    readonly samples: Readonly<Record<string, readonly Sample[]>>;
    readonly failures: Readonly<Record<string, Failure>>;
    readonly tally: Tally;
  }[];
}

/** One measured transfer of one contender, in a fresh process, so that its memory figures are its own. */
export interface TransferJob extends Pick<RunContext, 'origin'> {
  readonly kind: 'transfers';
  readonly contender: string;
  readonly scenario: ScenarioId;
  readonly size: number;
  /** Bytes of the unmeasured transfer before it (JIT, lazily loaded modules, the pooled connection). */
  readonly warmupSize: number;
  /** Holds the upload sources (`source-<size>.bin`); downloads go there too. */
  readonly dir: string;
  readonly answerFile: string;
}

/** The transfer's measurement, or why it failed; the requests it made either way. */
export interface TransferAnswer {
  readonly measurement?: Measurement;
  readonly error?: string;
  readonly tally: Tally;
}

/** One case of the scaling scenarios (j)–(m) in a fresh process (`scaling-cases.ts`). */
export interface ScalingJob extends Pick<RunContext, 'origin'> {
  readonly kind: 'scaling';
  readonly case: ScalingCase;
  readonly seed: number;
  readonly answerFile: string;
}

/** The case's figures, or why it failed. */
export interface ScalingJobAnswer {
  readonly figures?: ScalingAnswer;
  readonly error?: string;
}

export type Job = RequestJob | TransferJob | ScalingJob;
