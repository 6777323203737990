/**
 * The clients being compared, in pairs: the library on a backend next to the raw client that
 * backend uses, so that the two take turns in every round. Add a contender by adding it to
 * {@link CONTENDERS}.
 *
 * @module
 */
import type { Contender } from './contender.js';
import { backendAlone } from './contenders/backend-alone.js';
import { libraryContender } from './contenders/library.js';
import { rawAxios } from './contenders/raw-axios.js';
import { rawFetch, rawGlobalFetch } from './contenders/raw-fetch.js';
import { rawGot } from './contenders/raw-got.js';
import { rawNodeHttp } from './contenders/raw-node-http.js';
import { rawUndiciRequest } from './contenders/raw-undici.js';

export type { Contender, Session } from './contender.js';

/** Everything measured, in this order in the report (the slices run in a shuffled order: `schedule.ts`). */
export const CONTENDERS: readonly Contender[] = [
  libraryContender('native', rawNodeHttp.name, 1.25),
  rawNodeHttp,
  libraryContender('axios', rawAxios.name, 1.0),
  rawAxios,
  libraryContender('got', rawGot.name, 1.1),
  rawGot,
  libraryContender('fetch', rawFetch.name, 1.1),
  rawFetch,
  rawGlobalFetch,
  rawUndiciRequest,
];

/**
 * Probes for the block tools (`gc-split.ts`, `perf-split.ts`, `interleaved-profile.ts`), never
 * run by `npm run bench`: each backend without the pipeline, to split a gap between what the
 * transport layer costs and what the pipeline costs.
 */
export const PROBES: readonly Contender[] = (['native', 'axios', 'got', 'fetch'] as const).map(backendAlone);

/**
 * The contenders whose name contains one of `only` (case-insensitive; all when `only` is empty),
 * plus their counterparts and the baseline, in {@link CONTENDERS} order.
 *
 * @example
 * selectContenders(CONTENDERS, ['axios']); // httpbuilder-ts (axios), raw node:http, raw axios
 */
export function selectContenders<C extends Pick<Contender, 'name' | 'comparedWith' | 'baseline'>>(all: readonly C[], only: readonly string[]): C[] {
  if (only.length === 0) return [...all];
  const words = only.map((w) => w.toLowerCase());
  const matched = all.filter((c) => words.some((w) => c.name.toLowerCase().includes(w)));
  if (matched.length === 0) throw new Error(`BENCH_ONLY=${only.join(',')} matches no contender (names: ${all.map((c) => c.name).join(', ')})`);
  const counterparts = matched.map((c) => all.find((other) => other.name === c.comparedWith));
  const picked = new Set([...matched, ...counterparts, ...all.filter((c) => c.baseline)]);
  return all.filter((c) => picked.has(c));
}
