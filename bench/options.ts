/**
 * Benchmark settings from CLI arguments (`--rounds 3`, `--requests=5000`, `--slices 11`, `--only axios,got`,
 * `--isolate`, `--processes 3`, `--seed 42`, `--scenarios b,c,d`, `--transfer-size 1GiB`, `--transfer-rounds 3`) or environment
 * (`BENCH_ROUNDS`, `BENCH_REQUESTS`, `BENCH_SLICES`, `BENCH_WARMUP`, `BENCH_PROCESSES`, `BENCH_SEED`, `BENCH_CONCURRENCY`, `BENCH_ONLY`,
 * `BENCH_ISOLATE=0`, `BENCH_SCENARIOS`, `BENCH_TRANSFER_SIZE`, `BENCH_TRANSFER_ROUNDS`); CLI wins.
 *
 * @example
 * npm run bench -- --rounds 2 --requests 2000
 * BENCH_ROUNDS=2 BENCH_REQUESTS=2000 npm run bench
 * BENCH_ONLY=axios,got npm run bench   # those contenders, their raw counterparts and raw node:http
 * npm run bench -- --isolate=0         # all contenders in one process, of rounds × processes rounds (default: 3 processes per library contender)
 * npm run bench -- --scenarios c,d --transfer-size=1GiB --transfer-rounds 1   # only the transfers, 1 GiB each
 *
 * @module
 */
import { MAX_SEED, newSeed } from './schedule.js';
import { parseSize } from './transfer/size.js';

/** What one benchmark invocation does. */
export interface BenchOptions {
  /** Rounds per process; each runs every contender once, in slices taking turns in a shuffled order. */
  readonly rounds: number;
  /** Measured requests per contender per round. */
  readonly requests: number;
  /**
   * Each round's run of a contender is cut into this many slices, the contenders' slices taking
   * turns: a shared VM's speed drifts by 10-20% within seconds, and a ratio between runs seconds
   * apart measures that drift as much as the code. Slices a second or less apart share it.
   */
  readonly slices: number;
  /** Unmeasured requests per contender in each process, before its first round (JIT, connection pool). */
  readonly warmup: number;
  /**
   * With `isolate`: processes per group, one after another, each of `rounds` rounds; their rounds
   * are pooled (3 × 3 by default, as JMH forks a JVM several times). A process settles into its
   * own garbage-collector timing and JIT decisions for minutes: the same code read 1.02 in one
   * and 1.11 in the next (docs/performance.md, "After midnight"), a difference more rounds in one
   * process do not average out. Without `isolate` it is 1: the one process runs
   * `rounds × processes` rounds, as many as an isolated group does.
   */
  readonly processes: number;
  /**
   * Seeds the order the contenders' slices take turns in, shuffled afresh for every slice so
   * that no period of the schedule lines up with the garbage collector's (`schedule.ts`). A
   * fresh one per run unless given; the report names it, so a schedule can be run again.
   */
  readonly seed: number;
  /** Concurrent request loops. */
  readonly concurrency: number;
  /** Name fragments (case-insensitive) selecting contenders; empty = all. Counterparts and the baseline always come along. */
  readonly only: readonly string[];
  /**
   * One process per library contender (with its counterpart and the baseline; the default)
   * instead of all in one: code the backends share (the pipeline) then only ever sees one backend,
   * as in an application that uses one. See `isolate.ts`.
   */
  readonly isolate: boolean;
  /** Scenario ids to run (`a`, `b`, `c`, `d`); the results of the others are kept from the previous `latest.json`. */
  readonly scenarios: readonly string[];
  /** Bytes per transfer in scenarios (c) and (d) (`256MiB`, `1GiB`, or a byte count). */
  readonly transferSize: number;
  /** Rounds of the transfer scenarios (each transfer runs in a fresh process, see `transfer/runner.ts`). */
  readonly transferRounds: number;
}

/** Every scenario id, in run order. */
export const SCENARIO_IDS = ['a', 'b', 'c', 'd'] as const;

// 10 contenders; per group 3 processes × 3 rounds (see BenchOptions.processes) × 11,000 requests:
// about 12.5 minutes on the 2-core VM (754 s; the baseline runs in every process). 11 slices of
// 1,000 requests: a slice of the slowest contender lasts about half a second here, the fastest
// (raw node:http, up to 33k req/s) still 30 ms, far above the microseconds process.cpuUsage()
// resolves. Transfers: 8 contenders × 2 scenarios × 3 rounds of 256 MiB,
// about 2 minutes (issue #7 asks for 256 MiB; --transfer-size=1GiB for issue #5's run)
const DEFAULTS: Omit<BenchOptions, 'only' | 'seed'> = {
  rounds: 3,
  requests: 11_000,
  slices: 11,
  warmup: 3_000,
  processes: 3,
  concurrency: 32,
  isolate: true,
  scenarios: SCENARIO_IDS,
  transferSize: 256 * 2 ** 20,
  transferRounds: 3,
};
const COUNTS = ['rounds', 'requests', 'slices', 'warmup', 'processes', 'seed', 'concurrency', 'transfer-rounds'] as const;
const NAMES = [...COUNTS, 'only', 'isolate', 'scenarios', 'transfer-size'] as const;

type Count = (typeof COUNTS)[number];

/**
 * The seed alone: `BENCH_SEED`, or a fresh one. For the block tools, which take no other bench
 * option (parsing them all would fail on a setting they never use).
 *
 * @example
 * const random = seededRandom(seedFrom(process.env));
 */
export function seedFrom(env: NodeJS.ProcessEnv): number {
  const text = env.BENCH_SEED;
  return text === undefined || text === '' ? newSeed() : toCount('seed', text);
}

/**
 * Takes `--name N` out of `args` (for the bench's side tools, whose other arguments are names and flags): N, or `fallback` when absent.
 *
 * @example
 * const rounds = takeCount(args, 'rounds', 40);
 */
export function takeCount(args: string[], name: string, fallback: number): number {
  const at = args.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const value = Number(args.splice(at, 2)[1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} must be a whole number above 0`);
  return value;
}

/** Parses `argv` (without node and script) and `env`; throws on unknown or non-positive values. */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const values: Record<Count, number> = {
    rounds: DEFAULTS.rounds,
    requests: DEFAULTS.requests,
    slices: DEFAULTS.slices,
    warmup: DEFAULTS.warmup,
    processes: DEFAULTS.processes,
    seed: newSeed(),
    concurrency: DEFAULTS.concurrency,
    'transfer-rounds': DEFAULTS.transferRounds,
  };
  let only = toList(env.BENCH_ONLY ?? '');
  const isolateEnv = env.BENCH_ISOLATE ?? '';
  let isolate = isolateEnv === '' ? DEFAULTS.isolate : toFlag('BENCH_ISOLATE', isolateEnv);
  let scenarios = env.BENCH_SCENARIOS ? toScenarios(env.BENCH_SCENARIOS) : DEFAULTS.scenarios;
  let transferSize = env.BENCH_TRANSFER_SIZE ? parseSize(env.BENCH_TRANSFER_SIZE) : DEFAULTS.transferSize;
  for (const name of COUNTS) {
    const fromEnv = env[`BENCH_${name.toUpperCase().replace('-', '_')}`];
    if (fromEnv !== undefined && fromEnv !== '') values[name] = toCount(name, fromEnv);
  }
  for (let i = 0; i < argv.length; i++) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    const name = NAMES.find((n) => n === match?.[1]);
    if (!match || !name) {
      throw new Error(`unknown argument '${argv[i]}' (known: ${COUNTS.map((n) => `--${n} N`).join(', ')}, --only a,b, --isolate, --scenarios a,b,c,d, --transfer-size 256MiB)`);
    }
    // a flag takes no separate value: `--isolate` or `--isolate=0`
    if (name === 'isolate') {
      isolate = match[2] === undefined || toFlag('--isolate', match[2]);
      continue;
    }
    const text = match[2] ?? argv[++i] ?? '';
    if (name === 'only') only = toList(text);
    else if (name === 'scenarios') scenarios = toScenarios(text);
    else if (name === 'transfer-size') transferSize = parseSize(text);
    else values[name] = toCount(name, text);
  }
  return {
    // in one process, as many rounds as an isolated group runs in all its processes
    rounds: isolate ? values.rounds : values.rounds * values.processes,
    requests: values.requests,
    slices: Math.min(values.slices, values.requests),
    warmup: values.warmup,
    processes: isolate ? values.processes : 1,
    seed: values.seed,
    concurrency: values.concurrency,
    only,
    isolate,
    scenarios,
    transferSize,
    transferRounds: values['transfer-rounds'],
  };
}

function toCount(name: string, text: string): number {
  const value = Number(text);
  // warm-up and seed may be 0; everything else needs at least one
  const min = name === 'warmup' || name === 'seed' ? 0 : 1;
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got '${text}'`);
  if (name === 'seed' && value > MAX_SEED) throw new Error(`seed must be at most ${MAX_SEED} (32 bits), got '${text}'`);
  return value;
}

function toFlag(name: string, text: string): boolean {
  if (/^(?:0|false|no)$/i.test(text)) return false;
  if (/^(?:1|true|yes)$/i.test(text)) return true;
  throw new Error(`${name} must be 1/true/yes or 0/false/no, got '${text}'`);
}

function toScenarios(text: string): string[] {
  const ids = toList(text).map((id) => id.toLowerCase());
  const unknown = ids.filter((id) => !(SCENARIO_IDS as readonly string[]).includes(id));
  if (ids.length === 0 || unknown.length > 0) throw new Error(`scenarios must be a list of ${SCENARIO_IDS.join(', ')}, got '${text}'`);
  return SCENARIO_IDS.filter((id) => ids.includes(id));
}

function toList(text: string): string[] {
  return text
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '');
}
