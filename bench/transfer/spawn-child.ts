/**
 * Starts `child.ts` for one {@link TransferJob}: `node --expose-gc --import tsx`, pinned to the
 * client CPU with `taskset` when possible, killed if it outlives its time limit.
 *
 * @module
 */
import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CLIENT_CPU, tasksetPath } from '../pinning.js';
import type { TransferAnswer, TransferJob } from './job.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CHILD_SCRIPT = fileURLToPath(new URL('./child.ts', import.meta.url));

/** Runs `job` in a fresh process; resolves to its answer (a failure is an answer too, never a rejection). */
export function runTransferChild(job: TransferJob, timeoutMs: number): Promise<TransferAnswer> {
  const nodeArgs = ['--expose-gc', '--import', 'tsx', CHILD_SCRIPT];
  const taskset = tasksetPath();
  const [command, args] = taskset ? [taskset, ['-c', String(CLIENT_CPU), process.execPath, ...nodeArgs]] : [process.execPath, nodeArgs];
  const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, BENCH_TRANSFER_JOB: JSON.stringify(job) } });
  return new Promise((resolve) => {
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      resolve({ error: `could not start: ${error.message}` });
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) return resolve({ error: `did not finish within ${timeoutMs / 1000} s` });
      try {
        resolve(JSON.parse(readFileSync(job.resultFile, 'utf8')) as TransferAnswer);
      } catch {
        resolve({ error: `exited with ${signal ?? `code ${code}`} without an answer` });
      } finally {
        rmSync(job.resultFile, { force: true });
      }
    });
  });
}
