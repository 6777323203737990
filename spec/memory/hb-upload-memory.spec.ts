/**
 * `hb post ... --data @file` streams the file: a 200 MiB upload must grow hb's RSS by at most
 * 64 MiB over the same command sending a 1 KiB file. hb runs as a child process (the built
 * CLI); its VmRSS is sampled from /proc/<pid>/status while it runs, and the peak taken. A hb
 * that read the file whole would grow by at least its size.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PATTERN, writePatternFile } from '../../bench/pattern.js';
import { builtCli } from '../cli/support/built-cli.js';
import { runHb } from '../cli/support/run-hb.js';

const SIZE = 200 * 2 ** 20;
const LIMIT = 64 * 2 ** 20;

let cli = '';
let dir = '';
let server: http.Server;
let origin = '';

/** `POST /upload`: the body counted and hashed as it streams in; answers `{ bytes, sha256 }`. */
function startServer(): Promise<http.Server> {
  const created = http.createServer((req, res) => {
    const hash = createHash('sha256');
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      hash.update(chunk);
    });
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ bytes, sha256: hash.digest('hex') })));
  });
  return new Promise((resolve) => created.listen(0, '127.0.0.1', () => resolve(created)));
}

beforeAll(async () => {
  cli = await builtCli();
  dir = mkdtempSync(join(tmpdir(), 'hb-upload-memory-'));
  await writePatternFile(join(dir, 'big.bin'), SIZE);
  await writePatternFile(join(dir, 'small.bin'), 1024);
  server = await startServer();
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  await new Promise((done) => server.close(done));
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `hb post <origin>/upload --data @<file>`, sampling its VmRSS every 10 ms; the server's answer and the peak. */
async function upload(file: string): Promise<{ answer: { bytes: number; sha256: string }; peakRss: number }> {
  let peakRss = 0;
  let sampler: NodeJS.Timeout | undefined;
  const result = await runHb(cli, ['post', `${origin}/upload`, '--data', `@${file}`], {
    timeout: 120_000,
    started: (child) => {
      const sample = () => {
        try {
          const kib = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
          if (kib !== undefined) peakRss = Math.max(peakRss, Number(kib) * 1024);
        } catch {
          // the process has exited between two samples
        }
      };
      sample();
      sampler = setInterval(sample, 10);
    },
  }).finally(() => clearInterval(sampler));
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return { answer: JSON.parse(result.stdout.toString()) as { bytes: number; sha256: string }, peakRss };
}

/** The sha256 of the pattern file of `size` bytes, computed as the server does. */
function patternDigest(size: number): string {
  const hash = createHash('sha256');
  for (let left = size; left > 0; left -= PATTERN.length) hash.update(PATTERN.subarray(0, Math.min(left, PATTERN.length)));
  return hash.digest('hex');
}

describe('hb --data @file memory', () => {
  it('a 200 MiB upload grows hb’s peak RSS by at most 64 MiB over a 1 KiB one', async () => {
    const small = await upload(join(dir, 'small.bin'));
    const big = await upload(join(dir, 'big.bin'));
    expect(big.answer).toEqual({ bytes: SIZE, sha256: patternDigest(SIZE) });
    expect(small.peakRss).toBeGreaterThan(0);
    expect(big.peakRss - small.peakRss).toBeLessThanOrEqual(LIMIT);
  }, 180_000);
});
