/**
 * Benchmark settings from CLI arguments (`--rounds 3`, `--requests=5000`) or environment
 * (`BENCH_ROUNDS`, `BENCH_REQUESTS`, `BENCH_WARMUP`, `BENCH_CONCURRENCY`); CLI wins.
 *
 * @example
 * npm run bench -- --rounds 2 --requests 2000
 * BENCH_ROUNDS=2 BENCH_REQUESTS=2000 npm run bench
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
}

const DEFAULTS: BenchOptions = { rounds: 5, requests: 20_000, warmup: 3_000, concurrency: 32 };
const NAMES = ['rounds', 'requests', 'warmup', 'concurrency'] as const;

/** Parses `argv` (without node and script) and `env`; throws on unknown or non-positive values. */
export function parseOptions(argv: readonly string[], env: NodeJS.ProcessEnv): BenchOptions {
  const values: Record<string, number> = { ...DEFAULTS };
  for (const name of NAMES) {
    const fromEnv = env[`BENCH_${name.toUpperCase()}`];
    if (fromEnv !== undefined && fromEnv !== '') values[name] = toCount(name, fromEnv);
  }
  for (let i = 0; i < argv.length; i++) {
    const match = /^--([a-z]+)(?:=(.*))?$/.exec(argv[i]);
    const name = NAMES.find((n) => n === match?.[1]);
    if (!match || !name) throw new Error(`unknown argument '${argv[i]}' (known: ${NAMES.map((n) => `--${n} N`).join(', ')})`);
    values[name] = toCount(name, match[2] ?? argv[++i] ?? '');
  }
  return { rounds: values.rounds, requests: values.requests, warmup: values.warmup, concurrency: values.concurrency };
}

function toCount(name: string, text: string): number {
  const value = Number(text);
  // warm-up may be 0; everything else needs at least one
  const min = name === 'warmup' ? 0 : 1;
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got '${text}'`);
  return value;
}
