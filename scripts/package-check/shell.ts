/** What the steps of the packaging check (scripts/check-package.ts) share: reporting, checking and running commands. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** A check that did not hold: its message is the whole report (no stack). */
export class CheckFailed extends Error {}

const started = Date.now();

/** Says what the check does now, and how long the check has run (CI gives it five minutes). */
export function step(text: string): void {
  console.log(`check-package: ${text} (at ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}

export function check(condition: boolean, message: string): asserts condition {
  if (!condition) throw new CheckFailed(message);
}

/** Runs a command; on failure the error carries its whole output. Resolves to stdout. */
export async function sh(command: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): Promise<string> {
  try {
    const { stdout } = await execFileAsync(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: 300_000 });
    return stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new CheckFailed(`\`${[command, ...args].join(' ')}\` failed in ${cwd}\n--- stdout\n${stdout}\n--- stderr\n${stderr}`);
  }
}
