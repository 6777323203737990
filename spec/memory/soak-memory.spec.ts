/**
 * A long run on one client keeps nothing per request: after a warm-up, 20,000 GETs on one client
 * (32 at a time, kept-alive connections) on every backend must leave the heap, after full GCs,
 * within 1.25 MiB of where it was (64 bytes a request: keeping each request's record, about 110
 * bytes, added 2.1–3.0 MiB on every backend; runs without a leak moved it by −0.45 to +0.57 MiB), and the open handles (sockets in use, timers) no more
 * than before; `close()` must then leave no more than there were after the warm-up. RSS is held
 * to 64 MiB only: after full GCs it still moves by tens of MiB with V8's young generation and
 * malloc's arenas, run to run, leak or not. `npm run bench -- --scenarios m` runs the same soak
 * at 500,000 requests against the raw clients (docs/performance.md, "How cost grows").
 *
 * The clients run in fresh processes (`spec/support/soak-client.ts`, with `--expose-gc`), since
 * a jest worker's memory and handles move with everything else it does; all five at once (their
 * figures are their own), against a server that runs here.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { SoakJob, SoakPoint, SoakResult } from '../support/soak-client.js';

const REQUESTS = 20_000;
/** 64 bytes a request over 20,000 requests. */
const HEAP_LIMIT = 1.25 * 2 ** 20;
const RSS_LIMIT = 64 * 2 ** 20;
const BACKENDS = ['native', 'undici', 'axios', 'got', 'fetch'] as const;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLIENT = fileURLToPath(new URL('../support/soak-client.ts', import.meta.url));
const ANSWER = Buffer.from('{"ok":true}');

let server: http.Server;
let origin: string;
/** Each backend's run, started together in `beforeAll`. */
const runs = new Map<string, Promise<SoakResult>>();

beforeAll(async () => {
  server = http.createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    req.resume();
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': ANSWER.byteLength }).end(ANSWER);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  for (const backend of BACKENDS) {
    const run = runClient({ origin, backend, warmup: 2000, requests: REQUESTS, concurrency: 32 });
    run.catch(() => undefined); // its test reports the failure
    runs.set(backend, run);
  }
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function runClient(job: SoakJob): Promise<SoakResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', '--import', 'tsx', CLIENT, JSON.stringify(job)], { cwd: ROOT, timeout: 100_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`soak client failed: ${error.message}\n${stderr}`));
      resolve(JSON.parse(stdout) as SoakResult);
    });
  });
}

/** The kinds of handle `later` has more of than `earlier`, with both counts. */
function moreHandles(earlier: SoakPoint, later: SoakPoint): string[] {
  return Object.entries(later.handles).flatMap(([kind, n]) => (n > (earlier.handles[kind] ?? 0) ? [`${kind}: ${earlier.handles[kind] ?? 0} → ${n}`] : []));
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(2)} MiB`;

describe.each(BACKENDS)('a soak of 20,000 requests on one %s client', (backend) => {
  it('keeps nothing per request: heap and handles as after the warm-up, also after close()', async () => {
    const result = await runs.get(backend)!;
    const { start, end, closed } = result;
    console.log(
      `soak ${backend}: ${REQUESTS} requests in ${Math.round(result.ms)} ms; heap ${mib(end.heapUsed - start.heapUsed)}, RSS ${mib(end.rss - start.rss)}, ` +
        `handles ${JSON.stringify(start.handles)} → ${JSON.stringify(end.handles)}, after close ${JSON.stringify(closed.handles)}`,
    );
    expect({ wrong: result.wrong, firstFailure: result.firstFailure }).toEqual({ wrong: 0, firstFailure: undefined });
    expect(end.heapUsed - start.heapUsed).toBeLessThanOrEqual(HEAP_LIMIT);
    expect(end.rss - start.rss).toBeLessThanOrEqual(RSS_LIMIT);
    expect(moreHandles(start, end)).toEqual([]);
    expect(moreHandles(start, closed)).toEqual([]);
  }, 110_000);
});
