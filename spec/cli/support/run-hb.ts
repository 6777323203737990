import { spawn, type StdioOptions } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

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
  /** What stdin is (default /dev/null): see {@link StdinSpec}. */
  readonly stdin?: StdinSpec;
}

/**
 * A stdin for the child, as users give one: `fifo` a shell pipe (`cat file | hb ...`), `socket`
 * what node's child_process gives (`data` written and ended; without `data` left open and
 * silent, as GitHub Actions leaves every step's stdin), `file` a redirected file (`hb ... < file`).
 */
export interface StdinSpec {
  readonly through: 'fifo' | 'socket' | 'file';
  readonly data?: string | Buffer;
}

/** A copy of this process's environment without the variables that change `hb`'s colours. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  if (!('NO_COLOR' in extra)) delete env.NO_COLOR;
  delete env.FORCE_COLOR;
  return env;
}

/**
 * Runs `node <cli> ...args` as a child process with stdin /dev/null (or `options.stdin`) and
 * stdout/stderr piped (so stdout is not a terminal). Asynchronous on purpose: the test server lives in this process
 * and must keep answering while the child runs.
 */
export function runHb(cli: string, args: readonly string[], options: RunOptions = {}): Promise<HbResult> {
  const { stdin } = options;
  // a fifo or a file is fed from a file of the data
  const folder = stdin !== undefined && stdin.through !== 'socket' ? mkdtempSync(join(tmpdir(), 'hb-stdin-')) : undefined;
  const dataFile = folder === undefined ? '' : join(folder, 'stdin');
  if (folder !== undefined) writeFileSync(dataFile, stdin?.data ?? '');
  const fd = stdin?.through === 'file' ? openSync(dataFile, 'r') : undefined;
  const stdio: StdioOptions = [stdin?.through === 'socket' ? 'pipe' : (fd ?? 'ignore'), 'pipe', 'pipe'];
  // sh -c 'cat "$0" | exec "$@"' FILE node cli args...: hb reads a real pipe (a FIFO), as from a shell
  const [command, argv] =
    stdin?.through === 'fifo' ? ['sh', ['-c', 'cat "$0" | exec "$@"', dataFile, process.execPath, cli, ...args]] : [process.execPath, [cli, ...args]];
  return new Promise<HbResult>((resolve, reject) => {
    const child = spawn(command, argv, { cwd: options.cwd, env: cleanEnv(options.env), stdio, timeout: options.timeout ?? 20_000 });
    // hb may close its stdin before taking all of it (when it refuses it): that is no failure here
    child.stdin?.on('error', () => {});
    if (stdin?.through === 'socket' && stdin.data !== undefined) child.stdin?.end(stdin.data);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') }));
    options.started?.(child);
  }).finally(() => {
    if (fd !== undefined) closeSync(fd);
    if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
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
