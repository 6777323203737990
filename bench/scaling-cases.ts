/**
 * The worker side of the scaling scenarios (`scaling.ts`): what one worker process measures for
 * (j) concurrency, (k) body sizes, (l) HTTP/2 against HTTP/1.1 and (m) the soak. Each case runs
 * in a fresh worker (`worker.ts`, pinned, `--expose-gc`) and answers with raw figures; the
 * medians and ratios are worked out by `scaling.ts`.
 *
 * @module
 */
import type { Session } from './contender.js';
import { CONTENDERS } from './contenders.js';
import { openH2Clients } from './h2-clients.js';
import { measure, requestLoops, settle, TRANSFER_SAMPLE_MS } from './measure.js';
import { PATTERN } from './pattern.js';
import { isSmallJson } from './scenarios.js';
import { derivedSeed, seededRandom, shuffled } from './schedule.js';

/** One client's figures over the rounds of a case: CPU µs per request and requests per second, one value per round. */
export interface Series {
  readonly cpu: number[];
  readonly rate: number[];
}

/** What a scaling worker is asked to measure. */
export type ScalingCase =
  | { readonly kind: 'concurrency'; readonly contenders: readonly string[]; readonly levels: readonly number[]; readonly rounds: number }
  | {
      readonly kind: 'body';
      readonly contender: string;
      readonly size: number;
      readonly direction: 'download' | 'upload';
      readonly count: number;
      readonly passes: number;
    }
  | {
      readonly kind: 'h2';
      readonly backend: 'native' | 'undici';
      readonly origin: string;
      readonly ca: string;
      readonly requests: number;
      readonly rounds: number;
    }
  | { readonly kind: 'soak'; readonly contender: string; readonly requests: number };

/** What it answers, per kind (`Series` keyed by client name, and for (j) by level first). */
export interface ScalingAnswers {
  concurrency: Record<number, Record<string, Series>>;
  body: { readonly mbPerSecond: number[]; readonly cpuPerMiB: number[]; readonly rssGrowth: number; readonly peakRss: number };
  h2: Record<string, Series>;
  soak: SoakFigures;
}
export type ScalingAnswer = ScalingAnswers[keyof ScalingAnswers];

/** What the soak found: memory after a full GC and the open handles, after the warm-up and at the end. */
export interface SoakFigures {
  readonly requests: number;
  readonly rate: number;
  readonly cpu: number;
  readonly start: { readonly rss: number; readonly heapUsed: number; readonly handles: Record<string, number> };
  readonly end: { readonly rss: number; readonly heapUsed: number; readonly handles: Record<string, number> };
  /** RSS sampled every second during the run (not after a GC): its peak. */
  readonly peakRss: number;
}

/** Requests per sample at each concurrency of (j): enough for every loop to make several, at most ~1 s. */
export const CONCURRENCY_SAMPLE = (level: number) => Math.max(2000, level * 10);
/** The soak's concurrency: that of (a). */
export const SOAK_CONCURRENCY = 32;
const SOAK_WARMUP = 5000;

const open = (name: string, origin: string): Promise<Session> => {
  const found = CONTENDERS.find((c) => c.name === name);
  if (!found) throw new Error(`no contender '${name}'`);
  return found.open(origin);
};

/** `requests` GETs of /small.json on `get`, `concurrency` at a time, each checked: CPU µs per request and req/s. */
async function timedGets(get: () => Promise<unknown>, requests: number, concurrency: number): Promise<{ cpu: number; rate: number }> {
  const tally = { attempted: 0, succeeded: 0 };
  const { measurement: m } = await measure(() => requestLoops(get, isSmallJson, requests, concurrency, tally), 1000);
  return { cpu: (m.cpuUserUs + m.cpuSystemUs) / requests, rate: (requests * 1000) / m.wallMs };
}

/** Rounds of `requests` GETs per client at `concurrency`, the clients in an order shuffled per round; an unmeasured run each first (at most 2,000 GETs). */
async function interleaved(clients: ReadonlyMap<string, () => Promise<unknown>>, requests: number, concurrency: number, rounds: number, seed: number) {
  const series = new Map([...clients.keys()].map((name) => [name, { cpu: [] as number[], rate: [] as number[] }]));
  for (const get of clients.values())
    await requestLoops(get, isSmallJson, Math.max(concurrency, Math.min(requests, 2000)), concurrency, { attempted: 0, succeeded: 0 });
  await settle();
  const random = seededRandom(seed);
  for (let round = 0; round < rounds; round++) {
    for (const name of shuffled([...clients.keys()], random)) {
      const { cpu, rate } = await timedGets(clients.get(name)!, requests, concurrency);
      series.get(name)!.cpu.push(cpu);
      series.get(name)!.rate.push(rate);
    }
  }
  return Object.fromEntries(series);
}

/** Runs one case against the bench server at `origin`; `seed` orders its rounds. */
export async function runScalingCase(job: ScalingCase, origin: string, seed: number): Promise<ScalingAnswer> {
  if (job.kind === 'concurrency') return concurrencyCase(job, origin, seed);
  if (job.kind === 'body') return bodyCase(job, origin);
  if (job.kind === 'h2') return h2Case(job, seed);
  return soakCase(job, origin);
}

async function concurrencyCase(job: Extract<ScalingCase, { kind: 'concurrency' }>, origin: string, seed: number) {
  const sessions = await Promise.all(job.contenders.map((name) => open(name, origin)));
  try {
    const gets = new Map(job.contenders.map((name, i) => [name, () => sessions[i].getJson('/small.json')]));
    const answer: ScalingAnswers['concurrency'] = {};
    for (const level of job.levels) answer[level] = await interleaved(gets, CONCURRENCY_SAMPLE(level), level, job.rounds, derivedSeed(seed, `level ${level}`));
    return answer;
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
}

/** A body of `size` pattern bytes, made once before the baseline. */
function patternBody(size: number): Uint8Array {
  const body = Buffer.allocUnsafe(size);
  for (let at = 0; at < size; at += PATTERN.length) PATTERN.copy(body, at, 0, Math.min(PATTERN.length, size - at));
  return body;
}

async function bodyCase(job: Extract<ScalingCase, { kind: 'body' }>, origin: string): Promise<ScalingAnswers['body']> {
  const session = await open(job.contender, origin);
  const body = job.direction === 'upload' ? patternBody(job.size) : undefined;
  const once = async () => {
    if (body) {
      const answer = (await session.postBytes!(body)) as { bytes?: number };
      if (answer.bytes !== job.size) throw new Error(`the server counted ${JSON.stringify(answer)}, expected ${job.size} bytes`);
      return;
    }
    const got = await session.getBytes!(job.size);
    const head = Buffer.from(got.buffer, got.byteOffset, Math.min(got.byteLength, PATTERN.length));
    if (got.byteLength !== job.size || !head.equals(PATTERN.subarray(0, head.byteLength)))
      throw new Error(`got ${got.byteLength} bytes, not ${job.size} of the pattern`);
  };
  const batch = async () => {
    for (let i = 0; i < job.count; i++) await once();
  };
  try {
    await batch(); // unmeasured: JIT, lazily loaded modules, the pooled connection
    await settle();
    const base = process.memoryUsage().rss;
    let peakRss = base;
    const [mbPerSecond, cpuPerMiB] = [[] as number[], [] as number[]];
    for (let pass = 0; pass < job.passes; pass++) {
      const { measurement: m } = await measure(batch, TRANSFER_SAMPLE_MS);
      const bytes = job.size * job.count;
      mbPerSecond.push(bytes / 1e3 / m.wallMs);
      cpuPerMiB.push((m.cpuUserUs + m.cpuSystemUs) / (bytes / 2 ** 20));
      peakRss = Math.max(peakRss, m.memory.peakRss);
    }
    return { mbPerSecond, cpuPerMiB, rssGrowth: peakRss - base, peakRss };
  } finally {
    await session.close();
  }
}

async function h2Case(job: Extract<ScalingCase, { kind: 'h2' }>, seed: number): Promise<ScalingAnswers['h2']> {
  const clients = await openH2Clients(job.backend, job.origin, job.ca);
  try {
    const gets = new Map(clients.map((c) => [c.name, c.get]));
    return await interleaved(gets, job.requests, H2_CONCURRENCY, job.rounds, seed);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}
/** Requests in flight at a time in (l): as in (f). */
export const H2_CONCURRENCY = 100;

/** `process.getActiveResourcesInfo()` counted by kind (`TCPSocketWrap`, `Timeout`, ...). */
function handles(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) counts[kind] = (counts[kind] ?? 0) + 1;
  return counts;
}

async function soakCase(job: Extract<ScalingCase, { kind: 'soak' }>, origin: string): Promise<SoakFigures> {
  const session = await open(job.contender, origin);
  const get = () => session.getJson('/small.json');
  const tally = { attempted: 0, succeeded: 0 };
  try {
    await requestLoops(get, isSmallJson, SOAK_WARMUP, SOAK_CONCURRENCY, tally);
    await settle();
    const start = { ...heap(), handles: handles() };
    const { measurement: m } = await measure(() => requestLoops(get, isSmallJson, job.requests, SOAK_CONCURRENCY, tally), 1000);
    await settle();
    const end = { ...heap(), handles: handles() };
    return {
      requests: job.requests,
      rate: (job.requests * 1000) / m.wallMs,
      cpu: (m.cpuUserUs + m.cpuSystemUs) / job.requests,
      start,
      end,
      peakRss: m.memory.peakRss,
    };
  } finally {
    await session.close();
  }
}

const heap = () => {
  const { rss, heapUsed } = process.memoryUsage();
  return { rss, heapUsed };
};
