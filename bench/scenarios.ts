/**
 * What is measured: a request shape, its concurrency, and a cheap check of each result so
 * no contender can win by skipping work. The request scenarios (a) and (b) live here; the
 * transfer scenarios (c) and (d), one large body per process, live in `transfer/scenarios.ts`.
 *
 * @module
 */
import type { Session } from './contender.js';

/** One workload. */
export interface Scenario {
  readonly id: string;
  readonly title: string;
  /** The server route it hits, as counted by the server (`"GET /small.json"`). */
  readonly route: string;
  /** One request. */
  readonly run: (session: Session) => Promise<unknown>;
  /** `true` when the result is what the server sent (checked on every request). */
  readonly check: (value: unknown) => boolean;
}

/** (a) GET a ~100-byte JSON document. */
export const SMALL_JSON: Scenario = {
  id: 'a',
  title: 'GET /small.json (~100 B JSON)',
  route: 'GET /small.json',
  run: (session) => session.getJson('/small.json'),
  check: (value) => typeof value === 'object' && value !== null && (value as { id?: unknown }).id === 42,
};

/**
 * The body of scenario (b): an object whose JSON text is exactly 1 KiB, built once, so every
 * contender serialises the same object on every request.
 */
export const POST_DOCUMENT: { readonly id: number; readonly items: readonly string[]; readonly note: string } = (() => {
  const base = { id: 7, items: ['alpha', 'beta', 'gamma', 'delta'], note: '' };
  const fill = 1024 - JSON.stringify(base).length;
  return Object.freeze({ ...base, note: 'x'.repeat(fill) });
})();

/** (b) POST a 1 KiB JSON document; the server echoes it back and the contender parses the echo. */
export const POST_JSON: Scenario = {
  id: 'b',
  title: 'POST /echo (1 KiB JSON, echoed back)',
  route: 'POST /echo',
  run: (session) => session.postJson('/echo', POST_DOCUMENT),
  check: (value) => {
    const echoed = value as Partial<typeof POST_DOCUMENT> | null;
    return typeof echoed === 'object' && echoed !== null && echoed.id === POST_DOCUMENT.id && echoed.note?.length === POST_DOCUMENT.note.length;
  },
};

/** Request scenarios run by `npm run bench`, in run order. */
export const SCENARIOS: readonly Scenario[] = [SMALL_JSON, POST_JSON];

/** The request scenarios among `ids` (`--scenarios`), in run order. */
export function selectScenarios(ids: readonly string[]): Scenario[] {
  return SCENARIOS.filter((s) => ids.includes(s.id));
}
