/**
 * Scenario (i), cold start: what a fresh process pays to load the package, the cost a script that
 * runs `hb` in a loop, a CLI or a serverless function pays on every start. The package is packed
 * (`npm pack` of the `dist/` the bench just built) and installed in a fresh folder with ky and
 * axios (the versions of this repository) as references; then, in rounds taking the cases in a
 * shuffled order, each case runs in a new process: a bare `node -e 0`, `await import()` of
 * httpbuilder-ts, ky and axios, and the installed `hb --version` and `hb --help`. The figure is
 * the CPU of the whole process (user + system, `process.cpuUsage()` read at exit by a preloaded
 * CommonJS file, bootstrap included), median of the rounds; the import's cost is the median of
 * each round's difference with that round's bare start (paired: a round the machine ran slow
 * moves both, where a median of each alone could pick a slow bare start and a fast import). A last run of each import counts the ES modules and `node:` built-ins it loads
 * (a loader hook; CommonJS files a package `require()`s are not seen).
 *
 * Run it alone with `npm run bench -- --scenarios i`.
 *
 * @module
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { derivedSeed, seededRandom, shuffled } from './schedule.js';
import { fmt } from './tables.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ROUNDS = 21;
/** The targets of issue #44: the import at most this many ms above a bare start, `hb --version` at most this many bare starts. */
export const COLD_START_TARGETS = { importMs: 60, versionRatio: 1.5 } as const;

/** One way of starting node: the arguments after `node`; `countModules` for an import, whose modules are counted. */
interface Case {
  readonly name: string;
  readonly args: readonly string[];
  readonly countModules?: boolean;
}

const importOf = (name: string): Case => ({ name: `import('${name}')`, args: ['--input-type=module', '-e', `await import('${name}')`], countModules: true });
const HB = ['node_modules/httpbuilder-ts/dist/cli.js'];
const CASES: readonly Case[] = [
  { name: 'node -e 0 (bare start)', args: ['-e', '0'] },
  importOf('httpbuilder-ts'),
  { name: 'hb --version', args: [...HB, '--version'] },
  { name: 'hb --help', args: [...HB, '--help'] },
  importOf('ky'),
  importOf('axios'),
];

/** One case's figures. */
export interface ColdStartRow {
  readonly name: string;
  /** Median CPU ms of the whole process. */
  readonly cpuMs: number;
  readonly minMs: number;
  readonly maxMs: number;
  /** Median over the rounds of this case's CPU minus the bare start's in the same round, and of their ratio. */
  readonly aboveBare?: { readonly ms: number; readonly ratio: number };
  /** ES modules (`file:`) and built-ins (`node:`) loaded, for the imports. */
  readonly modules?: { readonly files: number; readonly builtins: number };
}

/** What scenario (i) found, as `latest.json` keeps it. */
export interface ColdStartReport {
  readonly date: string;
  readonly title: string;
  readonly rows: readonly ColdStartRow[];
}

const TITLE = `cold start: CPU ms of a new process (user + system, bootstrap included), median of ${ROUNDS} rounds, from the packed package in a fresh folder; information only`;

// read at exit: the process's CPU so far, bootstrap included (getrusage of the process)
const CPU_PRELOAD = `process.on('exit', () => { const u = process.cpuUsage(); require('node:fs').writeFileSync(process.env.COLD_START_OUT, String((u.user + u.system) / 1000)); });\n`;
// counts what the ESM loader loads; appended line by line, as the hooks run off the main thread
const COUNT_HOOKS = `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(process.env.COLD_START_TRACE, url + '\\n'); return next(url, context); }\n`;
const COUNT_PRELOAD = `import { register } from 'node:module';\nregister(new URL('./count-hooks.mjs', import.meta.url));\n`;

/** Runs scenario (i); `seed` shuffles the order of the cases in each round. */
export function runColdStartScenario(date: string, seed: number): ColdStartReport {
  const folder = mkdtempSync(join(tmpdir(), 'httpbuilder-cold-start-'));
  try {
    install(folder);
    writeFileSync(join(folder, 'cpu.cjs'), CPU_PRELOAD);
    writeFileSync(join(folder, 'count-hooks.mjs'), COUNT_HOOKS);
    writeFileSync(join(folder, 'count.mjs'), COUNT_PRELOAD);
    const samples = CASES.map(() => [] as number[]);
    const random = seededRandom(derivedSeed(seed, 'cold-start'));
    const indices = CASES.map((_, i) => i);
    // one unmeasured round: the page cache holds every file before the first measured one
    for (let round = 0; round <= ROUNDS; round++) {
      console.log(`scenario (i): round ${round}${round === 0 ? ' (warm-up)' : ''}`);
      for (const i of shuffled(indices, random)) {
        const ms = cpuOf(folder, CASES[i]);
        if (round > 0) samples[i].push(ms);
      }
    }
    const bare = samples[0];
    const rows = CASES.map((c, i): ColdStartRow => {
      const sorted = [...samples[i]].sort((a, b) => a - b);
      const aboveBare = { ms: median(samples[i].map((ms, round) => ms - bare[round])), ratio: median(samples[i].map((ms, round) => ms / bare[round])) };
      const row = { name: c.name, cpuMs: sorted[sorted.length >> 1], minMs: sorted[0], maxMs: sorted[sorted.length - 1], aboveBare };
      return c.countModules ? { ...row, modules: modulesOf(folder, c) } : row;
    });
    return { date, title: TITLE, rows };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function median(values: readonly number[]): number {
  return [...values].sort((a, b) => a - b)[values.length >> 1];
}

/** The package as `npm pack` makes it from the `dist/` just built, and ky and axios as this repository has them. */
function install(folder: string): void {
  console.log(`scenario (i): npm pack, npm install in ${folder}`);
  const run = (args: string[], cwd: string) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  // --ignore-scripts: the bench built dist/ already (prepack would clean and build it again, CommonJS too)
  const [packed] = JSON.parse(run(['pack', '--json', '--ignore-scripts', '--pack-destination', folder], ROOT)) as Array<{ filename: string }>;
  const version = (name: string) => (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  writeFileSync(join(folder, 'package.json'), JSON.stringify({ name: 'cold-start', private: true, type: 'module' }));
  run(['install', '--prefer-offline', '--no-audit', '--no-fund', join(folder, packed.filename), `ky@${version('ky')}`, `axios@${version('axios')}`], folder);
}

/** The CPU ms of one run of `c` in `folder`. */
function cpuOf(folder: string, c: Case): number {
  const out = join(folder, 'cpu.txt');
  execFileSync(process.execPath, ['--require', join(folder, 'cpu.cjs'), ...c.args], {
    cwd: folder,
    stdio: 'ignore',
    env: { ...process.env, COLD_START_OUT: out },
  });
  return Number(readFileSync(out, 'utf8'));
}

/** The ES modules and built-ins one run of `c` loads (the counting hooks' own module left out). */
function modulesOf(folder: string, c: Case): { files: number; builtins: number } {
  const trace = join(folder, 'trace.txt');
  writeFileSync(trace, '');
  execFileSync(process.execPath, ['--import', join(folder, 'count.mjs'), ...c.args], {
    cwd: folder,
    stdio: 'ignore',
    env: { ...process.env, COLD_START_TRACE: trace },
  });
  const urls = readFileSync(trace, 'utf8')
    .split('\n')
    .filter((url) => url !== '' && !url.startsWith('data:'));
  return { files: urls.filter((url) => url.startsWith('file:')).length, builtins: urls.filter((url) => url.startsWith('node:')).length };
}

/** The report's table of scenario (i): a row per case, with the targets' verdicts on theirs. */
export function coldStartRows(report: ColdStartReport): string[][] {
  const bare = report.rows[0].cpuMs;
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const rows = report.rows.map((r) => {
    // reports written before the paired figures: the medians' difference
    const above = r.aboveBare?.ms ?? r.cpuMs - bare;
    const ratio = r.aboveBare?.ratio ?? r.cpuMs / bare;
    const target =
      r.name === "import('httpbuilder-ts')"
        ? `≤ +${COLD_START_TARGETS.importMs} ms: ${verdict(above <= COLD_START_TARGETS.importMs)}`
        : r.name === 'hb --version'
          ? `≤ ${COLD_START_TARGETS.versionRatio}×: ${verdict(ratio <= COLD_START_TARGETS.versionRatio)}`
          : '—';
    const modules = r.modules ? `${r.modules.files} + ${r.modules.builtins} node:` : '—';
    return [r.name, fmt(r.cpuMs, 1), `${fmt(r.minMs, 1)}–${fmt(r.maxMs, 1)}`, r === report.rows[0] ? '—' : `+${fmt(above, 1)}`, fmt(ratio, 2), modules, target];
  });
  return [['case', 'CPU ms (median)', 'min–max', '− bare start (paired)', '÷ bare start (paired)', 'modules loaded', 'target'], ...rows];
}
