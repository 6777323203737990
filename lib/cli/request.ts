import { stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import type { CookieJar } from 'tough-cookie';
import { multipart } from '../content/multipart.js';
import type { HttpConfig } from '../config/http-config.js';
import { HttpBuilder } from '../http-builder.js';
import type { CliRequest, Pair } from './args.js';
import type { CliBody } from './body.js';
import { errorCode, UsageError } from './failure.js';
import { verbose } from './verbose.js';
import { checkDownloadTarget } from '../download-target.js';
import { ConfigError } from '../core/errors.js';
import type { CacheOptions } from '../config/cache-options.js';
import type { Backend, TlsOptions } from '../model/backend.js';
import type { BackendName } from '../config/client-config.js';
import { applyTransport } from './transport-config.js';

/** Content types for `--file` parts, by file extension; anything else is `application/octet-stream`. */
const FILE_TYPES: Readonly<Record<string, string>> = {
  '.txt': 'text/plain',
  '.csv': 'text/csv',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.xml': 'application/xml',
  '.json': 'application/json',
  '.pdf': 'application/pdf',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
};

/** The `Content-Type` of a `--file` part, from the file's extension. */
export function fileContentType(path: string): string {
  return FILE_TYPES[extname(path).toLowerCase()] ?? 'application/octet-stream';
}

/**
 * The client for one command line: the URL (credentials in it become Basic credentials, as
 * the library does), `--backend`, `--http2`, the TLS options (`tls`, from `loadTls`), `--proxy` and `--noproxy` (with `-v`, each exchange's heads go to
 * `trace`), `--timeout` for the whole call, `--retry` with the library's default methods and
 * statuses, the `--session` jar, the `--cache` folder's cache (`openFileCache`) and the transport
 * flags (`applyTransport`); `wrap`, when given, wraps the backend (the print modes'
 * `exchangePrinter`). The caller closes it.
 */
export function createClient(
  request: CliRequest,
  tls: TlsOptions | undefined,
  jar: CookieJar | undefined,
  trace: { write(text: string): unknown },
  cache: CacheOptions | undefined,
  wrap?: (inner: BackendName | Backend | undefined) => Backend,
): HttpBuilder {
  return HttpBuilder.configure((c) => {
    c.request.uri = request.url;
    // -v wraps the backend the client makes with the settings below; the cache counts them in its connection identity too
    const backend = request.verbose ? verbose(request.backend, trace) : request.backend;
    if (wrap !== undefined) c.client.backend = wrap(backend);
    else if (backend !== undefined) c.client.backend = backend;
    if (tls !== undefined) c.execution.tls = tls;
    if (request.http2) c.client.http2 = true;
    if (request.publicOnly) c.client.publicOnly = true;
    // the environment's proxies unless --proxy names one; --noproxy replaces no_proxy either way
    if (request.proxy !== undefined || request.noProxy !== undefined) c.client.proxy = { url: request.proxy, noProxy: request.noProxy };
    if (request.timeout !== undefined) c.execution.timeout = { total: request.timeout };
    if (request.retry !== undefined) c.execution.retry = { limit: request.retry };
    if (jar !== undefined) c.client.cookies = jar;
    if (cache !== undefined) c.client.cache = cache;
    applyTransport(c, request.transport);
  });
}

/**
 * Checks that every `--file` names a readable regular file, so that a typo fails before
 * anything is sent.
 *
 * @throws {UsageError} naming the file.
 */
export async function checkFiles(request: CliRequest): Promise<void> {
  for (const { path } of request.files) {
    const info = await stat(path).catch((error: unknown) => {
      throw new UsageError(`--file: cannot read '${path}' (${errorCode(error)})`);
    });
    if (!info.isFile()) throw new UsageError(`--file: '${path}' is not a file`);
  }
}

/**
 * Checks that `-o` and `--session` can be written, as `Download.toFile` would (folder there, not
 * a directory), so that a typo is a usage error before anything is sent (as `--file` is), not
 * after the answer.
 *
 * @throws {UsageError} naming the path.
 */
export function checkTargets(request: CliRequest): void {
  for (const [file, option] of [
    [request.output, '-o'],
    [request.session, '--session'],
  ] as const) {
    try {
      if (file !== undefined) checkDownloadTarget(file, option);
    } catch (error) {
      throw error instanceof ConfigError ? new UsageError(error.message) : error;
    }
  }
}

/**
 * Writes the request options of the command line into a request block's config: headers,
 * query, body (`--json` and `--data` as `body` read them, `--form`, `--file`) and credentials.
 *
 * - Repeated `-H` names (case-insensitive) are joined with `, `; `-H 'Content-Type: ...'` sets
 *   `request.contentType` (it also overrides `--json`'s `application/json` and `--data`'s
 *   `application/octet-stream`).
 * - `--json` and `--data` send their bytes as they are; `--json` asks for
 *   `Accept: application/json` unless `-H` sets Accept.
 * - `--form` alone is urlencoded; with any `--file` the fields and files (in that order) go into one
 *   multipart/form-data body.
 * - `--basic` is sent with the first request (as curl does); `--digest` answers the challenge.
 * - `--compress` and `--compress-with` compress the body (`request.compress`).
 */
export function applyRequest(c: HttpConfig, request: CliRequest, body: CliBody | undefined): void {
  const headers = groupHeaders(request.headers);
  const contentType = headers.get('content-type');
  headers.delete('content-type');
  for (const [name, value] of headers.values()) c.request.headers[name] = value;
  if (contentType !== undefined) c.request.contentType = contentType[1];

  if (request.query.length > 0) c.request.uri.query = groupPairs(request.query);

  if (body !== undefined) {
    c.request.contentType = contentType?.[1] ?? (body.json ? 'application/json' : 'application/octet-stream');
    c.request.body = body.content;
    if (body.json && !headers.has('accept')) c.request.headers.Accept = 'application/json';
  } else if (request.files.length > 0) {
    c.request.contentType = 'multipart/form-data';
    c.request.body = multipart((mp) => {
      for (const [name, value] of request.form) mp.field(name, value);
      for (const { name, path } of request.files) mp.part(name, basename(path), fileContentType(path), { path });
    });
  } else if (request.form.length > 0) {
    c.request.contentType = 'application/x-www-form-urlencoded';
    c.request.body = groupPairs(request.form);
  }

  if (request.auth?.scheme === 'basic') c.request.auth.basic(request.auth.user, request.auth.password, { preemptive: true });
  if (request.auth?.scheme === 'digest') c.request.auth.digest(request.auth.user, request.auth.password);
  if (request.auth?.scheme === 'bearer') c.request.auth.bearer(request.auth.token);
  // `Name:` items: a header hb would send (its defaults too) left out, as httpie does
  for (const name of request.unsetHeaders) c.request.headers[name] = null;
  if (request.compress !== undefined) c.request.compress = request.compress;
}

/** Header pairs by lower-cased name: the name as first written, and the values joined with `, `. */
function groupHeaders(pairs: readonly Pair[]): Map<string, [string, string]> {
  const byName = new Map<string, [string, string]>();
  for (const [name, value] of pairs) {
    const seen = byName.get(name.toLowerCase());
    if (seen) seen[1] += `, ${value}`;
    else byName.set(name.toLowerCase(), [name, value]);
  }
  return byName;
}

/** `name=value` pairs as a query or form object: a repeated name becomes a list, in order. */
function groupPairs(pairs: readonly Pair[]): Record<string, string | string[]> {
  const grouped = new Map<string, string[]>();
  for (const [name, value] of pairs) grouped.set(name, [...(grouped.get(name) ?? []), value]);
  // a Map plus fromEntries keeps a name such as __proto__ an ordinary key
  return Object.fromEntries([...grouped].map(([name, values]) => [name, values.length === 1 ? values[0] : values]));
}
