/**
 * Benchmark settings from CLI arguments (`--rounds 3`, `--requests=5000`, `--only axios,got`,
 * `--isolate`) or environment (`BENCH_ROUNDS`, `BENCH_REQUESTS`, `BENCH_WARMUP`,
 * `BENCH_CONCURRENCY`, `BENCH_ONLY`, `BENCH_ISOLATE=0`); CLI wins.
 *
 * @example
 * npm run bench -- --rounds 2 --requests 2000
 * BENCH_ROUNDS=2 BENCH_REQUESTS=2000 npm run bench
 * BENCH_ONLY=axios,got npm run bench   # those contenders, their raw counterparts and raw node:http
 * npm run bench -- --isolate=0         # all contenders in one process (default: one process per library contender)
 *
 * @module
 */

/** What one benchmark invocation does. */
export interface BenchOptions {
  /** Rounds; each runs every contender once, order rotated per round. */
  readonly rounds: number;
  /** Measured requests per contender per round. */
  readonly requests: number;
  /** Unmeasured requests per contender before round 1 (JIT, connection pool). */
  readonly warmup: number;
  /** Concurrent request loops. */
  readonly concurrency: number;
  /** Name fragments (case-insensitive) selecting contenders; empty = all. Counterparts and the baseline always come along. */
  readonly only: readonly string[];
  /**
   * One process per library contender (with its counterpart and the baseline) instead of all in
   * one (the default): code the backends share (the pipeline) then only ever sees one backend,
   * as in an application that uses one. See `isolate.ts`.
   */
  readonly isolate: boolean;
}

// 9 contenders × 9 rounds × 11,000 requests: about 3.5 minutes on the 2-core VM in one process,
// 4 isolated (the baseline runs in every process); the fastest run (raw node:http, up to 33k
// req/s) still lasts ≥ 0.3 s
const DEFAULTS: Omit<BenchOptions, 'only'> = { rounds: 9, requests: 11_000, warmup: 3_000, concurrency: 32, isolate: true };
const COUNTS = ['rounds', 'requests', 'warmup', 'concurrency'] as const;
const NAMES = [...COUNTS, 'only', 'isolate'] as const;

/** Parses `argv` (without node and script) and `env`; throws on unknown or non-positive values. */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const values: Record<(typeof COUNTS)[number], number> = { rounds: DEFAULTS.rounds, requests: DEFAULTS.requests, warmup: DEFAULTS.warmup, concurrency: DEFAULTS.concurrency };
  let only = toList(env.BENCH_ONLY ?? '');
  const isolateEnv = env.BENCH_ISOLATE ?? '';
  let isolate = isolateEnv === '' ? DEFAULTS.isolate : toFlag('BENCH_ISOLATE', isolateEnv);
  for (const name of COUNTS) {
    const fromEnv = env[`BENCH_${name.toUpperCase()}`];
    if (fromEnv !== undefined && fromEnv !== '') values[name] = toCount(name, fromEnv);
  }
  for (let i = 0; i < argv.length; i++) {
    const match = /^--([a-z]+)(?:=(.*))?$/.exec(argv[i]);
    const name = NAMES.find((n) => n === match?.[1]);
    if (!match || !name) throw new Error(`unknown argument '${argv[i]}' (known: ${COUNTS.map((n) => `--${n} N`).join(', ')}, --only a,b, --isolate)`);
    // a flag takes no separate value: `--isolate` or `--isolate=0`
    if (name === 'isolate') {
      isolate = match[2] === undefined || toFlag('--isolate', match[2]);
      continue;
    }
    const text = match[2] ?? argv[++i] ?? '';
    if (name === 'only') only = toList(text);
    else values[name] = toCount(name, text);
  }
  return { rounds: values.rounds, requests: values.requests, warmup: values.warmup, concurrency: values.concurrency, only, isolate };
}

function toCount(name: string, text: string): number {
  const value = Number(text);
  // warm-up may be 0; everything else needs at least one
  const min = name === 'warmup' ? 0 : 1;
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got '${text}'`);
  return value;
}

function toFlag(name: string, text: string): boolean {
  if (/^(?:0|false|no)$/i.test(text)) return false;
  if (/^(?:1|true|yes)$/i.test(text)) return true;
  throw new Error(`${name} must be 1/true/yes or 0/false/no, got '${text}'`);
}

function toList(text: string): string[] {
  return text
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '');
}
