/**
 * Scenario (h), information only: what `client.publicOnly` costs. On each backend, GETs of
 * /small.json from the bench server's plain listener with the policy off and on (`allow:
 * ['127.0.0.0/8']`, so the check runs on every request and every new connection and lets the
 * bench server through), kept-alive connections (32 at a time) and a new connection per request
 * (`keepAlive: false`, 8 at a time); requests per second of wall time, each response checked.
 * Off and on take turns round by round, so drift falls on both alike.
 *
 * @module
 */
import { fromDist, type BackendName } from './contenders/library.js';
import { requestLoops } from './measure.js';
import { backendTable, eachBackend, type BackendReport } from './information.js';
import { isSmallJson } from './scenarios.js';
import { fmt } from './tables.js';

type Rates = { readonly keptOff: number; readonly keptOn: number; readonly freshOff: number; readonly freshOn: number };

/** What scenario (h) found, as `latest.json` keeps it. */
export type PolicyReport = BackendReport<Rates>;

const ROUNDS = 5;
const KEPT = { requests: 2000, concurrency: 32 };
const FRESH = { requests: 300, concurrency: 8 };
const TITLE = `client.publicOnly off vs on (allow 127.0.0.0/8): GET /small.json, kept-alive (${KEPT.concurrency} at a time) and a new connection per request (${FRESH.concurrency} at a time); req/s, information only`;

/** Runs scenario (h) against the bench server's plain listener. */
export async function runPolicyScenario(origin: string, date: string): Promise<PolicyReport> {
  const { HttpBuilder } = (await fromDist('index.js')) as typeof import('../lib/index.js');
  const rows = await eachBackend('h', ['native', 'undici', 'axios', 'got', 'fetch'] satisfies BackendName[], async (backend) => {
    const client = (policy: boolean, keepAlive: boolean) =>
      HttpBuilder.configure((c) => {
        c.request.uri = `${origin}/small.json`;
        c.client.backend = backend;
        c.client.connection = { keepAlive };
        if (policy) c.client.publicOnly = { allow: ['127.0.0.0/8'] };
      });
    const clients = [client(false, true), client(true, true), client(false, false), client(true, false)];
    const [keptOff, keptOn, freshOff, freshOn] = clients;
    try {
      const ms = [0, 0, 0, 0];
      // a first round warms up (connections, JIT) and is not counted
      for (let round = 0; round <= ROUNDS; round++) {
        const times = [await timed(keptOff, KEPT), await timed(keptOn, KEPT), await timed(freshOff, FRESH), await timed(freshOn, FRESH)];
        if (round > 0) times.forEach((time, i) => (ms[i] += time));
      }
      const rate = (total: number, { requests }: { requests: number }) => (ROUNDS * requests * 1000) / total;
      return { keptOff: rate(ms[0], KEPT), keptOn: rate(ms[1], KEPT), freshOff: rate(ms[2], FRESH), freshOn: rate(ms[3], FRESH) };
    } finally {
      await Promise.all(clients.map((c) => c.close()));
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
export function policyRows(report: PolicyReport): string[][] {
  const header = ['backend', 'kept-alive off (req/s)', 'on (req/s)', 'on ÷ off', 'new connection off (req/s)', 'on (req/s)', 'on ÷ off'];
  return backendTable<Rates>(header, report.rows, (r) => [
    fmt(r.keptOff),
    fmt(r.keptOn),
    fmt(r.keptOn / r.keptOff, 2),
    fmt(r.freshOff),
    fmt(r.freshOn),
    fmt(r.freshOn / r.freshOff, 2),
  ]);
}
