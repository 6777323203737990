/**
 * Stands in for a transport's work between two steps of the pipeline: a few thousand distinct
 * small functions, each on objects of its own shapes, run one after the other. Run between two
 * calls, it pushes the library's code, inline caches and objects out of the CPU's caches, as
 * the ~200 µs of undici's fetch between two of the library's steps does in a real request.
 *
 * @example
 * const evict = cacheEvictor(2000);
 * evict(); // then time one call, cold
 *
 * @module
 */

/** Returns a function that runs `count` distinct generated functions (each once, in turn). */
export function cacheEvictor(count: number): () => number {
  // distinct source per function: its own bytecode, feedback and machine code, as a large
  // dependency's functions are
  const functions = Array.from(
    { length: count },
    // eslint-disable-next-line @typescript-eslint/no-implied-eval -- generated on purpose: thousands of distinct functions
    (_, k) => new Function('o', `let s = ${k}; for (const key in o) s += o[key] * ${(k % 7) + 1} + (s >> ${k % 5}); if (s % ${k + 3} === 1) s ^= ${k}; return s + o.a${k % 13};`) as (o: object) => number,
  );
  const objects = Array.from({ length: count }, (_, k) => ({ a: k, b: k * 2, ['a' + (k % 13)]: 1, c: k % 5 }));
  // returns the sum: the calls have a result, so none can be optimised away
  const evict = (): number => {
    let sum = 0;
    for (let k = 0; k < count; k++) sum += functions[k](objects[k]);
    return sum;
  };
  // compiled before anything is measured
  for (let i = 0; i < 3_000; i++) evict();
  return evict;
}
