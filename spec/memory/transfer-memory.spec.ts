/**
 * Large transfers stay out of memory: a 128 MiB download with `Download.toFile`, a 128 MiB
 * multipart upload from a path, a 64 MiB stream of lines read with `Stream.lines`, one
 * 256 MiB line without a line end (refused at 16 MiB), and one 8 MiB line sent 8 bytes per
 * HTTP chunk, against a server on 127.0.0.1, must grow
 * the client's RSS by at most 64 MiB. A client that held the body would grow by at least its size.
 *
 * The client runs in a fresh process per transfer (`spec/support/transfer-client.ts`, with
 * `--expose-gc` for a clean baseline), since a jest worker's RSS moves with everything else it
 * does; the server runs here. The server and the pattern check are the benchmark's own
 * (`bench/`), so both measure the same thing. `npm run bench` measures the same at 256
 * MiB and 1 GiB against raw clients; see docs/performance.md, "Transfers and memory".
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writePattern, writePatternFile, writeRepeated } from '../../bench/pattern.js';
import { countMultipartUpload } from '../../bench/upload-counter.js';
import type { TransferClientJob, TransferClientResult } from '../support/transfer-client.js';

const SIZE = 128 * 2 ** 20;
const LIMIT = 64 * 2 ** 20;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CLIENT = fileURLToPath(new URL('../support/transfer-client.ts', import.meta.url));

let server: http.Server;
let origin: string;
let dir: string;

/** `GET /bytes?n=N`: N pattern bytes, generated as the client reads; `/lines?n=N` and `/one-line?n=N`: N bytes of lines, or of one line without end; `POST /upload`: the file part counted as it streams in. */
function startServer(): Promise<http.Server> {
  const created = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/lines') {
      res.writeHead(200, { 'Content-Type': 'application/x-ndjson' }); // chunked: a stream of unknown length
      void writeRepeated(res, LINES, Number(url.searchParams.get('n')));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/one-line') {
      res.writeHead(200, { 'Content-Type': 'text/plain' }); // chunked, and no line end ever
      void writeRepeated(res, NO_LINE_END, Number(url.searchParams.get('n')));
      return;
    }
    if (req.method === 'GET' && url.pathname === '/tiny-line') {
      res.writeHead(200, { 'Content-Type': 'text/plain' }); // chunked: each write is one HTTP chunk
      void writeRepeated(res, TINY_CHUNK, Number(url.searchParams.get('n'))); // the body's end ends the line
      return;
    }
    if (req.method === 'GET' && url.pathname === '/bytes') {
      const size = Number(url.searchParams.get('n'));
      res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': size });
      void writePattern(res, size);
      return;
    }
    countMultipartUpload(req).then(
      (count) => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(count)),
      (error: Error) => res.writeHead(400).end(error.message),
    );
  });
  return new Promise((resolve) => created.listen(0, '127.0.0.1', () => resolve(created)));
}

/** 512 lines of 127 characters and a `\n`: 64 KiB. */
const LINES = Buffer.from(`${'x'.repeat(127)}\n`.repeat(512));

/** 8 bytes of a line, sent as one HTTP chunk each (`/tiny-line?n=N`: one line of N bytes, no line end). */
const TINY_CHUNK = Buffer.from('xxxxxxxx');

/** 64 KiB of `x`: a line that goes on. */
const NO_LINE_END = Buffer.alloc(64 * 1024, 'x');

/** Runs one transfer in a fresh client process and parses what it prints. */
function runClient(job: TransferClientJob): Promise<TransferClientResult> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', '--import', 'tsx', CLIENT, JSON.stringify(job)], { cwd: ROOT, timeout: 30_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`transfer client failed: ${error.message}\n${stderr}`));
      resolve(JSON.parse(stdout) as TransferClientResult);
    });
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hb-memory-spec-'));
  await writePatternFile(join(dir, `source-${2 ** 20}.bin`), 2 ** 20);
  await writePatternFile(join(dir, `source-${SIZE}.bin`), SIZE);
  server = await startServer();
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 30_000);

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

// fetch too: its backend sends streamed bodies with redirect 'error', so undici keeps no copy (nodejs/undici#4058)
describe.each(['native', 'undici', 'axios', 'got', 'fetch'] as const)('a 64 MiB line stream on the %s backend stays out of memory', (backend) => {
  it('Stream.lines grows RSS by at most 64 MiB', async () => {
    const result = await runClient({ origin, backend, direction: 'lines', size: 64 * 2 ** 20, dir });
    expect(result.problem).toBeUndefined();
    expect(result.bytes).toBe(64 * 2 ** 20);
    expect(result.memory.rssGrowth).toBeLessThanOrEqual(LIMIT);
  }, 60_000);
});

// a server that never ends its line: Stream.lines gives up at 16 MiB (the default bound of a line) instead of holding all of it
describe.each(['native', 'undici', 'axios', 'got', 'fetch'] as const)('one 256 MiB line on the %s backend is refused in bounded memory', (backend) => {
  it('Stream.lines rejects with ResponseTooLargeError, RSS growing by at most 64 MiB', async () => {
    const result = await runClient({ origin, backend, direction: 'one-line', size: 256 * 2 ** 20, dir });
    expect(result.problem).toBeUndefined();
    expect(result.bytes).toBe(0);
    expect(result.memory.rssGrowth).toBeLessThanOrEqual(LIMIT);
  }, 60_000);
});

// a line cut into a million tiny chunks, which the undici backend hands on one by one (native joins what arrived
// together): held in one buffer, not an object per chunk (+170 MB before)
describe.each(['undici'] as const)('an 8 MiB line in 8-byte chunks on the %s backend stays in bounded memory', (backend) => {
  it('Stream.lines reads it whole, RSS growing by at most 64 MiB', async () => {
    const result = await runClient({ origin, backend, direction: 'tiny-line', size: 8 * 2 ** 20, dir });
    expect(result.problem).toBeUndefined();
    expect(result.bytes).toBe(8 * 2 ** 20);
    expect(result.memory.rssGrowth).toBeLessThanOrEqual(LIMIT);
  }, 60_000);
});

describe.each(['native', 'axios', 'got', 'fetch'] as const)('128 MiB transfers on the %s backend stay out of memory', (backend) => {
  it('Download.toFile grows RSS by at most 64 MiB', async () => {
    const result = await runClient({ origin, backend, direction: 'download', size: SIZE, dir });
    expect(result.problem).toBeUndefined();
    expect(result.bytes).toBe(SIZE);
    expect(result.memory.rssGrowth).toBeLessThanOrEqual(LIMIT);
  }, 30_000);

  it('a multipart upload from a path grows RSS by at most 64 MiB', async () => {
    const result = await runClient({ origin, backend, direction: 'upload', size: SIZE, dir });
    expect(result.bytes).toBe(SIZE);
    expect(result.memory.rssGrowth).toBeLessThanOrEqual(LIMIT);
  }, 30_000);
});
