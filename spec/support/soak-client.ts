/**
 * The client side of `spec/memory/soak-memory.spec.ts`, in a process of its own so that nothing
 * else (jest, the server, other tests) moves its memory or its handles. Run as
 * `node --expose-gc --import tsx spec/support/soak-client.ts '<job JSON>'` (a {@link SoakJob});
 * prints one line of JSON, a {@link SoakResult}.
 *
 * One client makes `warmup` GETs (JIT, the pool, lazily loaded modules), then the figures are
 * taken after full GCs; then `requests` more GETs, `concurrency` at a time, each answer checked,
 * and the figures again; then the client is closed and the handles read a last time.
 *
 * @module
 */
import { HttpBuilder, type BackendChoice } from '../../lib/index.js';

/** What the test asks for. */
export interface SoakJob {
  /** `http://127.0.0.1:PORT`, whose `GET /` answers `{"ok":true}`. */
  readonly origin: string;
  readonly backend: Extract<BackendChoice, string>;
  readonly warmup: number;
  readonly requests: number;
  readonly concurrency: number;
}

/** Memory after full GCs, and the open handles by kind (`process.getActiveResourcesInfo()`). */
export interface SoakPoint {
  readonly rss: number;
  readonly heapUsed: number;
  readonly arrayBuffers: number;
  readonly handles: Record<string, number>;
}

/** What the process prints. */
export interface SoakResult {
  /** Answers that were not `{"ok":true}`, and failed calls, with the first failure's text. */
  readonly wrong: number;
  readonly firstFailure?: string;
  /** After the warm-up; after the soak; after `close()`. */
  readonly start: SoakPoint;
  readonly end: SoakPoint;
  readonly closed: SoakPoint;
  readonly ms: number;
}

const gc = (globalThis as { gc?: () => void }).gc;

/** Full GCs around a short pause (what the first GC finalises, the second frees; sockets settle), then the figures. */
async function point(): Promise<SoakPoint> {
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  await new Promise((resolve) => setTimeout(resolve, 100));
  gc();
  const { rss, heapUsed, arrayBuffers } = process.memoryUsage();
  const handles: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) handles[kind] = (handles[kind] ?? 0) + 1;
  return { rss, heapUsed, arrayBuffers, handles };
}

async function main(): Promise<void> {
  const job = JSON.parse(process.argv[2] ?? 'null') as SoakJob;
  const http = HttpBuilder.configure((c) => {
    c.request.uri = job.origin;
    c.client.backend = job.backend;
  });
  let wrong = 0;
  let firstFailure: string | undefined;
  const run = async (total: number) => {
    let issued = 0;
    const loop = async () => {
      while (issued < total) {
        issued++;
        try {
          const answer = (await http.get()) as { ok?: unknown };
          if (answer.ok !== true) throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
        } catch (error) {
          wrong++;
          firstFailure ??= String(error);
        }
      }
    };
    await Promise.all(Array.from({ length: job.concurrency }, loop));
  };
  await run(job.warmup);
  const start = await point();
  const started = performance.now();
  await run(job.requests);
  const ms = performance.now() - started;
  const end = await point();
  await http.close();
  const closed = await point();
  process.stdout.write(`${JSON.stringify({ wrong, firstFailure, start, end, closed, ms } satisfies SoakResult)}\n`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
