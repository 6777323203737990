/**
 * The server the portable scenarios (scenarios.ts) run against, on 127.0.0.1 and a free port:
 * every answer carries CORS headers and any OPTIONS is a preflight, so a page or a Worker
 * served from another origin can call it too. Run it alone with
 * `npx tsx spec/portable/server.ts`: it prints its base URL and serves until stopped.
 *
 * | route | answer |
 * |---|---|
 * | `GET /users/42` | `{ id: 42, name: 'Ada' }` |
 * | `GET /missing` | 404 `{ error: 'no such thing' }` |
 * | `GET /fail` | 500 `{ error: 'boom' }` |
 * | any `/echo` | the request as JSON: `method`, `path`, `headers` (lower-case names), `body` (text) |
 * | `POST /upload` | the multipart parts: `[{ name, fileName?, contentType?, size, text }]` |
 * | `GET /basic` | 200 with Basic `alice` / `wonder land`, else 401 |
 * | `GET /digest/MD5`, `/digest/SHA-256` | 200 with Digest (qop=auth) for the same user, else 401 |
 * | `GET /flaky?key=K` | 503 (`Retry-After: 0`) to the first request of each key, then 200 `{ attempts }` |
 * | `GET /slow-head?ms=N` | the head after N ms (at most 5 s) |
 * | `GET /slow-body` | the head and `[1,` at once, the rest after 2 s |
 * | `GET /gzip` | gzip-coded JSON `{ zipped: true }` |
 * | `GET /lines`, `/ndjson` | lines (LF and CRLF) and NDJSON in several chunks |
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { parseMultipart } from '../support/multipart-parser.js';
import { basicAccepted, basicChallenge, digestAccepted, digestChallenge } from './server-auth.js';

/** A running portable server. */
export interface PortableServer {
  /** `http://127.0.0.1:PORT` (no trailing slash). */
  readonly url: string;
  close(): Promise<void>;
}

const CORS: Readonly<Record<string, string>> = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'WWW-Authenticate, Authentication-Info, Retry-After, Location, Link, Content-Encoding, Content-Length, X-Attempts',
  'Access-Control-Max-Age': '600',
};

/** Starts the server on 127.0.0.1 and a free port. */
export async function startPortableServer(): Promise<PortableServer> {
  const attempts = new Map<string, number>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const server: Server = createServer((request, response) => {
    for (const [name, value] of Object.entries(CORS)) response.setHeader(name, value);
    const later = (ms: number, then: () => void) => {
      const timer = setTimeout(() => {
        timers.delete(timer);
        then();
      }, ms);
      timers.add(timer);
      response.on('close', () => {
        clearTimeout(timer);
        timers.delete(timer);
      });
    };
    readBody(request)
      .then((body) => route(request, response, body, { attempts, later }))
      .catch((error: unknown) => {
        if (!response.headersSent) json(response, 500, { error: String(error) });
        else response.destroy();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      for (const timer of timers) clearTimeout(timer);
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

interface RouteState {
  readonly attempts: Map<string, number>;
  /** A timer cleared when the response closes (a client that gave up) or the server stops. */
  readonly later: (ms: number, then: () => void) => void;
}

function route(request: IncomingMessage, response: ServerResponse, body: Buffer, state: RouteState): void {
  const url = new URL(request.url ?? '/', 'http://portable');
  const path = url.pathname;
  if (request.method === 'OPTIONS') return preflight(request, response);
  if (path === '/users/42') return json(response, 200, { id: 42, name: 'Ada' });
  if (path === '/missing') return json(response, 404, { error: 'no such thing' });
  if (path === '/fail') return json(response, 500, { error: 'boom' });
  if (path === '/echo') return json(response, 200, echo(request, body, path));
  if (path === '/upload') return json(response, 200, parts(request, body));
  if (path === '/basic') return basicAccepted(request) ? json(response, 200, { user: 'alice' }) : challenge(response, basicChallenge());
  const digest = /^\/digest\/(MD5|SHA-256)$/.exec(path)?.[1] as 'MD5' | 'SHA-256' | undefined;
  if (digest) return digestAccepted(request, digest) ? json(response, 200, { user: 'alice', algorithm: digest }) : challenge(response, digestChallenge(digest));
  if (path === '/flaky') return flaky(response, url.searchParams.get('key') ?? '', state.attempts);
  if (path === '/slow-head') return state.later(Math.min(Number(url.searchParams.get('ms')) || 0, 5000), () => json(response, 200, { slow: true }));
  if (path === '/slow-body') return slowBody(response, state);
  if (path === '/gzip') return gzipped(response);
  if (path === '/lines') return chunked(response, 'text/plain; charset=utf-8', ['one\ntw', 'o\r\nthree', '\n'], state);
  if (path === '/ndjson') return chunked(response, 'application/x-ndjson', ['{"n":1}\n{"n"', ':2}\n\n{"n":3}\n'], state);
  json(response, 404, { error: `no route ${path}` });
}

function preflight(request: IncomingMessage, response: ServerResponse): void {
  response.writeHead(204, {
    'Access-Control-Allow-Methods': 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS',
    'Access-Control-Allow-Headers': request.headers['access-control-request-headers'] ?? '*',
  });
  response.end();
}

function json(response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(value);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text), ...headers });
  response.end(text);
}

function challenge(response: ServerResponse, value: string): void {
  json(response, 401, { error: 'who are you?' }, { 'WWW-Authenticate': value });
}

function echo(request: IncomingMessage, body: Buffer, path: string): unknown {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) headers[name] = Array.isArray(value) ? value.join(', ') : (value ?? '');
  return { method: request.method, path, headers, body: body.toString('utf8') };
}

function parts(request: IncomingMessage, body: Buffer): unknown {
  return parseMultipart(body, request.headers['content-type']).parts.map((part) => ({
    name: part.disposition?.params.name,
    fileName: part.disposition?.params.filename,
    contentType: part.headers['content-type'],
    size: part.body.length,
    text: part.body.toString('utf8'),
  }));
}

function flaky(response: ServerResponse, key: string, attempts: Map<string, number>): void {
  const count = (attempts.get(key) ?? 0) + 1;
  attempts.set(key, count);
  if (count === 1) return json(response, 503, { error: 'try again' }, { 'Retry-After': '0', 'X-Attempts': String(count) });
  json(response, 200, { attempts: count }, { 'X-Attempts': String(count) });
}

function slowBody(response: ServerResponse, state: RouteState): void {
  response.writeHead(200, { 'Content-Type': 'application/json' });
  response.write('[1,');
  state.later(2000, () => response.end('2]'));
}

function gzipped(response: ServerResponse): void {
  const coded = gzipSync(JSON.stringify({ zipped: true }));
  response.writeHead(200, { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip', 'Content-Length': coded.length });
  response.end(coded);
}

/** `chunks` written 20 ms apart, so a reader sees them arrive one by one. */
function chunked(response: ServerResponse, contentType: string, chunks: readonly string[], state: RouteState): void {
  response.writeHead(200, { 'Content-Type': contentType });
  const next = (index: number): void => {
    if (index === chunks.length) return void response.end();
    response.write(chunks[index]);
    state.later(20, () => next(index + 1));
  };
  next(0);
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

// run alone: print the base URL and serve until stopped
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  void startPortableServer().then((server) => {
    console.log(server.url);
    process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
  });
}
