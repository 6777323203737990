import { NodeBuffer } from '../core/bytes.js';
import { loadOnce, type LoadOnce } from '../core/load-once.js';
import type { Mapper, ResultType } from './result-type.js';

// The conversion itself (convert.ts) loads with the first call that names a result type: a
// client whose calls take the body as the handlers leave it never loads it (a browser bundle
// keeps it in a chunk of its own).

type Conversion = typeof import('./convert.js');

/**
 * How convert.ts is loaded: the pipeline plugs in its loader (pipeline/deferred-stage.ts, which
 * every client loads), whose entry imports the pipeline's shared-chunk list, for the reason
 * content/lazy-codecs.ts gives.
 */
let conversion: LoadOnce<Conversion> = loadOnce(() => Promise.reject(new Error('the result conversion needs the pipeline (pipeline/deferred-stage.ts)')));

/** @internal Plugs in the loader of convert.ts (deferred-stage.ts does, on import). */
export function useConversion(loader: LoadOnce<Conversion>): void {
  conversion = loader;
}

/** The built-in constructors results convert to: convert.ts has a converter for each. */
const BUILT_IN = new Set<unknown>([String, Number, Boolean, Date, Object, Uint8Array]);
// `Buffer` is a result type where the runtime has one (Node, Bun, Deno)
if (NodeBuffer) BUILT_IN.add(NodeBuffer);

/** Whether `type` is a built-in constructor results convert to (String, Number, ..., Uint8Array). */
export function hasConverter(type: unknown): boolean {
  return BUILT_IN.has(type);
}

/**
 * `value` converted to `type` (convert.ts's convertResult): `value` itself without a type; at
 * once once the conversion is loaded, else a promise of it (the first call with a result type).
 */
export function converted(value: unknown, type: ResultType | undefined, mapper?: Mapper): unknown {
  if (type === undefined) return value;
  const loaded = conversion.loaded;
  return loaded ? loaded.convertResult(value, type, mapper) : conversion().then((module) => module.convertResult(value, type, mapper));
}
