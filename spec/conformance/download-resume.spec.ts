import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, HttpException, ParseError } from '../../lib/index.js';
import { Download } from '../../lib/download.js';
import { serveRange } from '../support/range-resource.js';
import { conformance } from './kit.js';

const BODY = randomBytes(300_000); // several chunks on every transport
const VERSION_1 = 'Tue, 03 Mar 2026 10:00:00 GMT';
const VERSION_2 = 'Wed, 04 Mar 2026 11:30:00 GMT';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hb-resume-spec-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
const freshFile = () => join(dir, `resume-${++counter}.bin`);

/** A file holding `bytes`, its mtime the HTTP date `modified` (as an earlier toFile leaves it). */
function partialFile(bytes: Buffer, modified: string): string {
  const file = freshFile();
  writeFileSync(file, bytes);
  utimesSync(file, new Date(), new Date(modified));
  return file;
}

conformance('Download.toFile resume', (kit) => {
  const download = (file: string, resume = true) =>
    kit.client().get((c) => {
      c.request.uri.path = '/file.bin';
      Download.toFile(c, file, { resume });
    });
  const rangeHeaders = () => kit.server.requests.map((r) => [r.headers.range, r.headers['if-range']]);

  it('a download cut mid-body keeps its bytes with the Last-Modified mtime, and a rerun resumes to an identical file', async () => {
    kit.server.expect({ method: 'GET', path: '/file.bin', respond: serveRange({ body: BODY, lastModified: VERSION_1, cutAfter: 100_000 }) });
    const file = freshFile();
    await expect(download(file)).rejects.toThrow();
    const kept = statSync(file);
    expect(kept.size).toBeGreaterThan(0);
    expect(kept.size).toBeLessThan(BODY.length);
    expect(kept.mtime.toUTCString()).toBe(VERSION_1);

    kit.server.reset();
    kit.server.expect({ method: 'GET', path: '/file.bin', respond: serveRange({ body: BODY, lastModified: VERSION_1 }) });
    await expect(download(file)).resolves.toBe(file);
    expect(rangeHeaders()).toEqual([[`bytes=${kept.size}-`, VERSION_1]]);
    // fetch adds its own `identity` to a request with Range (Fetch standard), so it may come twice
    expect(new Set(String(kit.server.requests[0].headers['accept-encoding']).split(/,\s*/))).toEqual(new Set(['identity']));
    expect(sha256(readFileSync(file))).toBe(sha256(BODY));
    expect(statSync(file).mtime.toUTCString()).toBe(VERSION_1);
  });

  it('a server that ignores the range sends the whole body: the file is rewritten, not spliced', async () => {
    kit.server.expect({ method: 'GET', path: '/file.bin', respond: serveRange({ body: BODY, lastModified: VERSION_1, ignoreRange: true }) });
    const file = partialFile(BODY.subarray(0, 5000), VERSION_1);
    await download(file);
    expect(rangeHeaders()).toEqual([['bytes=5000-', VERSION_1]]);
    expect(sha256(readFileSync(file))).toBe(sha256(BODY));
  });

  it('a changed resource (another Last-Modified) fails If-Range: the new version is downloaded afresh', async () => {
    const changed = Buffer.from('the second version, shorter than the first\n');
    kit.server.expect({ method: 'GET', path: '/file.bin', respond: serveRange({ body: changed, lastModified: VERSION_2 }) });
    const file = partialFile(BODY.subarray(0, 7), VERSION_1);
    await download(file);
    expect(rangeHeaders()).toEqual([['bytes=7-', VERSION_1]]);
    expect(readFileSync(file).equals(changed)).toBe(true);
    expect(statSync(file).mtime.toUTCString()).toBe(VERSION_2);
  });

  it('no file yet: no Range is sent and the whole body is written', async () => {
    kit.server.expect({ method: 'GET', path: '/file.bin', respond: serveRange({ body: BODY, lastModified: VERSION_1 }) });
    const file = freshFile();
    await download(file);
    expect(rangeHeaders()).toEqual([[undefined, undefined]]);
    expect(sha256(readFileSync(file))).toBe(sha256(BODY));
  });

  it('a 206 that does not start where the file ends is a ParseError and the file is left as it was', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/file.bin',
      respond: (_req, res) => void res.writeHead(206, { 'Content-Range': `bytes 10-19/${BODY.length}`, 'Content-Length': '10' }).end(BODY.subarray(10, 20)),
    });
    const file = partialFile(BODY.subarray(0, 4), VERSION_1);
    const error = await download(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as Error).message).toMatch(/Content-Range 'bytes 10-19\/300000' cannot continue/);
    expect(readFileSync(file).equals(BODY.subarray(0, 4))).toBe(true);
  });

  it('a 206 that sends more than its Content-Range announces fails after the announced bytes: the file does not grow past them', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/file.bin',
      // announces bytes 4-19, then keeps sending (chunked)
      respond: (_req, res) => void res.writeHead(206, { 'Content-Range': `bytes 4-19/${BODY.length}` }).end(BODY.subarray(4, 4000)),
    });
    const file = partialFile(BODY.subarray(0, 4), VERSION_1);
    const error = await download(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect((error as Error).message).toMatch(/sent more than the 16 bytes its Content-Range announces/);
    expect(readFileSync(file).equals(BODY.subarray(0, 20))).toBe(true);
  });

  it('a file already complete gets a 416: HttpException, the file left as it was', async () => {
    kit.server.expect({ method: 'GET', path: '/file.bin', respond: serveRange({ body: BODY, lastModified: VERSION_1 }) });
    const file = partialFile(BODY, VERSION_1);
    const error = await download(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpException);
    expect((error as HttpException).statusCode).toBe(416);
    expect(sha256(readFileSync(file))).toBe(sha256(BODY));
  });

  it('without resume a complete download also gets Last-Modified as its mtime, and a cut one leaves nothing', async () => {
    kit.server.expect({ method: 'GET', path: '/file.bin', respond: serveRange({ body: BODY, lastModified: VERSION_2 }) });
    const file = freshFile();
    await download(file, false);
    expect(statSync(file).mtime.toUTCString()).toBe(VERSION_2);
    expect(kit.server.requests[0].headers.range).toBeUndefined();

    kit.server.reset();
    kit.server.expect({ method: 'GET', path: '/file.bin', respond: serveRange({ body: BODY, lastModified: VERSION_1, cutAfter: 1000 }) });
    const cutFile = freshFile();
    await expect(download(cutFile, false)).rejects.toThrow();
    expect(existsSync(cutFile)).toBe(false);
  });

  it('bad options are a ConfigError before anything is sent', () => {
    const file = freshFile();
    kit.client((c) => {
      expect(() => Download.toFile(c, file, { resume: 'yes' as unknown as boolean })).toThrow(ConfigError);
      expect(() => Download.toFile(c, file, 42 as unknown as string)).toThrow(/content type or \{ contentType, resume \}/);
    });
    expect(kit.server.requests).toHaveLength(0);
  });
});
