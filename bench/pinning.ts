/**
 * CPU pinning with `taskset`: the server on one core, the client on another, so they do not
 * steal each other's time slices and per-run numbers vary less. Optional: without `taskset`
 * (or with fewer than two cores) the benchmark still runs and says it is unpinned.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';

/** Cores used when pinning. */
export const CLIENT_CPU = 0;
/** Core of the server process. */
export const SERVER_CPU = 1;

let cachedTaskset: string | undefined | null = null;

/** Path of `taskset` when it exists and there are at least two cores, else `undefined`. */
export function tasksetPath(): string | undefined {
  if (cachedTaskset !== null) return cachedTaskset;
  cachedTaskset = undefined;
  if (os.availableParallelism() >= 2) {
    try {
      cachedTaskset = execFileSync('sh', ['-c', 'command -v taskset'], { encoding: 'utf8' }).trim() || undefined;
    } catch {
      // not installed: run unpinned
    }
  }
  return cachedTaskset;
}

/**
 * Pins this process — every thread (`-a`): libuv pool and V8's GC helpers count as client CPU
 * too — to {@link CLIENT_CPU}. Returns a human-readable status.
 */
export function pinSelf(): { pinned: boolean; status: string } {
  const taskset = tasksetPath();
  if (!taskset) return { pinned: false, status: 'not pinned (taskset unavailable or < 2 cores)' };
  try {
    execFileSync(taskset, ['-a', '-p', '-c', String(CLIENT_CPU), String(process.pid)], { stdio: 'ignore' });
    return { pinned: true, status: `client pid ${process.pid} pinned to CPU ${CLIENT_CPU}` };
  } catch (error) {
    return { pinned: false, status: `client not pinned (taskset failed: ${String(error)})` };
  }
}

/** Reads back the affinity list of `pid` (e.g. `"0"`), to report what really applies. */
export function affinityOf(pid: number): string {
  const taskset = tasksetPath();
  if (!taskset) return 'unknown';
  try {
    return execFileSync(taskset, ['-c', '-p', String(pid)], { encoding: 'utf8' }).split(':').pop()?.trim() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
