/**
 * What is measured: a request shape, its concurrency, and a cheap check of each result so
 * no contender can win by skipping work. Add request scenarios (POST echo) here; the transfer
 * scenarios (c) and (d), one large body per process, live in `transfer/scenarios.ts`.
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

/** Scenarios run by `npm run bench`. */
export const SCENARIOS: readonly Scenario[] = [SMALL_JSON];
