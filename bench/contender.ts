/**
 * What a benchmark contender is: a client that can be opened against the benchmark server and
 * then does what every scenario asks the same way as the others: the same request, the whole
 * body read (parsed as JSON, or streamed to or from a file), nothing else kept.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** The two kinds of scenario: many small requests, or one large transfer. */
export type ScenarioKind = 'requests' | 'transfers';

/** One open client (its own connection pool). */
export interface Session {
  /** GET `path`, read the whole body and resolve to `JSON.parse` of it. */
  getJson(path: string): Promise<unknown>;
  /** POST `JSON.stringify(body)` as `application/json` to `path`, resolve to `JSON.parse` of the answer. */
  postJson(path: string, body: object): Promise<unknown>;
  /** `GET /bytes?n=size`, the body streamed into `file` (created or truncated); resolves once all of it is written. */
  download(size: number, file: string): Promise<unknown>;
  /** `POST /upload` of `source` (a file of `size` bytes) as one multipart file part, streamed; resolves to the server's JSON answer. */
  upload(source: string, size: number): Promise<unknown>;
  /** `GET /bytes?n=size`, the whole body read into memory; resolves to it (the scaling scenario (k); the contenders it compares have it). */
  getBytes?(size: number): Promise<Uint8Array>;
  /** `POST /count` of `body` (`application/octet-stream`, sent from memory); resolves to the server's JSON answer `{ bytes }` (scenario (k)). */
  postBytes?(body: Uint8Array): Promise<unknown>;
  /** Releases sockets so the process can exit. */
  close(): Promise<void>;
}

/** A client under test. */
export interface Contender {
  readonly name: string;
  /** What it does, per kind of scenario, for the report. */
  readonly description: Readonly<Record<ScenarioKind, string>>;
  /** The reference every contender is also compared against (exactly one: raw node:http). */
  readonly baseline?: boolean;
  /** Name of the raw client this contender runs on, compared round by round; selecting a contender selects it too. */
  readonly counterpart?: string;
  /** Upper bound for CPU per request ÷ the counterpart's in the request scenarios, if it has one. */
  readonly target?: number;
  /** Whether it runs the proxied scenario (e), then opened with `proxy`. */
  readonly proxied?: boolean;
  /** Opens a client on `origin` (`http://127.0.0.1:PORT`), through `proxy` if given; rejects when its package is missing (the contender then fails). */
  open(origin: string, proxy?: string): Promise<Session>;
}

/** The server's download route: `GET /bytes?n=N` streams N bytes of the pattern (`pattern.ts`). */
export const DOWNLOAD_PATH = '/bytes';
/** The server's upload route: counts the file part and answers `{ bytes, fileName, total }` (`upload-counter.ts`). */
export const UPLOAD_PATH = '/upload';
/** The server's byte-counting route: reads the request body and answers `{ bytes }`. */
export const COUNT_PATH = '/count';
/** Field name, file name and type of the one part every upload sends. */
export const UPLOAD_PART = { name: 'file', fileName: 'big.bin', contentType: 'application/octet-stream' } as const;

/**
 * The request headers the library sends by default (besides its `User-Agent` value): raw clients
 * send the same so that the server does identical work for everyone.
 */
export function libraryLikeHeaders(client: string): Record<string, string> {
  return { 'User-Agent': `raw-${client}`, Accept: '*/*', 'Accept-Encoding': 'gzip, deflate, br' };
}

/** A session's `close` for a client on node agents: destroys them, closing their pooled sockets. */
export function closeAgents(...agents: readonly { destroy(): void }[]): () => Promise<void> {
  return () => {
    for (const agent of agents) agent.destroy();
    return Promise.resolve();
  };
}

/**
 * Frames `source` (`size` bytes) by hand as the one file part of a `multipart/form-data` body, for
 * the raw clients: its headers, and the body to read once (the file streamed, never whole in memory).
 */
export function handBuiltMultipart(source: string, size: number): { headers: Record<'Content-Type' | 'Content-Length', string>; body: AsyncIterable<Buffer> } {
  const boundary = `raw-${randomBytes(16).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${UPLOAD_PART.name}"; filename="${UPLOAD_PART.fileName}"\r\n` +
      `Content-Type: ${UPLOAD_PART.contentType}\r\n\r\n`,
  );
  const closing = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* body(): AsyncGenerator<Buffer> {
    yield head;
    yield* createReadStream(source) as AsyncIterable<Buffer>;
    yield closing;
  }
  const length = String(head.byteLength + size + closing.byteLength);
  return { headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': length }, body: body() };
}
