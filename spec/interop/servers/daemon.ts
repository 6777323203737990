import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { probe, sleep } from './http-probe.js';

const MAX_OUTPUT = 8192; // characters of the server's own stdout/stderr kept for error messages

/** Every daemon started and not yet stopped: killed when the process exits, whatever happened. */
const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of running) if (child.pid !== undefined) killGroup(child.pid, 'SIGKILL');
  });
}

export interface DaemonOptions {
  /** For messages: `apache`, `lighttpd`, `squid`, `tinyproxy`. */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** A URL of the server that answers `readyStatus` once it serves (its static marker file). */
  readonly readyUrl: string;
  /**
   * The status `readyUrl` answers once the server is up: 200 (default) for a web server's
   * marker file, 400 for a proxy asked for a path instead of an absolute URL.
   */
  readonly readyStatus?: number;
  /** Files whose content explains a failure to start (the server's error log). */
  readonly logFiles: readonly string[];
  readonly startTimeoutMs?: number;
}

/** Thrown when the server could not bind its port; the caller retries with another one. */
export class PortTakenError extends Error {}

/**
 * A server run in the foreground as a child process of the test (never through systemd), on
 * a port that answers before {@link Daemon.start} resolves. {@link Daemon.stop} ends it with
 * SIGTERM, then SIGKILL.
 */
export class Daemon {
  #child: ChildProcess;
  #exit: Promise<void>;
  #exited = false;
  #output = '';

  private constructor(
    private readonly options: DaemonOptions,
    child: ChildProcess,
  ) {
    this.#child = child;
    running.add(child);
    this.#exit = new Promise((resolve) => {
      child.once('exit', () => {
        this.#exited = true;
        running.delete(child);
        resolve();
      });
    });
    const keep = (chunk: Buffer): void => {
      this.#output = (this.#output + chunk.toString('utf8')).slice(-MAX_OUTPUT);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  get exited(): boolean {
    return this.#exited;
  }

  /** Starts the process and waits until `readyUrl` answers 200; on failure the process is stopped and the error says why. */
  static async start(options: DaemonOptions): Promise<Daemon> {
    installExitHook();
    // detached: a process group of its own. Apache in the foreground SIGTERMs its whole process
    // group when it stops; in ours, that would be jest (and the shell that ran it).
    const child = spawn(options.command, options.args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    const daemon = new Daemon(options, child);
    const spawned = new Promise<void>((resolve, reject) => {
      child.once('spawn', resolve);
      child.once('error', reject);
    });
    try {
      await spawned;
      await daemon.#waitUntilReady(options.startTimeoutMs ?? 15_000);
      return daemon;
    } catch (error) {
      await daemon.stop();
      throw await daemon.#explain(error);
    }
  }

  async #waitUntilReady(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.#exited) throw new Error(`${this.options.name} exited (code ${String(this.#child.exitCode)}, signal ${String(this.#child.signalCode)})`);
      try {
        const status = await probe(this.options.readyUrl);
        const expected = this.options.readyStatus ?? 200;
        if (status === expected) return;
        throw new Error(`${this.options.name} answers ${this.options.readyUrl} with ${status} instead of ${expected} (its user cannot read the site folder?)`);
      } catch (error) {
        if (!isRefused(error)) throw error;
      }
      if (Date.now() > deadline) throw new Error(`${this.options.name} does not answer ${this.options.readyUrl} after ${timeoutMs} ms`);
      await sleep(50);
    }
  }

  async #explain(error: unknown): Promise<Error> {
    const logs = await Promise.all(this.options.logFiles.map(async (file) => `${file}:\n${await readFile(file, 'utf8').catch(() => '(missing)')}`));
    const details = [`${this.options.command} ${this.options.args.join(' ')}`, `output:\n${this.#output || '(none)'}`, ...logs].join('\n');
    const reason = error instanceof Error || isErrorLike(error) ? error.message : String(error);
    const text = `${reason}\n${details}`;
    return /address already in use|could not bind/i.test(text) ? new PortTakenError(text) : new Error(text);
  }

  /**
   * SIGTERM, then SIGKILL to the server's own process group (its workers, CGI scripts and log
   * pipe) after `graceMs`; resolves once the server has exited. Idempotent.
   */
  async stop(graceMs = 5000): Promise<void> {
    const pid = this.#child.pid;
    if (this.#exited || pid === undefined) return;
    this.#child.kill('SIGTERM');
    const timer = setTimeout(() => killGroup(pid, 'SIGKILL'), graceMs);
    try {
      await this.#exit;
    } finally {
      clearTimeout(timer);
    }
    // what it started may outlive it for a moment (lighttpd's log pipe exits once its input closes):
    // stopped means the whole group is gone
    for (let waited = 0; groupAlive(pid) && waited < 2000; waited += 20) {
      killGroup(pid, waited < 1000 ? 'SIGTERM' : 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

/** Whether any process of the group `pid` leads is still running. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Signals the process group a detached daemon leads (its id is the daemon's pid); gone already is fine. */
function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group has ended
  }
}

// errors of node itself come from another realm under jest: recognise them by shape, not instanceof
function isErrorLike(error: unknown): error is { message: string; code?: unknown } {
  return typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string';
}

function isRefused(error: unknown): boolean {
  return isErrorLike(error) && (error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET');
}

/** Runs `start(port)` on a free port, retrying with another one when the port was taken meanwhile. */
export async function onFreePort<T>(freePort: () => Promise<number>, start: (port: number) => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start(await freePort());
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= attempts) throw error;
    }
  }
}
