// hb --compress / --compress-with: the body compressed as httpie's and xh's --compress do
// (gzip), or with the coding asked for, decoded by the test server by its Content-Encoding.
import { afterAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { parseCommandLine } from '../../lib/cli/args.js';
import { UsageError } from '../../lib/cli/failure.js';
import type { RecordedRequest } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { outcome } from './support/hb-outcome.js';
import { useBuiltHb } from './support/use-built-hb.js';

const holder = useTestServer();
const { hb } = useBuiltHb();
const dir = mkdtempSync(join(tmpdir(), 'hb-compress-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const BIG = JSON.stringify({ lines: Array.from({ length: 200 }, (_, i) => `event ${i}`) });
const DECODE: Record<string, (bytes: Buffer) => Buffer> = { deflate: inflateSync, gzip: gunzipSync, br: brotliDecompressSync };

/** The body the server got, decoded by its Content-Encoding (none: as it came). */
function decoded(req: RecordedRequest): string {
  const coding = req.headers['content-encoding'];
  return (coding === undefined ? req.body : DECODE[String(coding)](req.body)).toString();
}

function upload(): string {
  holder.server.expect({ method: 'POST', path: '/ingest', respond: { status: 204 } });
  return `${holder.server.httpUrl}/ingest`;
}

describe('hb --compress, --compress-with: reading them', () => {
  const compress = (...argv: string[]) => {
    const command = parseCommandLine(['post', 'h', ...argv]);
    return command.kind === 'request' ? command.request.compress : 'not a request';
  };

  it('--compress is gzip from 1 KiB, twice every body; --compress-with picks the coding, alone or with --compress; none is none', () => {
    expect(compress('--compress')).toEqual({ encoding: 'gzip', minSize: 1024 });
    expect(compress('--compress', '--compress')).toEqual({ encoding: 'gzip', minSize: 0 });
    expect(compress('--compress-with', 'br')).toEqual({ encoding: 'br', minSize: 1024 });
    expect(compress('--compress', '--compress-with=deflate', '--compress')).toEqual({ encoding: 'deflate', minSize: 0 });
    expect(compress()).toBeUndefined();
  });

  it("has no -x: curl's -x names a proxy, and read as httpie's it would send the request to the proxy's host", () => {
    expect(() => compress('-x', 'http://proxy.internal:3128')).toThrow(UsageError);
  });

  it.each([
    [['--compress', '--compress', '--compress'], '--compress given more than twice (once: bodies of 1 KiB and more; twice: every body)'],
    [['--compress-with', 'zstd'], "--compress-with expects gzip, deflate or br, got 'zstd'"],
    [['--compress-with', 'gzip', '--compress-with', 'br'], '--compress-with given more than once'],
    [
      ['--compress', '--curl'],
      '--curl: curl cannot compress a request body, so it cannot send what --compress sends: drop --compress/--compress-with, or --curl',
    ],
  ])('%j is a usage error', (argv, message) => {
    expect(() => compress(...argv)).toThrow(new UsageError(message));
  });
});

describe('hb --compress against a server that decodes the body', () => {
  it('--compress: a JSON body of 1 KiB and more goes as gzip, with its compressed Content-Length', async () => {
    expect(outcome(await hb('post', upload(), '--json', BIG, '--compress'))).toMatchObject({ code: 0, stderr: '' });
    const [req] = holder.server.requests;
    expect(req.headers['content-encoding']).toBe('gzip');
    expect(Number(req.headers['content-length'])).toBe(req.body.length);
    expect(decoded(req)).toBe(BIG);
  });

  it('--compress leaves a small body as it is; twice, it compresses it all the same', async () => {
    const url = upload();
    holder.server.expect({ method: 'POST', path: '/ingest', respond: { status: 204 } });
    expect((await hb('post', url, 'name=Ada', '--compress')).code).toBe(0);
    expect((await hb('post', url, 'name=Ada', '--compress', '--compress')).code).toBe(0);
    const [small, forced] = holder.server.requests;
    expect([small.headers['content-encoding'], small.body.toString()]).toEqual([undefined, '{"name":"Ada"}']);
    expect([forced.headers['content-encoding'], decoded(forced)]).toEqual(['gzip', '{"name":"Ada"}']);
  });

  it('--compress-with gzip and br: a --data @file body streamed from the file, chunked', async () => {
    const file = join(dir, 'events.ndjson');
    writeFileSync(file, BIG);
    const url = upload();
    holder.server.expect({ method: 'POST', path: '/ingest', respond: { status: 204 } });
    expect((await hb('post', url, '--data', `@${file}`, '--compress-with', 'gzip')).code).toBe(0);
    expect((await hb('post', url, '--data', `@${file}`, '--compress-with', 'br')).code).toBe(0);
    const requests = holder.server.requests;
    expect(requests.map((r) => [r.headers['content-encoding'], r.chunked])).toEqual([
      ['gzip', true],
      ['br', true],
    ]);
    expect(requests.map(decoded)).toEqual([BIG, BIG]);
  });
});
