/**
 * Scenario (f), information only: HTTP/2 throughput. On each backend that speaks HTTP/2, batches
 * of 100 concurrent GETs to one HTTPS origin, over HTTP/1.1 with `maxSockets: 6` (a browser's
 * bound) and over HTTP/2 (`client.http2`, one multiplexed connection); requests per second of
 * wall time, each response checked. The two clients take turns batch by batch, so drift on the
 * machine falls on both alike.
 *
 * @module
 */
import { fromDist, type BackendName } from './contenders/library.js';
import { backendTable, eachBackend, fmt, type BackendReport } from './tables.js';

type Rates = { readonly http1: number; readonly http2: number };

/** What scenario (f) found, as `latest.json` keeps it. */
export type Http2Report = BackendReport<Rates>;

const BACKENDS: readonly BackendName[] = ['native', 'undici', 'fetch', 'got'];
const CONCURRENT = 100;
const MAX_SOCKETS = 6;
/** Batches per client: the first one warms up (connections, JIT) and is not counted. */
const BATCHES = 41;
const TITLE = `HTTP/2 throughput: ${CONCURRENT} concurrent GETs /small.json to one HTTPS origin, HTTP/1.1 (maxSockets ${MAX_SOCKETS}) vs HTTP/2; req/s, information only`;

/** Runs scenario (f) against the bench server's HTTPS listener (`origin`, trusting `ca`). */
export async function runHttp2Scenario(origin: string, ca: string, date: string): Promise<Http2Report> {
  const { HttpBuilder } = (await fromDist('index.js')) as typeof import('../lib/index.js');
  const rows = await eachBackend('f', BACKENDS, async (backend) => {
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
      const rate = (ms: number) => ((BATCHES - 1) * CONCURRENT * 1000) / ms;
      return { http1: rate(ms1), http2: rate(ms2) };
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
  return { date, title: TITLE, rows };
}

/** One batch of concurrent GETs; its wall time in ms. Throws when a response is not the expected JSON. */
async function timedBatch(client: { get(): Promise<unknown> }): Promise<number> {
  const start = performance.now();
  const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => client.get()));
  const ms = performance.now() - start;
  if (!answers.every((a) => (a as { id?: unknown } | null)?.id === 42)) throw new Error('a response was not the expected JSON');
  return ms;
}

/** The report's table of scenario (f): one row per backend. */
export function http2Rows(report: Http2Report): string[][] {
  const header = ['backend', `HTTP/1.1, maxSockets ${MAX_SOCKETS} (req/s)`, 'HTTP/2 (req/s)', 'HTTP/2 ÷ HTTP/1.1'];
  return backendTable<Rates>(header, report.rows, (row) => [fmt(row.http1), fmt(row.http2), fmt(row.http2 / row.http1, 2)]);
}
