import fc from 'fast-check';
import { performance } from 'node:perf_hooks';
import { hostileUnit } from './fuzz-kit.js';

/**
 * The ReDoS check of spec/fuzz: a parser must take linear time on inputs built to make a
 * backtracking or rescanning parser go quadratic or worse. No absolute budget (a loaded CI
 * machine reads any figure late): the time for an input of {@link LARGE} characters is compared
 * with the time for the same shape at {@link SMALL}, measured side by side, so load slows both
 * alike. For 10× the input a linear parser takes about 10× as long, a quadratic one 100×.
 */

/** A ReDoS-style input: a prefix, one short unit pumped to the size wanted, a suffix. */
export interface Pumped {
  readonly prefix: string;
  readonly pump: string;
  readonly suffix: string;
}

/** An input's shape: a {@link Pumped}, or a function giving the input of about `size` characters. */
export type Shape = Pumped | ((size: number) => string);

/**
 * The sizes compared, 10× apart. Small enough that no input or output string crosses V8's
 * large-object size, where allocation and GC make a linear parser look 2-4× superlinear (at
 * 5 KB vs 50 KB, linear parsers measured up to 40×; at these sizes, 20× at most).
 */
export const SMALL = 1_000;
export const LARGE = 10_000;

/** Above this, time grew faster than the input: a linear parser takes about 10× as long (LARGE / SMALL), a quadratic one 100×. */
export const MOST_GROWTH = 30;

/** `shape` at about `size` characters. */
export function sized(shape: Shape, size: number): string {
  if (typeof shape === 'function') return shape(size);
  const { prefix, pump, suffix } = shape;
  return prefix + pump.repeat(Math.ceil(size / pump.length)) + suffix;
}

/** Generated {@link Pumped} inputs: prefix, unit and suffix made of `fragments` and hostile code units. */
export function pumped(fragments: readonly string[]): fc.Arbitrary<Pumped> {
  const piece = hostileUnit(fragments);
  return fc
    .tuple(fc.array(piece, { maxLength: 4 }), fc.array(piece, { minLength: 1, maxLength: 3 }), fc.array(piece, { maxLength: 4 }))
    .map(([prefix, unit, suffix]) => ({ prefix: prefix.join(''), pump: unit.join(''), suffix: suffix.join('') }));
}

/** Hand-picked {@link Pumped} inputs, as `[prefix, pump, suffix]`. */
export function pathological(triples: ReadonlyArray<readonly [prefix: string, pump: string, suffix: string]>): Pumped[] {
  return triples.map(([prefix, pump, suffix]) => ({ prefix, pump, suffix }));
}

/** Samples of each size at most, and at least before a pass is believed. */
const MOST_SAMPLES = 30;
const LEAST_SAMPLES = 3;

/** Sampling stops after this long (a superlinear parser's large input can take seconds a call): what was measured decides. */
const SAMPLING_MS = 2_000;

/**
 * Fails unless `parse` takes linear time on `shape`: the time of a call on the {@link LARGE}
 * input over the time of a call on the {@link SMALL} input must stay within {@link MOST_GROWTH}.
 * Each time is the fastest of single calls sampled in turns (small, large, small, ...): load, a
 * GC pause or a JIT pass only ever add time, so the fastest call is the parser's own cost, and
 * taking turns exposes both sizes to the same machine. It passes as soon as the fastest calls
 * (after {@link LEAST_SAMPLES} each) say linear. `parse` may return a promise (awaited); what it
 * returns is not looked at (assert in `parse`), and what it throws fails the check.
 *
 * @example
 * await fc.assert(fc.asyncProperty(pumped(['; ', '=']), (shape) => expectLinear(parseSetCookie, shape)), runs(40));
 */
export async function expectLinear(parse: (input: string) => unknown, shape: Shape): Promise<void> {
  const small = sized(shape, SMALL);
  const large = sized(shape, LARGE);
  let smallBest = Infinity;
  let largeBest = Infinity;
  const start = performance.now();
  for (let samples = 1; samples <= MOST_SAMPLES; samples++) {
    smallBest = Math.min(smallBest, await oneCall(parse, small));
    largeBest = Math.min(largeBest, await oneCall(parse, large));
    if (samples >= LEAST_SAMPLES && largeBest <= smallBest * MOST_GROWTH) return;
    if (performance.now() - start > SAMPLING_MS) break;
  }
  if (largeBest <= smallBest * MOST_GROWTH) return;
  throw new Error(
    `not linear: ${LARGE / SMALL}× the input took ${Math.round(largeBest / smallBest)}× the time ` +
      `(${ms(smallBest)} for ${SMALL} characters, ${ms(largeBest)} for ${LARGE}; at most ${MOST_GROWTH}× passes) on ${shown(shape)}`,
  );
}

/** Milliseconds one call takes. */
async function oneCall(parse: (input: string) => unknown, input: string): Promise<number> {
  const start = performance.now();
  await parse(input);
  return performance.now() - start;
}

function ms(value: number): string {
  return `${value.toFixed(3)} ms`;
}

function shown(shape: Shape): string {
  if (typeof shape === 'function') return `the input of ${shape.name || 'a function'}`;
  return `${JSON.stringify(shape.prefix)} + ${JSON.stringify(shape.pump)} × n + ${JSON.stringify(shape.suffix)}`;
}
