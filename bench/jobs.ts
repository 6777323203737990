/**
 * What `run.ts` asks a worker process (`worker.ts`) to do, and what the worker answers. Passed as
 * JSON: the job in the `BENCH_JOB` environment variable, the answer in the job's `answerFile`.
 *
 * @module
 */
import type { Failure } from './failure.js';
import type { Measurement } from './measure.js';
import type { Sample } from './rounds.js';
import type { ScenarioId } from './scenarios.js';
import type { Tally } from './server-check.js';

/** The request scenarios for one group of contenders, all in this one process. */
export interface RequestJob {
  readonly kind: 'requests';
  /** Contender names, in report order. */
  readonly contenders: readonly string[];
  readonly scenarios: readonly ScenarioId[];
  /** `http://127.0.0.1:PORT` of the benchmark server. */
  readonly origin: string;
  /** This process's number in the run (recorded in every sample). */
  readonly process: number;
  readonly rounds: number;
  /** Measured requests per contender and round. */
  readonly requests: number;
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
export interface TransferJob {
  readonly kind: 'transfers';
  readonly contender: string;
  readonly scenario: ScenarioId;
  readonly origin: string;
  /** Bytes of the measured transfer. */
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

export type Job = RequestJob | TransferJob;
