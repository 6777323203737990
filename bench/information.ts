/**
 * The information-only scenarios, measured backend by backend after the server's counts are
 * checked, each shown as one table (a row per backend, or the failure that stopped it):
 *
 * - (f) HTTP/2 throughput. On each backend that speaks HTTP/2, batches of 100 concurrent GETs to
 *   one HTTPS origin, over HTTP/1.1 with `maxSockets: 6` (a browser's bound) and over HTTP/2
 *   (`client.http2`, one multiplexed connection); requests per second of wall time, each response
 *   checked. The two clients take turns batch by batch, so drift falls on both alike.
 * - (g) The HTTP cache. On each backend, 1,000 GETs of 20 URLs whose responses say
 *   `max-age=3600`, 10 at a time, with `client.cache` off and then on: the requests the server
 *   saw, and the wall time. With the cache only the first GET of each URL goes out.
 *
 * @module
 */
import { fromDist, type BackendName } from './contenders/library.js';
import { requestLoops } from './measure.js';
import { isSmallJson } from './scenarios.js';
import { serverStats } from './server-check.js';
import { DASH, fmt } from './tables.js';

/** A row of the information-only scenarios (f) and (g): a backend's figures, or the failure that stopped them. */
export type BackendRow<R> = { readonly backend: string } & (R | { readonly failure: string });

/** What an information-only scenario found, as `latest.json` keeps it. */
export type BackendReport<R> = { readonly date: string; readonly title: string; readonly rows: ReadonlyArray<BackendRow<R>> };

/** Measures each backend in turn (`id`: the scenario, for the progress lines); a failure becomes that backend's row. */
export async function eachBackend<R extends object>(id: string, backends: readonly BackendName[], measure: (name: BackendName) => Promise<R>) {
  const rows: Array<BackendRow<R>> = [];
  for (const backend of backends) {
    console.log(`scenario (${id}): ${backend}`);
    try {
      rows.push({ backend, ...(await measure(backend)) });
    } catch (error) {
      rows.push({ backend, failure: error instanceof Error ? error.message : String(error) });
    }
  }
  return rows;
}

/** The table of an information-only scenario: a row per backend, its `cells`, or the failure that stopped it. */
export function backendTable<R>(header: string[], rows: ReadonlyArray<BackendRow<R>>, cells: (row: R) => string[]): string[][] {
  const failed = (failure: string) => [`FAILED: ${failure}`, ...header.slice(2).map(() => DASH)];
  return [header, ...rows.map((row) => [`httpbuilder-ts (${row.backend})`, ...('failure' in row ? failed(row.failure) : cells(row as R))])];
}

// scenario (f)

type Rates = { readonly http1: number; readonly http2: number };

/** What scenario (f) found, as `latest.json` keeps it. */
export type Http2Report = BackendReport<Rates>;

const H2_BACKENDS: readonly BackendName[] = ['native', 'undici', 'fetch', 'got'];
const H2_CONCURRENT = 100;
const MAX_SOCKETS = 6;
/** Batches per client: the first one warms up (connections, JIT) and is not counted. */
const BATCHES = 41;
const H2_TITLE = `HTTP/2 throughput: ${H2_CONCURRENT} concurrent GETs /small.json to one HTTPS origin, HTTP/1.1 (maxSockets ${MAX_SOCKETS}) vs HTTP/2; req/s, information only`;

/** Runs scenario (f) against the bench server's HTTPS listener (`origin`, trusting `ca`). */
export async function runHttp2Scenario(origin: string, ca: string, date: string): Promise<Http2Report> {
  const { HttpBuilder } = (await fromDist('index.js')) as typeof import('../lib/index.js');
  const rows = await eachBackend('f', H2_BACKENDS, async (backend) => {
    const client = (http2: boolean) =>
      HttpBuilder.configure((c) => {
        c.request.uri = `${origin}/small.json`;
        c.client.backend = backend;
        c.execution.tls = { ca };
        c.client.connection = { maxSockets: MAX_SOCKETS };
        c.client.http2 = http2;
      });
    const [one, two] = [client(false), client(true)];
    try {
      let [ms1, ms2] = [0, 0];
      for (let batch = 0; batch < BATCHES; batch++) {
        const [a, b] = [await timedBatch(one), await timedBatch(two)];
        if (batch > 0) [ms1, ms2] = [ms1 + a, ms2 + b];
      }
      const rate = (ms: number) => ((BATCHES - 1) * H2_CONCURRENT * 1000) / ms;
      return { http1: rate(ms1), http2: rate(ms2) };
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
  return { date, title: H2_TITLE, rows };
}

/** One batch of concurrent GETs; its wall time in ms. Throws when a response is not the expected JSON. */
async function timedBatch(client: { get(): Promise<unknown> }): Promise<number> {
  const start = performance.now();
  await requestLoops(() => client.get(), isSmallJson, H2_CONCURRENT, H2_CONCURRENT, { attempted: 0, succeeded: 0 });
  return performance.now() - start;
}

/** The report's table of scenario (f): one row per backend. */
export function http2Rows(report: Http2Report): string[][] {
  const header = ['backend', `HTTP/1.1, maxSockets ${MAX_SOCKETS} (req/s)`, 'HTTP/2 (req/s)', 'HTTP/2 ÷ HTTP/1.1'];
  return backendTable<Rates>(header, report.rows, (row) => [fmt(row.http1), fmt(row.http2), fmt(row.http2 / row.http1, 2)]);
}

// scenario (g)

type Run = { readonly sent: number; readonly ms: number };
type OffOn = { readonly off: Run; readonly on: Run };

/** What scenario (g) found, as `latest.json` keeps it. */
export type CacheReport = BackendReport<OffOn>;

const [GETS, URLS, CACHE_CONCURRENT] = [1000, 20, 10];
const CACHE_TITLE = `HTTP cache: ${GETS} GETs of ${URLS} URLs with max-age (${CACHE_CONCURRENT} at a time), client.cache off vs on; information only`;

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
      // in batches of distinct URLs: concurrent misses of one URL would each go out (no request is coalesced)
      for (let next = 0; next < GETS; next += CACHE_CONCURRENT) {
        const answers = await Promise.all(
          Array.from({ length: CACHE_CONCURRENT }, (_, i) => http.get((c) => void (c.request.uri.query = { n: (next + i) % URLS }))),
        );
        if (!answers.every(isSmallJson)) throw new Error('a response was not the expected JSON');
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
  return { date, title: CACHE_TITLE, rows };
}

/** The report's table of scenario (g): one row per backend. */
export function cacheRows(report: CacheReport): string[][] {
  const header = ['backend', 'off: requests sent', 'off: ms', 'on: requests sent', 'on: ms', 'off ÷ on (time)'];
  return backendTable<OffOn>(header, report.rows, ({ off, on }) => [String(off.sent), fmt(off.ms), String(on.sent), fmt(on.ms), fmt(off.ms / on.ms, 1)]);
}
