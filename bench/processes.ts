/**
 * The processes of a run besides `run.ts` itself: the benchmark server (`server.ts`), pinned to
 * one core, and the worker processes that measure (`worker.ts`), pinned to another, so that
 * neither steals the other's time slices. Pinning uses `taskset` when it exists and there are two
 * cores; without it the benchmark still runs and the report says it was not pinned.
 *
 * @module
 */
import { spawn, spawnSync, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { Job } from './jobs.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER_SCRIPT = fileURLToPath(new URL('./server.ts', import.meta.url));
const WORKER_SCRIPT = fileURLToPath(new URL('./worker.ts', import.meta.url));
const CLIENT_CPU = 0;
const SERVER_CPU = 1;

/** Path of `taskset` when it exists and there are at least two cores, else `undefined` (the run goes unpinned). */
const taskset = os.availableParallelism() < 2 ? undefined : spawnSync('sh', ['-c', 'command -v taskset'], { encoding: 'utf8' }).stdout?.trim() || undefined;

/** How the processes are pinned, for the report. */
export const PINNING = taskset
  ? `every worker process started under taskset -c ${CLIENT_CPU} (all its threads: GC helpers and libuv's pool count as client CPU too), the server under taskset -c ${SERVER_CPU}`
  : 'not pinned (taskset unavailable or fewer than 2 cores)';

/** `node --expose-gc --import tsx <script>` (`--expose-gc` for the full GCs of `measure.ts`), under `taskset -c <cpu>` when pinning is possible. */
function spawnNode(script: string, cpu: number, options: SpawnOptions): ChildProcess {
  const node = [process.execPath, '--expose-gc', '--import', 'tsx', script];
  const [command, ...args] = taskset ? [taskset, '-c', String(cpu), ...node] : node;
  return spawn(command, args, { cwd: ROOT, ...options });
}

/** The running bench server: `http://127.0.0.1:PORT`, the proxy of (e), the HTTPS origin of (f) (h2 and http/1.1) and its certificate. */
export type BenchServer = { [K in 'origin' | 'proxy' | 'secureOrigin' | 'ca']: string } & { stop(): Promise<void> };

/** Starts the server; resolves once it listens; `stop()` is SIGTERM, SIGKILL after 2 s. Rejects if it exits or stays silent for 15 s. */
export function startServer(): Promise<BenchServer> {
  // stdin stays a pipe we never close: the server exits when it sees EOF, i.e. when we die
  const child = spawnNode(SERVER_SCRIPT, SERVER_CPU, { stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error('bench server did not report a port within 15 s')), 15_000);
    const onExit = (code: number | null) => fail(new Error(`bench server exited early (code ${code})`));
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.once('error', fail);
    child.once('exit', onExit);
    // its first line is `{"port":N,"proxyPort":M,"securePort":S,"ca":PEM}`; readline goes on reading the rest, so a chatty server never blocks
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      const { port, proxyPort, securePort, ca } = JSON.parse(line) as { port: number; proxyPort: number; securePort: number; ca: string };
      const local = (scheme: string, at: number) => `${scheme}://127.0.0.1:${at}`;
      resolve({ origin: local('http', port), proxy: local('http', proxyPort), secureOrigin: local('https', securePort), ca, stop: () => stop(child) });
    });
  });
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  const kill = setTimeout(() => child.kill('SIGKILL'), 2_000);
  child.kill('SIGTERM');
  child.stdin?.end();
  await exited;
  clearTimeout(kill);
}

/** Runs `job` in a fresh worker process and resolves to its answer; rejects when the process ends without one, or is killed after `timeoutMs` (whole ms). */
export async function runWorker<A>(job: Job, timeoutMs?: number): Promise<A> {
  const env = { ...process.env, BENCH_JOB: JSON.stringify(job) };
  const child = spawnNode(WORKER_SCRIPT, CLIENT_CPU, { stdio: ['ignore', 'inherit', 'inherit'], env, timeout: timeoutMs, killSignal: 'SIGKILL' });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  try {
    return JSON.parse(readFileSync(job.answerFile, 'utf8')) as A;
  } catch {
    // only the timeout kills a worker
    throw new Error(child.killed ? `did not finish within ${timeoutMs! / 1000} s` : `worker exited with ${signal ?? `code ${code}`} without an answer`);
  } finally {
    rmSync(job.answerFile, { force: true });
  }
}
