/**
 * Benchmark server, run in its own process (started by `processes.ts`) so that its CPU time never
 * counts towards the client being measured, with the forward proxy of scenario (e) in the same
 * process (its CPU counts as the server's), and the HTTPS listener of scenario (f). Prints one line
 * `{"port":N,"proxyPort":M,"securePort":S,"ca":PEM}` on stdout once all listen on 127.0.0.1, then
 * serves until SIGTERM or until its stdin closes (parent gone).
 *
 * Routes live in {@link ROUTES} (request body read first) and {@link STREAMING_ROUTES} (the
 * handler reads the request itself, for bodies too large to hold): add a scenario's route there.
 *
 * @module
 */
import http from 'node:http';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { writePattern } from './pattern.js';
import { countMultipartUpload } from './upload-counter.js';
import { selfSignedCertificate } from '../spec/support/tls-certificate.js';

/** A route handler: writes the whole response. The request body is already read into `body`. */
type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void;

// ~100 bytes of JSON, built once so the server does the same tiny amount of work per request
const SMALL_JSON = Buffer.from(JSON.stringify({ id: 42, name: 'httpbuilder-ts', ok: true, tags: ['bench', 'small'], score: 3.14, note: 'abcdefghij' }));

/** Requests served per route, for the client's integrity check (`GET /__stats`, with the connection count). */
const served = new Map<string, number>();
/** Connections accepted so far: a client that churns sockets instead of reusing them shows here. */
let connections = 0;

const ROUTES: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  // scenario (a)
  ['GET /small.json', (_req, res) => send(res, 200, 'application/json', SMALL_JSON)],
  // scenario (b): the JSON request body echoed back
  ['POST /echo', (req, res, body) => send(res, 200, req.headers['content-type'] ?? 'application/octet-stream', body)],
  // scenario (g): the same JSON, reusable for an hour
  ['GET /cacheable', (_req, res) => void res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'max-age=3600' }).end(SMALL_JSON)],
  ['GET /__stats', (_req, res) => sendJson(res, { connections, served: Object.fromEntries(served), cpu: process.cpuUsage() })],
]);

/** A route handler that reads the request body itself (or ignores it) and writes the whole response. */
type StreamingHandler = (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => void;

const STREAMING_ROUTES: ReadonlyMap<string, StreamingHandler> = new Map<string, StreamingHandler>([
  // scenario (c): N bytes of the pattern, generated block by block as the client takes them
  [
    'GET /bytes',
    (req, res, url) => {
      req.resume();
      const size = Number(url.searchParams.get('n'));
      if (!Number.isSafeInteger(size) || size < 0) return send(res, 400, 'text/plain', Buffer.from('n must be a byte count\n'));
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': size });
      void writePattern(res, size);
    },
  ],
  // scenario (k): a body of any size, counted as it streams in; answers { bytes }
  [
    'POST /count',
    (req, res) => {
      let bytes = 0;
      req.on('data', (chunk: Buffer) => (bytes += chunk.byteLength));
      req.once('end', () => sendJson(res, { bytes }));
    },
  ],
  // scenario (d): a multipart upload, counted as it streams in; answers { bytes, fileName, total }
  [
    'POST /upload',
    (req, res) =>
      void countMultipartUpload(req).then(
        (count) => sendJson(res, count),
        (error: Error) => {
          req.resume();
          send(res, 400, 'text/plain', Buffer.from(`${error.message}\n`));
        },
      ),
  ],
]);

function send(res: http.ServerResponse, status: number, contentType: string, body: Buffer): void {
  res.writeHead(status, { 'Content-Type': contentType, 'Content-Length': body.byteLength });
  res.end(body);
}

const sendJson = (res: http.ServerResponse, value: unknown) => send(res, 200, 'application/json', Buffer.from(JSON.stringify(value)));

const server = http.createServer((req, res) => {
  const key = `${req.method ?? ''} ${(req.url ?? '').split('?')[0]}`;
  const streaming = STREAMING_ROUTES.get(key);
  if (streaming) {
    served.set(key, (served.get(key) ?? 0) + 1);
    return streaming(req, res, new URL(req.url ?? '/', 'http://127.0.0.1'));
  }
  const handler = ROUTES.get(key);
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    if (!handler) return send(res, 404, 'text/plain', Buffer.from(`no route ${key}\n`));
    served.set(key, (served.get(key) ?? 0) + 1);
    handler(req, res, chunks.length === 1 ? chunks[0] : Buffer.concat(chunks));
  });
});
// scenario (e): a minimal forward proxy for absolute-form requests (`GET http://host:port/path`),
// keep-alive both ways; its connections count with the server's (socket churn shows either side)
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'transfer-encoding']);
const endToEnd = (headers: http.IncomingHttpHeaders) => Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));
const upstream = new http.Agent({ keepAlive: true });
const proxy = http.createServer((req, res) => {
  const fail = (error: Error) => {
    if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' });
    res.end(`proxy: ${error.message}\n`);
  };
  if (!URL.canParse(req.url ?? '')) return fail(new Error(`not an absolute-form request: ${req.url}`));
  const { hostname, port, pathname, search } = new URL(req.url!);
  const options = { agent: upstream, hostname, port, method: req.method, path: pathname + search, headers: endToEnd(req.headers) };
  const forward = http.request(options, (answer) => {
    res.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
    answer.pipe(res);
  });
  forward.once('error', fail);
  req.pipe(forward);
});

for (const s of [server, proxy]) {
  s.on('connection', () => connections++);
  // keep-alive connections must survive the pauses between rounds (node's default is 5 s)
  s.keepAliveTimeout = 120_000;
  s.headersTimeout = 121_000;
}

// scenario (f): HTTPS offering ALPN h2 and http/1.1, answering GET /small.json only; not counted
// (the scenario checks every response itself, and runs after the server's counts are checked)
const { key, cert } = await selfSignedCertificate();
const secure = http2.createSecureServer({ key, cert, allowHTTP1: true }, (req, res) => {
  const found = req.method === 'GET' && req.url === '/small.json';
  res.writeHead(found ? 200 : 404, { 'content-type': found ? 'application/json' : 'text/plain', 'content-length': found ? SMALL_JSON.byteLength : 0 });
  res.end(found ? SMALL_JSON : '');
});
Object.assign(secure, { keepAliveTimeout: 120_000 }); // its HTTP/1.1 side reads it from the server, as http.Server does

// a backlog above node's 511: scenario (j) opens 1,024 connections at once per client
const listening = (s: http.Server | http2.Http2SecureServer) =>
  new Promise<number>((resolve) => s.listen(0, '127.0.0.1', 2048, () => resolve((s.address() as AddressInfo).port)));
void Promise.all([listening(server), listening(proxy), listening(secure)]).then(([port, proxyPort, securePort]) =>
  process.stdout.write(`${JSON.stringify({ port, proxyPort, securePort, ca: cert })}\n`),
);

function shutdown(): void {
  secure.close();
  upstream.destroy();
  proxy.closeAllConnections();
  proxy.close();
  server.closeAllConnections();
  server.close(() => process.exit(0));
}
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
// the parent holds our stdin open: EOF means it is gone, so never linger as an orphan
process.stdin.on('end', shutdown);
process.stdin.resume();
