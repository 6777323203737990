// The backend MockBackend.record returns: each request goes through a real backend, and the
// exchange is appended to a HAR file before the response is handed back.
import { existsSync, statSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ConfigError } from '../core/errors.js';
import { describeValue } from '../core/describe-value.js';
import type { BackendName } from '../config/client-config.js';
import { streamedBody, type Backend, type TlsOptions, type WireRequest, type WireResponse } from '../model/backend.js';
import { contentCodings, decompress } from '../model/decompress.js';
import { backendFor } from '../backends/registry.js';
import { emptyHar, harEntry, readHar, type HarEntry } from './har.js';

/** The third argument of `MockBackend.record`. */
export interface HarRecordOptions {
  /**
   * TLS settings of the backend made from a name (a private CA for a test server, a client
   * certificate); a Backend object has its own, so passing both is a ConfigError.
   */
  readonly tls?: TlsOptions;
}

const CALLER = 'MockBackend.record';

/** The recording backend of `MockBackend.record(file, backend, options)`. */
export function harRecorder(file: string, choice: BackendName | Backend | undefined, options: HarRecordOptions | undefined): Backend {
  if (typeof file !== 'string' || file === '') throw new ConfigError(`${CALLER}: the file must be a path, not ${describeValue(file)}`);
  const given = typeof choice === 'object' && choice !== null;
  if (given && options?.tls !== undefined)
    throw new ConfigError(`${CALLER}: options.tls applies to a backend made from a name; a Backend object brings its own TLS settings`);
  // fail now, not at the first request, when the file is there but no HAR
  if (hasContent(file)) readHar(file, CALLER);
  const inner = backendFor(choice ?? 'native', { tls: options?.tls, connection: undefined });
  return new HarRecorder(resolve(file), inner, !given);
}

class HarRecorder implements Backend {
  readonly name: string;
  readonly proxies: boolean | undefined;

  constructor(
    private readonly file: string,
    private readonly inner: Backend,
    private readonly owned: boolean,
  ) {
    this.name = `har-recorder(${inner.name})`;
    // requests carry the proxy route only to a backend that declares it follows them
    this.proxies = inner.proxies;
  }

  async send(request: WireRequest): Promise<WireResponse> {
    const started = new Date();
    const start = performance.now();
    const [sent, requestBody] = await withBodyRead(request);
    const response = await this.inner.send(sent);
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
    if (this.owned) await this.inner.close();
  }
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
 * last one wrote. Read, add, write to a temporary file and rename: the file is one valid HAR
 * document at every moment, even if the process dies mid-write.
 */
const writing = new Map<string, Promise<void>>();
let written = 0;

function appendEntry(file: string, entry: HarEntry): Promise<void> {
  const done = (writing.get(file) ?? Promise.resolve()).then(async () => {
    const har = hasContent(file) ? readHar(file, CALLER) : emptyHar();
    har.log.entries.push(entry);
    const temporary = `${file}.${process.pid}.${++written}.tmp`;
    await writeFile(temporary, `${JSON.stringify(har, null, 2)}\n`);
    await rename(temporary, file);
  });
  const settled = done.catch(() => {}); // a failed write fails its request, not the next one
  writing.set(file, settled);
  void settled.then(() => writing.get(file) === settled && writing.delete(file));
  return done;
}
