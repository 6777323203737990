/**
 * Scenario (h), information only: what the opt-in guard rails cost. On each backend, GETs of
 * /small.json from the bench server's plain listener with none set, with `client.publicOnly`
 * (`allow: ['127.0.0.0/8']`, so the check runs on every request and every new connection and
 * lets the bench server through) and with `client.concurrency` (`total: 64`, above the 32 calls
 * at a time, so its bookkeeping is measured, not its waiting); kept-alive connections (32 at a
 * time), and for the address policy a new connection per request too (`keepAlive: false`, 8 at
 * a time); requests per second of wall time, each response checked. The clients take turns
 * round by round, so drift falls on all alike.
 *
 * @module
 */
import { fromDist, type BackendName } from './contenders/library.js';
import { requestLoops } from './measure.js';
import { backendTable, eachBackend, type BackendReport } from './information.js';
import { isSmallJson } from './scenarios.js';
import { fmt } from './tables.js';

type Rates = {
  readonly keptOff: number;
  readonly keptOn: number;
  readonly keptSlots: number;
  readonly freshOff: number;
  readonly freshOn: number;
};

/** What scenario (h) found, as `latest.json` keeps it. */
export type OptInReport = BackendReport<Rates>;

const ROUNDS = 5;
const KEPT = { requests: 2000, concurrency: 32 };
const FRESH = { requests: 300, concurrency: 8 };
const SLOTS = 64;
const TITLE = `opt-in costs: GET /small.json with none, client.publicOnly (allow 127.0.0.0/8), client.concurrency (total ${SLOTS}); kept-alive (${KEPT.concurrency} at a time) and a new connection per request (${FRESH.concurrency} at a time); req/s, information only`;

/** Runs scenario (h) against the bench server's plain listener. */
export async function runOptInScenario(origin: string, date: string): Promise<OptInReport> {
  const { HttpBuilder } = (await fromDist('index.js')) as typeof import('../lib/index.js');
  const rows = await eachBackend('h', ['native', 'undici', 'axios', 'got', 'fetch'] satisfies BackendName[], async (backend) => {
    const client = (keepAlive: boolean, set?: 'policy' | 'slots') =>
      HttpBuilder.configure((c) => {
        c.request.uri = `${origin}/small.json`;
        c.client.backend = backend;
        c.client.connection = { keepAlive };
        if (set === 'policy') c.client.publicOnly = { allow: ['127.0.0.0/8'] };
        if (set === 'slots') c.client.concurrency = { total: SLOTS };
      });
    const runs = [
      { client: client(true), load: KEPT },
      { client: client(true, 'policy'), load: KEPT },
      { client: client(true, 'slots'), load: KEPT },
      { client: client(false), load: FRESH },
      { client: client(false, 'policy'), load: FRESH },
    ];
    try {
      const ms = runs.map(() => 0);
      // a first round warms up (connections, JIT) and is not counted
      for (let round = 0; round <= ROUNDS; round++) {
        for (const [i, run] of runs.entries()) {
          const time = await timed(run.client, run.load);
          if (round > 0) ms[i] += time;
        }
      }
      const [keptOff, keptOn, keptSlots, freshOff, freshOn] = runs.map((run, i) => (ROUNDS * run.load.requests * 1000) / ms[i]);
      return { keptOff, keptOn, keptSlots, freshOff, freshOn };
    } finally {
      await Promise.all(runs.map((run) => run.client.close()));
    }
  });
  return { date, title: TITLE, rows };
}

/** `requests` GETs, `concurrency` at a time; their wall time in ms. Throws when a response is not the expected JSON. */
async function timed(client: { get(): Promise<unknown> }, { requests, concurrency }: { requests: number; concurrency: number }): Promise<number> {
  const start = performance.now();
  await requestLoops(() => client.get(), isSmallJson, requests, concurrency, { attempted: 0, succeeded: 0 });
  return performance.now() - start;
}

/** The report's table of scenario (h): one row per backend. */
export function optInRows(report: OptInReport): string[][] {
  const header = ['backend', 'kept-alive: none (req/s)', 'publicOnly', '÷ none', 'concurrency', '÷ none', 'new connection: none', 'publicOnly', '÷ none'];
  return backendTable<Rates>(header, report.rows, (r) => [
    fmt(r.keptOff),
    fmt(r.keptOn),
    fmt(r.keptOn / r.keptOff, 2),
    fmt(r.keptSlots),
    fmt(r.keptSlots / r.keptOff, 2),
    fmt(r.freshOff),
    fmt(r.freshOn),
    fmt(r.freshOn / r.freshOff, 2),
  ]);
}
