/**
 * What is measured: (a) and (b), many small requests at a concurrency of 32, each result checked;
 * (c) and (d), one large transfer each, checked on disk or by the server's count; (e), (a)
 * through a forward proxy, for information; (f), HTTP/2 against HTTP/1.1, (g), the cache off
 * and on, (h), the opt-in guard rails' cost, (i), the cold start of a new process, and (j)–(m),
 * how cost grows with concurrency, body size, HTTP/2 and a long run, for information
 * (`information.ts`, `opt-in-costs.ts`, `cold-start.ts`, `scaling.ts`: shapes of their own). No contender can win by skipping work.
 *
 * @module
 */
import { rm } from 'node:fs/promises';
import { UPLOAD_PART, type ScenarioKind, type Session } from './contender.js';
import { checkPatternFile } from './pattern.js';
import { formatSize } from './tables.js';

/** The scenarios' ids, as `--scenarios` takes them. */
export const SCENARIO_IDS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm'] as const;
/** The scenarios a run leaves out unless `--scenarios` names them: (k), 24 fresh processes, and (m), the 500,000-request soak, take minutes each. */
export const OPT_IN_SCENARIOS: readonly ScenarioId[] = ['k', 'm'];
export type ScenarioId = (typeof SCENARIO_IDS)[number];

/** How a kind of scenario states its figures: `rate` and `cpu` name them, the scales turn a measured amount (requests, bytes) into their units. */
export const UNITS = {
  requests: { rate: 'req/s', cpu: 'CPU µs/req', cpuScale: 1, rateScale: 1 },
  transfers: { rate: 'MB/s', cpu: 'CPU µs/MiB', cpuScale: 2 ** -20, rateScale: 1e-6 },
} as const satisfies Record<ScenarioKind, object>;
export type Unit = (typeof UNITS)[ScenarioKind];

/** Many requests, `concurrency` at a time, each result checked. */
export interface RequestScenario {
  readonly kind: 'requests';
  readonly id: ScenarioId;
  readonly title: string;
  /** The server route it hits, as the server counts it (`"GET /small.json"`). */
  readonly route: string;
  readonly run: (session: Session) => Promise<unknown>;
  readonly check: (value: unknown) => boolean;
  /** Run through the forward proxy of the server process, by the `proxied` contenders only; information only (no target). */
  readonly proxied?: boolean;
}

/** The files one transfer works with. */
export interface TransferFiles {
  /** Path of a pattern file of exactly `size` bytes (the upload sources, made before the scenario runs). */
  source(size: number): string;
  /** Where a download goes; removed after each check. */
  readonly target: string;
}

/** One large body, streamed. */
export interface TransferScenario {
  readonly kind: 'transfers';
  readonly id: ScenarioId;
  readonly title: string;
  readonly route: string;
  /** One transfer of `size` bytes; resolves to what {@link verify} checks. */
  readonly run: (session: Session, size: number, files: TransferFiles) => Promise<unknown>;
  /** Checks the result of {@link run} (untimed) and removes what it wrote; returns what is wrong, if anything. */
  readonly verify: (result: unknown, size: number, files: TransferFiles) => Promise<string | undefined>;
}

export type Scenario = RequestScenario | TransferScenario;

// the body of scenario (b): an object whose JSON text is exactly 1 KiB, built once, so every
// contender serialises the same object on every request
const POST_BASE = { id: 7, items: ['alpha', 'beta', 'gamma', 'delta'], note: '' };
const POST_DOCUMENT = Object.freeze({ ...POST_BASE, note: 'x'.repeat(1024 - JSON.stringify(POST_BASE).length) });
/** Whether `value` is the document `GET /small.json` (and `/cacheable`) answer with. */
export const isSmallJson = (value: unknown) => typeof value === 'object' && value !== null && (value as { id?: unknown }).id === 42;
// (a), and (e) through the proxy
const GET_SMALL_JSON = { kind: 'requests', route: 'GET /small.json', run: (session: Session) => session.getJson('/small.json'), check: isSmallJson } as const;

/** Every scenario, in run order, the transfers titled with `transferSize`. */
export function scenarios(transferSize: number): readonly Scenario[] {
  return [
    { ...GET_SMALL_JSON, id: 'a', title: 'GET /small.json (~100 B JSON)' },
    {
      kind: 'requests',
      id: 'b',
      title: 'POST /echo (1 KiB JSON, echoed back)',
      route: 'POST /echo',
      run: (session) => session.postJson('/echo', POST_DOCUMENT),
      check: (value) => {
        const echoed = value as Partial<typeof POST_DOCUMENT> | null;
        return typeof echoed === 'object' && echoed !== null && echoed.id === POST_DOCUMENT.id && echoed.note?.length === POST_DOCUMENT.note.length;
      },
    },
    {
      kind: 'transfers',
      id: 'c',
      title: `download ${formatSize(transferSize)} to a file`,
      route: 'GET /bytes',
      run: (session, size, files) => session.download(size, files.target),
      verify: (_result, size, files) => checkPatternFile(files.target, size).finally(() => rm(files.target, { force: true })),
    },
    {
      kind: 'transfers',
      id: 'd',
      title: `multipart upload of a ${formatSize(transferSize)} file from a path`,
      route: 'POST /upload',
      run: (session, size, files) => session.upload(files.source(size), size),
      verify(result, size) {
        const { bytes, fileName } = (result ?? {}) as { bytes?: unknown; fileName?: unknown };
        const ok = bytes === size && fileName === UPLOAD_PART.fileName;
        return Promise.resolve(ok ? undefined : `the server counted ${JSON.stringify(result)}, expected ${size} bytes of '${UPLOAD_PART.fileName}'`);
      },
    },
    { ...GET_SMALL_JSON, id: 'e', title: 'GET /small.json through a forward proxy (absolute form; information only)', proxied: true },
  ];
}
