// The backend MockBackend.record returns: each request goes through a real backend, and the
// exchange is appended to a HAR file before the response is handed back.
import { randomBytes } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { rename, rm, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ConfigError } from '../core/errors.js';
import { describeValue } from '../core/describe-value.js';
import type { BackendName } from '../config/client-config.js';
import { streamedBody, type Backend, type TlsOptions, type TransportOptions, type WireRequest, type WireResponse } from '../model/backend.js';
import { contentCodings, decompress } from '../model/decompress.js';
import { backendFor } from '../backends/registry.js';
import { WITH_TRANSPORT, type TransportAware } from '../backends/backend-choice.js';
import { emptyHar, harEntry, readHar, type HarEntry } from './har.js';

/** The third argument of `MockBackend.record`. */
export interface HarRecordOptions {
  /**
   * TLS settings of the backend made from a name, for a client without `execution.tls` (which
   * the recorder uses as the client would); setting both, or this with a Backend object (which
   * brings its own), is a ConfigError.
   */
  readonly tls?: TlsOptions;
}

const CALLER = 'MockBackend.record';

/** What a recorder sends through: a backend's name (with `options.tls`), or a Backend object. */
interface Source {
  readonly choice: BackendName | Backend | undefined;
  readonly tls: TlsOptions | undefined;
}

/** The recording backend of `MockBackend.record(file, backend, options)`. */
export function harRecorder(file: string, choice: BackendName | Backend | undefined, options: HarRecordOptions | undefined): Backend {
  if (typeof file !== 'string' || file === '') throw new ConfigError(`${CALLER}: the file must be a path, not ${describeValue(file)}`);
  const given = typeof choice === 'object' && choice !== null;
  if (given && options?.tls !== undefined)
    throw new ConfigError(`${CALLER}: options.tls applies to a backend made from a name; a Backend object brings its own TLS settings`);
  // fail now, not at the first request, when the file is there but no HAR
  if (hasContent(file)) readHar(file, CALLER);
  return new HarRecorder(resolve(file), { choice, tls: options?.tls }, { tls: undefined, connection: undefined });
}

/**
 * Records what its inner backend exchanges. As `client.backend` it is given the client's
 * `execution.tls`, `client.connection` and `client.http2` (see {@link WITH_TRANSPORT}) and makes
 * its inner backend with them, so it sends exactly as the client would without it.
 */
class HarRecorder implements TransportAware {
  readonly name: string;
  readonly proxies: boolean | undefined;
  readonly #inner: Backend;
  /** Whether the inner backend is this recorder's to close: made here, not a Backend object passed in. */
  readonly #owned: boolean;

  constructor(
    private readonly file: string,
    private readonly source: Source,
    transport: TransportOptions,
  ) {
    this.#inner = innerBackend(source, transport);
    this.#owned = this.#inner !== source.choice;
    this.name = `har-recorder(${this.#inner.name})`;
    // requests carry the proxy route only to a backend that declares it follows them
    this.proxies = this.#inner.proxies;
  }

  /** The recorder of a client's pool: its inner backend made with the client's transport settings. */
  [WITH_TRANSPORT](transport: TransportOptions): Backend {
    return new HarRecorder(this.file, this.source, transport);
  }

  async send(request: WireRequest): Promise<WireResponse> {
    const started = new Date();
    const start = performance.now();
    const [sent, requestBody] = await withBodyRead(request);
    const response = await this.#inner.send(sent);
    const headed = performance.now();
    const wireBody = await readAll(response);
    const wait = headed - start;
    const receive = performance.now() - headed;
    const content = await decoded(response, wireBody);
    await appendEntry(this.file, harEntry({ started, request: sent, requestBody, response, wireBody, content, wait, receive }));
    return inMemory(response, wireBody);
  }

  /** Closes the backend made from a name; a Backend object passed in is its owner's to close. */
  async close(): Promise<void> {
    if (this.#owned) await this.#inner.close();
  }
}

/** The backend a recorder sends through, made with `transport` (a client's settings, or none yet). */
function innerBackend(source: Source, transport: TransportOptions): Backend {
  if (source.tls !== undefined && transport.tls !== undefined)
    throw new ConfigError(`${CALLER}: options.tls and the client's execution.tls are both set: set execution.tls alone (the recorder uses it)`);
  // a name is made with the client's settings; a Backend object is used as the client would use it
  return backendFor(source.choice ?? 'native', { ...transport, tls: transport.tls ?? source.tls });
}

/** The request with its body in memory, and those bytes: a streamed body is read to be recorded, then sent as one chunk. */
async function withBodyRead(request: WireRequest): Promise<[WireRequest, Uint8Array | undefined]> {
  const body = request.body;
  if (body === undefined) return [request, undefined];
  if (body.bytes !== undefined) return [request, body.bytes]; // the same body goes on: fetch may send its text as it is
  const bytes = await collect(body);
  // the length as it was: an unknown one still goes chunked, as the pipeline's headers expect
  return [{ ...request, body: streamedBody(once(bytes), body.length) }, bytes];
}

async function readAll(response: WireResponse): Promise<Uint8Array> {
  return response.readAll ? await response.readAll() : await collect(response.body);
}

/** The body with its Content-Encoding undone (fetch did it already); `undefined` when the coding cannot be undone. */
async function decoded(response: WireResponse, body: Uint8Array): Promise<Uint8Array | undefined> {
  if (response.decoded) return body;
  const header = response.headers
    .filter(([name]) => name.toLowerCase() === 'content-encoding')
    .map(([, value]) => value)
    .join(', ');
  try {
    const codings = contentCodings(header, response.statusCode);
    return codings.length === 0 ? body : await collect(decompress(once(body), codings));
  } catch {
    return undefined; // unsupported or corrupt: recorded as it came (the pipeline will fail it the same way)
  }
}

/** The response again, its body now in memory. */
function inMemory(response: WireResponse, body: Uint8Array): WireResponse {
  return {
    statusCode: response.statusCode,
    message: response.message,
    headers: response.headers,
    body: once(body),
    decoded: response.decoded,
    httpVersion: response.httpVersion,
    discard: () => {},
    readAll: () => Promise.resolve(body),
  };
}

async function collect(source: AsyncIterable<Uint8Array>): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/** `bytes` as a body of one chunk (none when empty). */
function once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]: () => {
      let done = bytes.length === 0;
      return { next: () => Promise.resolve(done ? { done: true, value: undefined } : ((done = true), { done: false, value: bytes })) };
    },
  };
}

function hasContent(file: string): boolean {
  return existsSync(file) && statSync(file).size > 0;
}

/**
 * One write at a time per file (recorders of one process share it): each appends to what the
 * last one wrote. Read, add, write to a new temporary file and rename: the file is one valid HAR
 * document at every moment, even if the process dies mid-write. The file is its owner's alone
 * (mode 0600, as ~/.netrc): query strings and bodies stay in it. The rename puts a new file in
 * the place of one that was there, whatever that one's mode (0644, say), and of a symbolic link
 * rather than writing through it.
 */
const writing = new Map<string, Promise<void>>();

function appendEntry(file: string, entry: HarEntry): Promise<void> {
  const done = (writing.get(file) ?? Promise.resolve()).then(async () => {
    const har = hasContent(file) ? readHar(file, CALLER) : emptyHar();
    har.log.entries.push(entry);
    // a name nobody can have made ready for it ('wx': never through a link another user planted)
    const temporary = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, `${JSON.stringify(har, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
      await rename(temporary, file);
    } catch (error) {
      // a full disk leaves no half file behind (one that was there is not ours to remove)
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') await rm(temporary, { force: true });
      throw error;
    }
  });
  const settled = done.catch(() => {}); // a failed write fails its request, not the next one
  writing.set(file, settled);
  void settled.then(() => writing.get(file) === settled && writing.delete(file));
  return done;
}
