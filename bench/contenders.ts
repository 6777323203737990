/**
 * The clients being compared: the library on each backend next to the raw client that backend
 * runs on, raw node:http as everyone's baseline, and a few raw clients for information. Adding a
 * contender is one entry in {@link CONTENDERS} (a new backend: `library('name', rawClient, target)`).
 *
 * @module
 */
import type { Contender } from './contender.js';
import { library } from './contenders/library.js';
import { rawAxios } from './contenders/raw-axios.js';
import { rawFetch, rawGlobalFetch } from './contenders/raw-fetch.js';
import { rawGot } from './contenders/raw-got.js';
import { rawNodeHttp } from './contenders/raw-node-http.js';
import { rawUndiciRequest } from './contenders/raw-undici.js';

/** Everything measured, in this order in the report (the turns they take are shuffled: `schedule.ts`). */
export const CONTENDERS: readonly Contender[] = [
  library('native', rawNodeHttp, 1.25),
  rawNodeHttp,
  library('axios', rawAxios, 1.0),
  rawAxios,
  library('got', rawGot, 1.1),
  rawGot,
  library('fetch', rawFetch, 1.1),
  rawFetch,
  rawGlobalFetch,
  // the fast path: also meant to cost no more than raw node:http (the report's ÷ raw node:http column)
  library('undici', rawUndiciRequest, 1.2),
  rawUndiciRequest,
];

/**
 * The contenders whose name contains one of `only` (case-insensitive; all when `only` is empty),
 * plus their counterparts and the baseline, in {@link CONTENDERS} order.
 *
 * @example
 * selectContenders(CONTENDERS, ['axios']); // httpbuilder-ts (axios), raw node:http, raw axios
 */
export function selectContenders(all: readonly Contender[], only: readonly string[]): Contender[] {
  if (only.length === 0) return [...all];
  const words = only.map((w) => w.toLowerCase());
  const matched = all.filter((c) => words.some((w) => c.name.toLowerCase().includes(w)));
  if (matched.length === 0) throw new Error(`--only ${only.join(',')} matches no contender (names: ${all.map((c) => c.name).join(', ')})`);
  const picked = new Set([...matched, ...all.filter((c) => c.baseline || matched.some((m) => m.counterpart === c.name))]);
  return all.filter((c) => picked.has(c));
}

/**
 * The process groups of the request scenarios: each library contender with its counterpart and
 * the baseline, then the raw clients in no pair (they share no code) with the baseline. An
 * application uses one backend; in a process shared by all, the pipeline would be compiled for four.
 */
export function isolationGroups(contenders: readonly Contender[]): Contender[][] {
  const baseline = contenders.find((c) => c.baseline);
  const paired = contenders.filter((c) => c.counterpart !== undefined);
  const groups = paired.map((c) => contenders.filter((other) => other === c || other.name === c.counterpart || other === baseline));
  const rest = contenders.filter((c) => !groups.some((group) => group.includes(c)));
  if (rest.length > 0) groups.push(contenders.filter((c) => rest.includes(c) || c === baseline));
  return groups;
}
