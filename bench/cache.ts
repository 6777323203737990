/**
 * Scenario (g), information only: the HTTP cache. On each backend, 1,000 GETs of 20 URLs whose
 * responses say `max-age=3600`, 10 at a time, with `client.cache` off and then on: the requests
 * the server saw, and the wall time. With the cache only the first GET of each URL goes out.
 *
 * @module
 */
import { fromDist, type BackendName } from './contenders/library.js';
import { serverStats } from './server-check.js';
import { backendTable, eachBackend, fmt, type BackendReport } from './tables.js';

type Run = { readonly sent: number; readonly ms: number };
type OffOn = { readonly off: Run; readonly on: Run };

/** What scenario (g) found, as `latest.json` keeps it. */
export type CacheReport = BackendReport<OffOn>;

const [GETS, URLS, CONCURRENT] = [1000, 20, 10];
const TITLE = `HTTP cache: ${GETS} GETs of ${URLS} URLs with max-age (${CONCURRENT} at a time), client.cache off vs on; information only`;

/** Runs scenario (g) against the bench server's plain listener (`origin`: `GET /cacheable?n=` answers with max-age=3600). */
export async function runCacheScenario(origin: string, date: string): Promise<CacheReport> {
  const { HttpBuilder } = (await fromDist('index.js')) as typeof import('../lib/index.js');
  const sent = async () => (await serverStats(origin)).served['GET /cacheable'] ?? 0;
  const run = async (backend: BackendName, cache: boolean): Promise<Run> => {
    const http = HttpBuilder.configure((c) => {
      c.request.uri = `${origin}/cacheable`;
      c.client.backend = backend;
      c.client.cache = cache;
    });
    try {
      const [before, start] = [await sent(), performance.now()];
      for (let next = 0; next < GETS; next += CONCURRENT) {
        const answers = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => http.get((c) => void (c.request.uri.query = { n: (next + i) % URLS }))));
        if (!answers.every((a) => (a as { id?: unknown } | null)?.id === 42)) throw new Error('a response was not the expected JSON');
      }
      const ms = performance.now() - start;
      return { sent: (await sent()) - before, ms };
    } finally {
      await http.close();
    }
  };
  const rows = await eachBackend('g', ['native', 'undici', 'axios', 'got', 'fetch'], async (backend) => ({
    off: await run(backend, false),
    on: await run(backend, true),
  }));
  return { date, title: TITLE, rows };
}

/** The report's table of scenario (g): one row per backend. */
export function cacheRows(report: CacheReport): string[][] {
  const header = ['backend', 'off: requests sent', 'off: ms', 'on: requests sent', 'on: ms', 'off ÷ on (time)'];
  return backendTable<OffOn>(header, report.rows, ({ off, on }) => [String(off.sent), fmt(off.ms), String(on.sent), fmt(on.ms), fmt(off.ms / on.ms, 1)]);
}
