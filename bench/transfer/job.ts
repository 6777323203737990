/**
 * What the runner asks one transfer process to do, and what that process answers. Passed as
 * JSON: the job in the `BENCH_TRANSFER_JOB` environment variable, the answer in `resultFile`.
 *
 * @module
 */
import path from 'node:path';
import type { MemoryGrowth } from './memory.js';

/** One measured transfer, for one contender in a fresh process. */
export interface TransferJob {
  readonly contender: string;
  readonly scenario: 'c' | 'd';
  /** `http://127.0.0.1:PORT` of the benchmark server. */
  readonly origin: string;
  /** Bytes of the measured transfer. */
  readonly size: number;
  /** Bytes of the unmeasured transfer before it (JIT, lazily loaded modules, the pooled connection). */
  readonly warmupSize: number;
  /** Directory holding the upload sources (`source-<size>.bin`) and where downloads go. */
  readonly dir: string;
  /** Where the process writes its {@link TransferAnswer}. */
  readonly resultFile: string;
}

/** What one measured transfer cost the client process. */
export interface TransferRun {
  readonly bytes: number;
  readonly wallMs: number;
  readonly cpuUserUs: number;
  readonly cpuSystemUs: number;
  /** 10^6 bytes per second. */
  readonly mbPerSec: number;
  /** (user + system) CPU µs of the client process per MiB moved. */
  readonly cpuUsPerMiB: number;
  /** RSS and Buffers around the measured transfer (baseline after a full GC). */
  readonly memory: MemoryGrowth;
  /** The kernel's high-water RSS of the whole process (start-up and warm-up included), for reference. */
  readonly maxRssBytes: number;
}

/** The process's answer: its run, or why it failed. */
export type TransferAnswer = { readonly run: TransferRun } | { readonly error: string };

/** Path of the upload source of `size` bytes in `dir`. */
export function sourcePath(dir: string, size: number): string {
  return path.join(dir, `source-${size}.bin`);
}
