import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createGzip, gzipSync } from 'node:zlib';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { ResponseTooLargeError } from '../../lib/index.js';
import { Download } from '../../lib/download.js';
import { rawServer, type RawServer } from '../support/raw-server.js';
import { BACKENDS } from './backends.js';
import { conformance } from './kit.js';
import { backendClients } from '../support/backend-clients.js';

const LIMIT = 1000;
const big = 'x'.repeat(LIMIT + 1);

conformance('execution.maxResponseSize', (kit) => {
  const limited = () => kit.client((c) => void (c.execution.maxResponseSize = LIMIT));

  it('a body of exactly the limit is accepted', async () => {
    kit.server.expect({ method: 'GET', path: '/fits', respond: { body: 'y'.repeat(LIMIT), headers: { 'Content-Type': 'text/plain' } } });
    await expect(limited().get((c) => void (c.request.uri.path = '/fits'))).resolves.toHaveLength(LIMIT);
  });

  it('one byte more (Content-Length) → ResponseTooLargeError', async () => {
    kit.server.expect({ method: 'GET', path: '/big', respond: { body: big, headers: { 'Content-Type': 'text/plain' } } });
    const error = await limited()
      .get((c) => {
        c.request.uri.path = '/big';
        c.request.uri.query = { api_key: 'S3CRET' };
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    // the URL as other errors show it: a credential-like query value hidden
    expect(error).toMatchObject({
      code: 'ERR_RESPONSE_TOO_LARGE',
      message: expect.stringMatching(/\/big\?api_key=\*\*\* is larger than execution.maxResponseSize \(1000 bytes\)/),
    });
  });

  it('a chunked body is counted as it arrives', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/chunked',
      respond: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        for (let i = 0; i < 11; i++) res.write('z'.repeat(100));
        res.end();
      },
    });
    await expect(limited().get((c) => void (c.request.uri.path = '/chunked'))).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('is counted after decompression: a small gzip body that decodes beyond the limit is refused', async () => {
    kit.server.expect({ method: 'GET', path: '/gz', respond: { body: 'a'.repeat(50_000), encoding: 'gzip', headers: { 'Content-Type': 'text/plain' } } });
    await expect(limited().get((c) => void (c.request.uri.path = '/gz'))).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('applies to error bodies too', async () => {
    kit.server.expect({ method: 'GET', path: '/error', respond: { status: 500, body: big, headers: { 'Content-Type': 'text/plain' } } });
    await expect(limited().get((c) => void (c.request.uri.path = '/error'))).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it('applies to downloads: the partial file is removed', async () => {
    kit.server.expect({ method: 'GET', path: '/download', respond: { body: big, headers: { 'Content-Type': 'text/plain' } } });
    const file = join(tmpdir(), `hb-limit-${process.pid}-${Date.now()}.txt`);
    await expect(
      limited().get((c) => {
        c.request.uri.path = '/download';
        Download.toFile(c, file);
      }),
    ).rejects.toBeInstanceOf(ResponseTooLargeError);
    expect(existsSync(file)).toBe(false);
  });
});

describe('hostile responses', () => {
  let bomb: Buffer;
  let bombServer: RawServer;
  let manyHeaders: RawServer;
  let hugeHeader: RawServer;
  beforeAll(async () => {
    // 1 GiB of zeros, gzipped twice: a few hundred KB on the wire (two codings are allowed)
    const once = await buffer(Readable.from(zeros(1024 ** 3)).pipe(createGzip({ level: 9 })));
    bomb = gzipSync(once, { level: 9 });
    bombServer = await rawServer((socket) => {
      socket.write(`HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Encoding: gzip, gzip\r\nContent-Length: ${bomb.length}\r\n\r\n`);
      socket.end(bomb);
    });
    const lines = Array.from({ length: 600 }, (_, i) => `X-H${i}: v\r\n`).join('');
    manyHeaders = await rawServer((socket) => socket.end(`HTTP/1.1 200 OK\r\n${lines}Content-Length: 2\r\n\r\nok`));
    hugeHeader = await rawServer((socket) => socket.end(`HTTP/1.1 200 OK\r\nX-Big: ${'h'.repeat(40_000)}\r\nContent-Length: 2\r\n\r\nok`));
  }, 60_000);
  afterAll(async () => {
    await Promise.all([bombServer.close(), manyHeaders.close(), hugeHeader.close()]);
  });

  it('the bomb is small on the wire', () => {
    expect(bomb.length).toBeLessThan(512 * 1024);
  });

  for (const backend of BACKENDS) {
    describe(backend.name, () => {
      const client = backendClients(backend.choice);

      it('a decompression bomb (1 GiB in a few hundred KB) stops at the limit with bounded memory', async () => {
        const before = process.memoryUsage().rss;
        let peak = before;
        const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
        try {
          const http = client(bombServer.url, (c) => void (c.execution.maxResponseSize = 8 * 1024 * 1024));
          await expect(http.get()).rejects.toBeInstanceOf(ResponseTooLargeError);
        } finally {
          clearInterval(sampler);
        }
        expect((peak - before) / 1024 / 1024).toBeLessThan(128);
      });

      it('more than 500 header lines → ResponseTooLargeError', async () => {
        await expect(client(manyHeaders.url).get()).rejects.toMatchObject({
          name: 'ResponseTooLargeError',
          message: expect.stringMatching(/\d+ header lines; at most 500/),
        });
      });

      it('a header section beyond 16 KiB → ResponseTooLargeError', async () => {
        await expect(client(hugeHeader.url).get()).rejects.toMatchObject({
          name: 'ResponseTooLargeError',
          message: expect.stringMatching(/headers .* too large/),
        });
      });
    });
  }
});

function* zeros(total: number): Generator<Buffer> {
  const chunk = Buffer.alloc(1024 * 1024);
  for (let sent = 0; sent < total; sent += chunk.length) yield chunk;
}
