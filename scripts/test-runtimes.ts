/**
 * `npm run test:runtimes`: the portable scenarios (spec/portable/scenarios.ts) on Node 20 (the
 * Node running this), Node 22 and 24, Bun and Deno, each on every backend, against the portable
 * server (spec/portable/server.ts) on 127.0.0.1. Installs the runtimes first when missing
 * (scripts/runtimes/install.ts), bundles the scenarios with the library's sources
 * (scripts/runtimes/bundle.ts), runs the runtimes one after the other (all backends in one
 * process each), prints a table, the failures, and a last line `N passed, N failed`; exits 1
 * on any failure. A backend a runtime cannot run (the undici backend on Bun) must refuse with a
 * ConfigError naming the runtime, as docs/runtimes.md says.
 *
 * Options: `--jest` also runs the portable subset of the jest suite ({@link JEST_SUBSET}) on
 * Node 22 and 24; `--only=Bun,Deno` runs those runtimes only (names, or labels such as `Node.js 22`).
 */
import { spawn } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SCENARIO_NAMES, type ScenarioResult } from '../spec/portable/scenarios.js';
import { startPortableServer } from '../spec/portable/server.js';
import { bundleScenarios } from './runtimes/bundle.js';
import { ensureRuntimes, runtimesFolder, type Runtime } from './runtimes/install.js';
import { failures, passedCount, table, type RuntimeRun } from './runtimes/report.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const BACKENDS = ['native', 'undici', 'axios', 'got', 'fetch'] as const;
/** What each runtime cannot run, as docs/runtimes.md lists it: a ConfigError naming the runtime is the pass. */
const UNSUPPORTED: Readonly<Record<string, readonly string[]>> = { Bun: ['undici'] };
/** The part of the jest suite that runs on Node 22 and 24 with `--jest` (docs/runtimes.md names it). */
export const JEST_SUBSET = ['spec/unit', 'spec/conformance/alpha.spec.ts'];
const RUNTIME_LIMIT_MS = 120_000;
const JEST_LIMIT_MS = 300_000;

interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/** Runs a command to its end (or kills it, by its own id, after `limit` ms). */
function runCommand(command: readonly string[], cwd: string, limit: number, env: NodeJS.ProcessEnv = process.env): Promise<Finished> {
  return new Promise((done, fail) => {
    const child = spawn(command[0], command.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, limit);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr, timedOut });
    });
  });
}

function label(runtime: Runtime): string {
  return runtime.name === 'Node.js' ? `Node.js ${runtime.version.split('.')[0]}` : runtime.name;
}

async function runScenariosOn(runtime: Runtime, entry: string, folder: string, base: string): Promise<RuntimeRun> {
  const refused = UNSUPPORTED[runtime.name] ?? [];
  const backends = BACKENDS.map((backend) => (refused.includes(backend) ? `${backend}!` : backend));
  const expected = new Map(BACKENDS.map((backend) => [backend, refused.includes(backend) ? 1 : SCENARIO_NAMES.length]));
  const env = { ...process.env, NO_COLOR: '1', DO_NOT_TRACK: '1', DENO_NO_UPDATE_CHECK: '1', DENO_DIR: join(runtimesFolder(ROOT), 'deno-dir') };
  const started = Date.now();
  const finished = await runCommand([...runtime.command, entry, base, runtime.name, ...backends], folder, RUNTIME_LIMIT_MS, env);
  const results: ScenarioResult[] = [];
  for (const line of finished.stdout.split('\n')) if (line.startsWith('{')) results.push(JSON.parse(line) as ScenarioResult);
  const problem = finished.timedOut
    ? `did not exit within ${RUNTIME_LIMIT_MS / 1000} s (a client left open?)`
    : finished.code !== 0
      ? `exited with ${finished.code}: ${finished.stderr.trim().slice(-2000)}`
      : undefined;
  return { label: `${label(runtime)} (${runtime.version})`, results, expected, problem, ms: Date.now() - started };
}

/** The jest subset on one Node: its passed and failed test counts (a run that reports none counts one failure). */
async function runJestOn(runtime: Runtime): Promise<{ passed: number; failed: number; summary: string }> {
  const jest = join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js');
  const command = [...runtime.command, '--experimental-vm-modules', '--disable-warning=ExperimentalWarning', jest, ...JEST_SUBSET];
  const finished = await runCommand(command, ROOT, JEST_LIMIT_MS);
  const output = finished.stdout + finished.stderr;
  const tests = /^Tests:\s+(.*)$/m.exec(output)?.[1] ?? '';
  const count = (what: string) => Number(new RegExp(`(\\d+) ${what}`).exec(tests)?.[1] ?? 0);
  const [passed, failed] = [count('passed'), count('failed')];
  if (finished.code !== 0 || failed > 0 || passed === 0) {
    console.log(output.trim().slice(-6000));
    return { passed, failed: Math.max(failed, 1), summary: `${label(runtime)}: jest ${JEST_SUBSET.join(' ')}: FAILED (${tests || `exit ${finished.code}`})` };
  }
  return { passed, failed, summary: `${label(runtime)}: jest ${JEST_SUBSET.join(' ')}: ${tests}` };
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  const only = args
    .find((arg) => arg.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  const started = Date.now();
  const runtimes = (await ensureRuntimes(ROOT, (line) => console.log(line))).filter(
    (runtime) => !only || only.includes(runtime.name) || only.includes(label(runtime)),
  );
  const bundle = await bundleScenarios(ROOT);
  const server = await startPortableServer();
  const runs: RuntimeRun[] = [];
  try {
    for (const runtime of runtimes) {
      const run = await runScenariosOn(runtime, bundle.entry, bundle.folder, server.url);
      console.log(`${run.label}: ${passedCount(run)} passed, ${failures(run).length} failed in ${(run.ms / 1000).toFixed(1)} s`);
      runs.push(run);
    }
  } finally {
    await server.close();
    await bundle.remove();
  }
  let passed = runs.reduce((sum, run) => sum + passedCount(run), 0);
  let failed = runs.reduce((sum, run) => sum + failures(run).length, 0);
  console.log(`\n${table(runs, BACKENDS)}\n`);
  if (args.includes('--jest')) {
    for (const runtime of runtimes.filter((runtime) => runtime.name === 'Node.js' && runtime.version !== process.versions.node)) {
      const jest = await runJestOn(runtime);
      console.log(jest.summary);
      passed += jest.passed;
      failed += jest.failed;
    }
  }
  console.log(`runtimes: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
