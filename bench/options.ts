/**
 * The options of `npm run bench`: `--name value` or `--name=value` (docs/performance.md, "Reproduce").
 *
 * @example
 * npm run bench -- --scenarios a,b --only fetch --processes 12
 *
 * @module
 */
import { fileURLToPath } from 'node:url';
import { OPT_IN_SCENARIOS, SCENARIO_IDS, type ScenarioId } from './scenarios.js';
import { MAX_SEED } from './schedule.js';

/** What one invocation does, option by option. */
export interface BenchOptions {
  /** Scenarios to run; a previous report's results for the others are kept. */
  readonly scenarios: readonly ScenarioId[];
  /** Name fragments (case-insensitive) selecting contenders; empty = all. Counterparts and the baseline always come along. */
  readonly only: readonly string[];
  /** Rounds per process in the request scenarios; rounds of the transfer scenarios. */
  readonly rounds: number;
  /** Processes per group of contenders in the request scenarios, one after another, their rounds pooled. */
  readonly processes: number;
  /** Measured requests per contender and round. */
  readonly requests: number;
  /** Bytes per transfer. */
  readonly transferSize: number;
  /** Seeds the shuffled order of the turns; a fresh one unless given (the report names it, so a schedule can be repeated). */
  readonly seed: number;
  /** Where `latest.md` and `latest.json` go. */
  readonly out: string;
  /** Requests of the soak, scenario (m). */
  readonly soak: number;
}

// per group 3 processes × 3 rounds × 11,000 requests: about 12.5 minutes on a 2-core VM for (a)
// and (b), about 1 more for (e); 3 rounds of 256 MiB transfers, about 2.5 minutes more; (j) and
// (l) a minute or two each; (k) and (m) only when named (OPT_IN_SCENARIOS)
const DEFAULTS: Omit<BenchOptions, 'seed'> = {
  scenarios: SCENARIO_IDS.filter((id) => !OPT_IN_SCENARIOS.includes(id)),
  only: [],
  rounds: 3,
  processes: 3,
  requests: 11_000,
  transferSize: 256 * 2 ** 20,
  out: fileURLToPath(new URL('./results/', import.meta.url)),
  soak: 500_000,
};

const USAGE = `--scenarios ${SCENARIO_IDS.join(',')}  --only name,...  --rounds N  --processes N  --requests N  --transfer-size 256MiB  --seed N  --out DIR  --soak N`;

/** Parses `argv` (without node and script); throws on unknown options and bad values. */
export function parseOptions(argv: readonly string[]): BenchOptions {
  const options: { -readonly [K in keyof BenchOptions]: BenchOptions[K] } = { ...DEFAULTS, seed: Math.floor(Math.random() * (MAX_SEED + 1)) };
  for (let i = 0; i < argv.length; i++) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(argv[i]);
    if (!match) throw new Error(`unknown argument '${argv[i]}' (options: ${USAGE})`);
    const [, name, inline] = match;
    const text = inline ?? argv[++i] ?? '';
    if (name === 'scenarios') options.scenarios = toScenarios(text);
    else if (name === 'only') options.only = toList(text);
    else if (name === 'rounds' || name === 'processes' || name === 'requests' || name === 'soak') options[name] = toCount(name, text, 1);
    else if (name === 'transfer-size') options.transferSize = parseSize(text);
    else if (name === 'seed') options.seed = toCount(name, text, 0, MAX_SEED);
    else if (name === 'out') options.out = text;
    else throw new Error(`unknown option --${name} (options: ${USAGE})`);
  }
  return options;
}

function toCount(name: string, text: string, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) throw new Error(`--${name} must be a whole number from ${min} to ${max}, got '${text}'`);
  return value;
}

function toScenarios(text: string): ScenarioId[] {
  const ids = toList(text).map((id) => id.toLowerCase());
  if (ids.length === 0 || ids.some((id) => !(SCENARIO_IDS as readonly string[]).includes(id)))
    throw new Error(`--scenarios must be a list of ${SCENARIO_IDS.join(', ')}, got '${text}'`);
  return SCENARIO_IDS.filter((id) => ids.includes(id));
}

const toList = (text: string): string[] => text.split(',').flatMap((word) => (word.trim() === '' ? [] : [word.trim()]));

const UNITS: Readonly<Record<string, number>> = { '': 1, k: 2 ** 10, m: 2 ** 20, g: 2 ** 30 };

/** A size as people write it (`256MiB`, `1GiB`, `512k`, a byte count): binary units, `MB` and `GB` read as MiB and GiB too. */
export function parseSize(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?\s*$/i.exec(text);
  const bytes = match ? Number(match[1]) * UNITS[match[2].toLowerCase()] : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new Error(`--transfer-size must be like 256MiB, 1GiB or a byte count, got '${text}'`);
  return bytes;
}
