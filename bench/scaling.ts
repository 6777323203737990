/**
 * How cost grows, for the native and undici backends against the raw clients they run on (each
 * case in a fresh worker process, `scaling-cases.ts`), information only:
 *
 * - (j) concurrency 1, 64 and 1,024: GET /small.json, library and raw in one process taking
 *   turns in shuffled rounds; CPU per request should stay flat. Pools unbounded for both (node's
 *   and undici's default), so 1,024 requests in flight hold 1,024 connections; node's agents keep
 *   at most 256 of them idle (`maxFreeSockets`), so on native and raw node:http each sample at
 *   1,024 opens 768 anew.
 * - (k) bodies of 1 KiB, 1 MiB and 64 MiB each way, read whole into memory (`GET /bytes`) and
 *   sent from memory (`POST /count`), one after another: MB/s and the process's RSS growth over
 *   its baseline, a fresh process per contender, size and direction.
 * - (l) 10,000 GETs, 100 at a time, over HTTPS with HTTP/1.1 and with HTTP/2 (`h2-clients.ts`).
 * - (m) the soak: 500,000 GETs (`--soak N`) on one client, 32 at a time; RSS and heap after a
 *   full GC and the open handles, after the warm-up and at the end. RSS may grow by at most
 *   16 MiB, the handles not at all.
 *
 * (k) and (m) take minutes each and run only when `--scenarios` names them (`OPT_IN_SCENARIOS`).
 *
 * @module
 */
import os from 'node:os';
import path from 'node:path';
import type { ScalingJob, ScalingJobAnswer } from './jobs.js';
import { median } from './measure.js';
import type { BenchOptions } from './options.js';
import { runWorker } from './processes.js';
import { CONCURRENCY_SAMPLE, H2_CONCURRENCY, SOAK_CONCURRENCY, type ScalingAnswers, type ScalingCase, type Series, type SoakFigures } from './scaling-cases.js';
import { h2Rows as h2ClientRows } from './h2-clients.js';
import { derivedSeed, seededRandom, shuffled } from './schedule.js';
import { DASH, fmt, formatSize, mib } from './tables.js';

/** A backend and the raw client it runs on. */
interface Pair {
  readonly backend: 'native' | 'undici';
  readonly library: string;
  readonly raw: string;
}
const PAIRS: readonly Pair[] = [
  { backend: 'native', library: 'httpbuilder-ts (native)', raw: 'raw node:http' },
  { backend: 'undici', library: 'httpbuilder-ts (undici)', raw: 'raw undici.request' },
];

export const LEVELS = [1, 64, 1024] as const;
const LEVEL_ROUNDS = 5;
/** Body sizes of (k), with the bodies per measured pass (a pass moves at least 1 MB, at most 64 MiB). */
const BODIES = [
  { size: 2 ** 10, count: 1000 },
  { size: 2 ** 20, count: 32 },
  { size: 64 * 2 ** 20, count: 1 },
] as const;
const BODY_PASSES = 3;
const H2 = { requests: 10_000, rounds: 3 } as const;
/** The soak's bound on RSS growth (after a full GC, end against start). */
export const SOAK_RSS_LIMIT = 16 * 2 ** 20;

type Section<R> = { readonly date: string; readonly title: string; readonly rows: readonly R[]; readonly failures: readonly string[] };
type ConcurrencyRow = { readonly backend: string; readonly level: number; readonly library: Series; readonly raw: Series };
type BodyRow = {
  readonly backend: string;
  readonly size: number;
  readonly direction: 'download' | 'upload';
  readonly library: ScalingAnswers['body'];
  readonly raw: ScalingAnswers['body'];
};
type H2Row = { readonly backend: Pair['backend']; readonly clients: ScalingAnswers['h2'] };
type SoakRow = { readonly contender: string; readonly figures: SoakFigures };

/** What (j)–(m) found, as `latest.json` keeps it; each part with its own date (a part not run keeps its previous result). */
export interface ScalingReport {
  readonly concurrency?: Section<ConcurrencyRow>;
  readonly bodies?: Section<BodyRow>;
  readonly h2?: Section<H2Row>;
  readonly soak?: Section<SoakRow>;
}

/** Where the workers run: the bench server's plain and HTTPS origins. */
export interface ScalingTarget {
  readonly origin: string;
  readonly secureOrigin: string;
  readonly ca: string;
}

/** Runs the selected scaling scenarios; the parts not selected are taken from `previous`. */
export async function runScalingScenarios(
  target: ScalingTarget,
  options: BenchOptions,
  date: string,
  previous: ScalingReport | undefined,
): Promise<ScalingReport> {
  const words = options.only.map((w) => w.toLowerCase());
  const pairs = PAIRS.filter((p) => words.length === 0 || words.some((w) => p.library.toLowerCase().includes(w) || p.raw.toLowerCase().includes(w)));
  const on = (id: string) => options.scenarios.includes(id as never) && pairs.length > 0;
  const worker = workerFor(target, options.seed);
  return {
    concurrency: on('j') ? await concurrency(pairs, worker, date) : previous?.concurrency,
    bodies: on('k') ? await bodies(pairs, worker, date, options.seed) : previous?.bodies,
    h2: on('l') ? await h2(pairs, worker, date, target) : previous?.h2,
    soak: on('m') ? await soak(pairs, worker, date, options.soak) : previous?.soak,
  };
}

type Worker = <K extends ScalingCase['kind']>(c: Extract<ScalingCase, { kind: K }>, label: string, timeoutMs: number) => Promise<ScalingAnswers[K]>;

/** Runs a case in a fresh worker; rejects with the worker's error. */
function workerFor(target: ScalingTarget, seed: number): Worker {
  return async (c, label, timeoutMs) => {
    console.log(`  ${label}`);
    const answerFile = path.join(os.tmpdir(), `httpbuilder-scaling-${process.pid}.json`);
    const job: ScalingJob = { kind: 'scaling', case: c, origin: target.origin, seed: derivedSeed(seed, label), answerFile };
    const answer = await runWorker<ScalingJobAnswer>(job, timeoutMs);
    if (!answer.figures) throw new Error(answer.error ?? 'no figures');
    return answer.figures as never;
  };
}

/** Runs `each` on every item, a failure noted with its label instead of a row. */
async function collect<T, R>(items: readonly T[], label: (item: T) => string, each: (item: T) => Promise<R[]>): Promise<{ rows: R[]; failures: string[] }> {
  const [rows, failures] = [[] as R[], [] as string[]];
  for (const item of items) {
    try {
      rows.push(...(await each(item)));
    } catch (error) {
      failures.push(`${label(item)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { rows, failures };
}

async function concurrency(pairs: readonly Pair[], worker: Worker, date: string): Promise<Section<ConcurrencyRow>> {
  console.log('\nScenario (j) concurrency 1, 64, 1,024');
  const { rows, failures } = await collect(
    pairs,
    (p) => p.backend,
    async (p) => {
      const answer = await worker({ kind: 'concurrency', contenders: [p.library, p.raw], levels: LEVELS, rounds: LEVEL_ROUNDS }, `(j) ${p.backend}`, 600_000);
      return LEVELS.map((level) => ({ backend: p.backend, level, library: answer[level][p.library], raw: answer[level][p.raw] }));
    },
  );
  const title = `concurrency: GET /small.json at ${LEVELS.join(', ')} requests in flight (${LEVELS.map(CONCURRENCY_SAMPLE).join(', ')} per sample), ${LEVEL_ROUNDS} interleaved rounds, pools unbounded (one connection per request in flight; node's agents keep 256 idle between samples); information only`;
  return { date, title, rows, failures };
}

async function bodies(pairs: readonly Pair[], worker: Worker, date: string, seed: number): Promise<Section<BodyRow>> {
  console.log('\nScenario (k) bodies of 1 KiB, 1 MiB, 64 MiB, each way');
  const random = seededRandom(derivedSeed(seed, 'scenario k'));
  const cases = BODIES.flatMap((b) => (['download', 'upload'] as const).map((direction) => ({ ...b, direction })));
  const { rows, failures } = await collect(
    cases,
    (c) => `${formatSize(c.size)} ${c.direction}`,
    async ({ size, count, direction }) => {
      const figures = new Map<string, ScalingAnswers['body']>();
      for (const name of shuffled(
        pairs.flatMap((p) => [p.library, p.raw]),
        random,
      )) {
        const label = `(k) ${name}, ${formatSize(size)} ${direction} × ${count}`;
        figures.set(name, await worker({ kind: 'body', contender: name, size, direction, count, passes: BODY_PASSES }, label, 300_000));
      }
      return pairs.map((p) => ({ backend: p.backend, size, direction, library: figures.get(p.library)!, raw: figures.get(p.raw)! }));
    },
  );
  const title = `bodies: read whole into memory (GET) and sent from memory (POST), ${BODIES.map((b) => `${formatSize(b.size)} × ${b.count}`).join(', ')} per pass, ${BODY_PASSES} passes, one at a time, a fresh process per contender, size and direction; RSS growth = peak − baseline (after a warm-up pass and a full GC); information only`;
  return { date, title, rows, failures };
}

async function h2(pairs: readonly Pair[], worker: Worker, date: string, target: ScalingTarget): Promise<Section<H2Row>> {
  console.log('\nScenario (l) HTTP/2 against HTTP/1.1');
  const { rows, failures } = await collect(
    pairs,
    (p) => p.backend,
    async (p) => [
      {
        backend: p.backend,
        clients: await worker({ kind: 'h2', backend: p.backend, origin: target.secureOrigin, ca: target.ca, ...H2 }, `(l) ${p.backend}`, 600_000),
      },
    ],
  );
  const title = `HTTP/2 against HTTP/1.1: ${fmt(H2.requests)} GETs /small.json over TLS, ${H2_CONCURRENCY} at a time, ${H2.rounds} interleaved rounds; HTTP/1.1 pools unbounded (${H2_CONCURRENCY} connections), HTTP/2 one connection; information only`;
  return { date, title, rows, failures };
}

async function soak(pairs: readonly Pair[], worker: Worker, date: string, requests: number): Promise<Section<SoakRow>> {
  console.log(`\nScenario (m) soak: ${fmt(requests)} requests on one client`);
  const { rows, failures } = await collect(
    pairs.flatMap((p) => [p.library, p.raw]),
    (name) => name,
    async (name) => [{ contender: name, figures: await worker({ kind: 'soak', contender: name, requests }, `(m) ${name}`, 120_000 + requests * 2) }],
  );
  const title = `soak: ${fmt(requests)} GETs /small.json on one client, ${SOAK_CONCURRENCY} at a time; RSS and heap after a full GC and open handles, after a warm-up and at the end; library: RSS growth ≤ ${mib(SOAK_RSS_LIMIT)}, no more handles; information only`;
  return { date, title, rows, failures };
}

// the report's tables

const ratioRange = (a: readonly number[], b: readonly number[]) => {
  const ratios = a.map((x, i) => x / b[i]);
  return `${fmt(median(ratios), 2)} (${fmt(Math.min(...ratios), 2)}–${fmt(Math.max(...ratios), 2)})`;
};

/** Table of (j): a row per backend and concurrency. */
export function concurrencyRows(s: Section<ConcurrencyRow>): string[][] {
  const header = ['backend', 'in flight', 'library CPU µs/req', 'raw CPU µs/req', 'CPU ÷ raw (rounds min–max)', 'library req/s', 'raw req/s'];
  const rows = s.rows.map((r) => [
    r.backend,
    fmt(r.level),
    fmt(median(r.library.cpu), 1),
    fmt(median(r.raw.cpu), 1),
    ratioRange(r.library.cpu, r.raw.cpu),
    fmt(median(r.library.rate)),
    fmt(median(r.raw.rate)),
  ]);
  return [header, ...rows];
}

/** Table of (k): a row per backend, size and direction. */
export function bodyRows(s: Section<BodyRow>): string[][] {
  const header = [
    'backend',
    'body',
    'way',
    'library MB/s',
    'raw MB/s',
    'MB/s ÷ raw',
    'library CPU µs/MiB',
    'raw CPU µs/MiB',
    'library RSS growth',
    'raw RSS growth',
  ];
  const rows = s.rows.map(({ backend, size, direction, library: l, raw: r }) => [
    backend,
    formatSize(size),
    direction === 'download' ? 'GET' : 'POST',
    fmt(median(l.mbPerSecond), 1),
    fmt(median(r.mbPerSecond), 1),
    fmt(median(l.mbPerSecond) / median(r.mbPerSecond), 2),
    fmt(median(l.cpuPerMiB)),
    fmt(median(r.cpuPerMiB)),
    mib(l.rssGrowth),
    mib(r.rssGrowth),
  ]);
  return [header, ...rows];
}

/** Table of (l): a row per backend and client (library, raw). */
export function h2Rows(s: Section<H2Row>): string[][] {
  const header = ['client', 'HTTP/1.1 req/s', 'HTTP/2 req/s', 'HTTP/2 ÷ HTTP/1.1', 'HTTP/1.1 CPU µs/req', 'HTTP/2 CPU µs/req', 'CPU HTTP/2 ÷ HTTP/1.1'];
  const rows = s.rows.flatMap(({ backend, clients }) =>
    h2ClientRows(backend).map(({ label, http1, http2 }) => {
      const [one, two] = [clients[http1], clients[http2]];
      if (!one || !two) return [label, DASH, DASH, DASH, DASH, DASH, DASH];
      return [
        label,
        fmt(median(one.rate)),
        fmt(median(two.rate)),
        fmt(median(two.rate) / median(one.rate), 2),
        fmt(median(one.cpu), 1),
        fmt(median(two.cpu), 1),
        ratioRange(two.cpu, one.cpu),
      ];
    }),
  );
  return [header, ...rows];
}

const handleList = (h: Record<string, number>) =>
  Object.entries(h)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([kind, n]) => `${kind} ${n}`)
    .join(', ');
const total = (h: Record<string, number>) => Object.values(h).reduce((a, b) => a + b, 0);

/** Table of (m): a row per contender; the library's rows with the bounds' verdict. */
export function soakRows(s: Section<SoakRow>): string[][] {
  const header = [
    'contender',
    'req/s',
    'CPU µs/req',
    'RSS after warm-up',
    'RSS at end',
    'RSS growth',
    'heap growth',
    'peak RSS',
    'handles start → end',
    'bounds',
  ];
  const rows = s.rows.map(({ contender, figures: f }) => {
    const growth = f.end.rss - f.start.rss;
    const more = total(f.end.handles) - total(f.start.handles);
    const verdict = contender.startsWith('httpbuilder-ts') ? (growth <= SOAK_RSS_LIMIT && more <= 0 ? 'met' : 'NOT met') : DASH;
    const kinds = handleList(f.end.handles);
    const handles = `${total(f.start.handles)} → ${total(f.end.handles)}${kinds === '' ? '' : ` (${kinds})`}`;
    return [
      contender,
      fmt(f.rate),
      fmt(f.cpu, 1),
      mib(f.start.rss),
      mib(f.end.rss),
      mib(growth),
      mib(f.end.heapUsed - f.start.heapUsed),
      mib(f.peakRss),
      handles,
      verdict,
    ];
  });
  return [header, ...rows];
}

/** Each part's id, table and failures, in order, for the report. */
export function scalingTables(report: ScalingReport): { id: string; section: Section<unknown>; rows: string[][] }[] {
  const parts: { id: string; section: Section<unknown>; rows: string[][] }[] = [];
  if (report.concurrency) parts.push({ id: 'j', section: report.concurrency, rows: concurrencyRows(report.concurrency) });
  if (report.bodies) parts.push({ id: 'k', section: report.bodies, rows: bodyRows(report.bodies) });
  if (report.h2) parts.push({ id: 'l', section: report.h2, rows: h2Rows(report.h2) });
  if (report.soak) parts.push({ id: 'm', section: report.soak, rows: soakRows(report.soak) });
  return parts;
}
