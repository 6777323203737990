import { spawn } from 'node:child_process';

/** What one run of the `hb` binary produced. */
export interface HbResult {
  /** The exit code (`null` when killed by a signal). */
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** stdout exactly as written. */
  readonly stdout: Buffer;
  readonly stderr: string;
}

/** Options of {@link runHb}. */
export interface RunOptions {
  /** Extra environment variables (the rest is this process's environment, less NO_COLOR/FORCE_COLOR). */
  readonly env?: Record<string, string>;
  readonly cwd?: string;
  /** Kill the child after this many ms (the test then fails on the signal). Default 20 s. */
  readonly timeout?: number;
  /** Called once the child has started, e.g. to interrupt it. */
  readonly started?: (child: ReturnType<typeof spawn>) => void;
}

/** A copy of this process's environment without the variables that change `hb`'s colours. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  if (!('NO_COLOR' in extra)) delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  return env;
}

/**
 * Runs `node <cli> ...args` as a child process with stdin closed and stdout/stderr piped (so
 * stdout is not a terminal). Asynchronous on purpose: the test server lives in this process
 * and must keep answering while the child runs.
 */
export function runHb(cli: string, args: readonly string[], options: RunOptions = {}): Promise<HbResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: options.cwd,
      env: cleanEnv(options.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeout ?? 20_000,
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }));
    options.started?.(child);
  });
}

/** Quotes `arg` for a POSIX shell. */
export function shellQuote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * Runs `node <cli> ...args` inside a real pseudo-terminal (util-linux `script`), so that both
 * stdout and stderr are TTYs, as when a person types the command. Resolves to everything the
 * terminal showed (stdout and stderr interleaved, line ends as `\r\n`) and the exit code.
 */
export function runHbInTerminal(cli: string, args: readonly string[], options: RunOptions = {}): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, cli, ...args].map(shellQuote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], {
      cwd: options.cwd,
      env: cleanEnv({ TERM: 'xterm-256color', ...options.env }),
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: options.timeout ?? 20_000,
    });
    const out: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => out.push(chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, screen: Buffer.concat(out).toString('utf8') }));
  });
}
