/**
 * Starts `bench/server.ts` in a separate Node process (through tsx's loader), pinned to
 * {@link SERVER_CPU} when possible, and waits for the port it reports on stdout.
 *
 * @module
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { SERVER_CPU, affinityOf, tasksetPath } from './pinning.js';

/** A running benchmark server. */
export interface ServerProcess {
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly pid: number;
  /** Whether it was started under `taskset`. */
  readonly pinned: boolean;
  /** Affinity read back from the process (e.g. `"1"`). */
  readonly affinity: string;
  /** Sends SIGTERM and waits for the exit (SIGKILL after 2 s). */
  stop(): Promise<void>;
}

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER_SCRIPT = fileURLToPath(new URL('./server.ts', import.meta.url));

/** Spawns the server and resolves once it listens; rejects if it exits or stays silent for 15 s. */
export async function startServer(): Promise<ServerProcess> {
  const nodeArgs = ['--import', 'tsx', SERVER_SCRIPT];
  const taskset = tasksetPath();
  const [command, args] = taskset
    ? [taskset, ['-c', String(SERVER_CPU), process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs];
  // stdin stays a pipe we never close: the server exits when it sees EOF, i.e. when we die
  const child = spawn(command, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  const port = await readPort(child);
  const pid = child.pid ?? -1;
  return {
    origin: `http://127.0.0.1:${port}`,
    pid,
    pinned: taskset !== undefined,
    affinity: affinityOf(pid),
    stop: () => stop(child),
  };
}

function readPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let buffered = '';
    const timer = setTimeout(() => fail(new Error('bench server did not report a port within 15 s')), 15_000);
    const onExit = (code: number | null) => fail(new Error(`bench server exited early (code ${code})`));
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.once('error', fail);
    child.once('exit', onExit);
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', function onData(text: string) {
      buffered += text;
      const newline = buffered.indexOf('\n');
      if (newline < 0) return;
      clearTimeout(timer);
      child.off('exit', onExit);
      child.stdout?.off('data', onData);
      child.stdout?.resume(); // keep draining so a chatty server never blocks
      const { port } = JSON.parse(buffered.slice(0, newline)) as { port: number };
      resolve(port);
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), 2_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
    child.stdin?.end();
  });
}

/** What the server has seen so far (`GET /__stats`). */
export interface ServerStats {
  /** TCP connections accepted (the stats request's own included). */
  readonly connections: number;
  /** Requests served per route (`"GET /small.json" → n`). */
  readonly served: Readonly<Record<string, number>>;
  /** The server process's own `process.cpuUsage()` (µs), to show it did the same work for every contender. */
  readonly cpu: { readonly user: number; readonly system: number };
}

/** Asks the server for its {@link ServerStats}, over a fresh connection (so no client pool is touched). */
export function serverStats(origin: string): Promise<ServerStats> {
  return new Promise((resolve, reject) => {
    http
      .get(`${origin}/__stats`, { agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.once('error', reject);
        res.once('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as ServerStats));
      })
      .once('error', reject);
  });
}
