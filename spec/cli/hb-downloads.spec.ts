// hb's downloads (-O, -J, -C -, -o -) and streamed --data uploads, end to end against a local server.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serveRange } from '../support/range-resource.js';
import { useTestServer } from '../support/use-test-server.js';
import { builtCli } from './support/built-cli.js';
import { runHb, type HbResult, type RunOptions } from './support/run-hb.js';

const holder = useTestServer();
let cli = '';
beforeAll(async () => {
  cli = await builtCli();
}, 180_000);

const root = mkdtempSync(join(tmpdir(), 'hb-downloads-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
let counter = 0;
/** A new empty folder, to run hb in: its listing shows every file hb wrote. */
const freshFolder = () => mkdtempSync(join(root, `run-${++counter}-`));

const BODY = randomBytes(200_000);
const VERSION = 'Tue, 03 Mar 2026 10:00:00 GMT';
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

const hb = (args: string[], options?: RunOptions): Promise<HbResult> => runHb(cli, args, options);
const url = (path: string) => `${holder.server.httpUrl}${path}`;

describe('-O and -J -O', () => {
  it("-O names the file after the URL's last path segment (no query), in the current folder, with Last-Modified as its mtime", async () => {
    holder.server.expect({ method: 'GET', path: '/files/report.csv', respond: serveRange({ body: BODY, lastModified: VERSION }) });
    const cwd = freshFolder();
    const result = await hb(['get', url('/files/report.csv?token=1'), '-O'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout.length).toBe(0);
    expect(readdirSync(cwd)).toEqual(['report.csv']);
    expect(readFileSync(join(cwd, 'report.csv')).equals(BODY)).toBe(true);
    expect(statSync(join(cwd, 'report.csv')).mtime.toUTCString()).toBe(VERSION);
  });

  it('-J -O takes the name from Content-Disposition, made safe: no path, no leading dots, no control characters (a tab here: node sends no other in a header)', async () => {
    holder.server.expect({
      method: 'GET',
      path: '/dl',
      respond: { headers: { 'Content-Disposition': 'attachment; filename="../../.evil\tname.txt"', 'Last-Modified': VERSION }, body: 'payload' },
    });
    const cwd = freshFolder();
    const result = await hb(['get', url('/dl'), '-O', '-J'], { cwd });
    expect(result.code).toBe(0);
    expect(readdirSync(cwd)).toEqual(['evilname.txt']);
    expect(readFileSync(join(cwd, 'evilname.txt'), 'utf8')).toBe('payload');
    expect(existsSync(join(root, 'evilname.txt'))).toBe(false);
  });

  it('-J -O makes no dot file of a name that starts with whitespace, nor keeps a drive colon', async () => {
    for (const [given, made] of [
      [' .npmrc', 'npmrc'],
      ['\t .bashrc', 'bashrc'],
      ['C:evil.txt', 'C_evil.txt'],
      ['report. . ', 'report'],
    ]) {
      holder.server.reset();
      holder.server.expect({ method: 'GET', path: '/dl', respond: { headers: { 'Content-Disposition': `attachment; filename="${given}"` }, body: 'x' } });
      const cwd = freshFolder();
      expect((await hb(['get', url('/dl'), '-O', '-J'], { cwd })).code).toBe(0);
      expect(readdirSync(cwd)).toEqual([made]);
    }
  });

  it('-J -O reads filename*= first, and a filename= sent as raw UTF-8 bytes as UTF-8 (as browsers)', async () => {
    for (const [header, made] of [
      [`attachment; filename="resume.pdf"; filename*=UTF-8''r%C3%A9sum%C3%A9.pdf`, 'résumé.pdf'],
      [Buffer.from('attachment; filename="Übersicht.pdf"', 'utf8').toString('latin1'), 'Übersicht.pdf'],
    ]) {
      holder.server.reset();
      holder.server.expect({ method: 'GET', path: '/dl', respond: { headers: { 'Content-Disposition': header }, body: 'x' } });
      const cwd = freshFolder();
      expect((await hb(['get', url('/dl'), '-O', '-J'], { cwd })).code).toBe(0);
      expect(readdirSync(cwd)).toEqual([made]);
    }
  });

  it("-J -O without a usable Content-Disposition falls back to the URL's name", async () => {
    holder.server.expect({ method: 'GET', path: '/plain.txt', respond: { headers: { 'Content-Disposition': 'attachment; filename="..."' }, body: 'x' } });
    const cwd = freshFolder();
    expect((await hb(['get', url('/plain.txt'), '-OJ'], { cwd })).code).toBe(0);
    expect(readdirSync(cwd)).toEqual(['plain.txt']);
  });

  it('-J never overwrites an existing file the server names (as curl): the run fails and the file stays', async () => {
    holder.server.expect({ method: 'GET', path: '/dl', respond: { headers: { 'Content-Disposition': 'attachment; filename=keep.txt' }, body: 'new' } });
    const cwd = freshFolder();
    writeFileSync(join(cwd, 'keep.txt'), 'mine');
    const result = await hb(['get', url('/dl'), '-O', '-J'], { cwd });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/-J: 'keep.txt' exists/);
    expect(readFileSync(join(cwd, 'keep.txt'), 'utf8')).toBe('mine');
  });
});

describe('-o -', () => {
  it('writes the body to stdout, not to a file named -', async () => {
    holder.server.expect({ method: 'GET', path: '/bin', respond: { headers: { 'Content-Type': 'application/octet-stream' }, body: BODY } });
    const cwd = freshFolder();
    const result = await hb(['get', url('/bin'), '-o', '-'], { cwd });
    expect(result.code).toBe(0);
    expect(result.stdout.equals(BODY)).toBe(true);
    expect(readdirSync(cwd)).toEqual([]);
  });
});

describe('-C -', () => {
  it('a cut download keeps its bytes; a rerun with -C - sends Range + If-Range and ends with an identical file', async () => {
    holder.server.expect({ method: 'GET', path: '/big.bin', respond: serveRange({ body: BODY, lastModified: VERSION, cutAfter: 70_000 }) });
    const cwd = freshFolder();
    const cut = await hb(['get', url('/big.bin'), '-O', '-C', '-'], { cwd });
    expect(cut.code).not.toBe(0);
    const kept = statSync(join(cwd, 'big.bin')).size;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(BODY.length);

    holder.server.reset();
    holder.server.expect({ method: 'GET', path: '/big.bin', respond: serveRange({ body: BODY, lastModified: VERSION }) });
    const resumed = await hb(['get', url('/big.bin'), '-O', '-C', '-'], { cwd });
    expect(resumed.code).toBe(0);
    expect(holder.server.requests.map((r) => [r.headers.range, r.headers['if-range']])).toEqual([[`bytes=${kept}-`, VERSION]]);
    expect(sha256(readFileSync(join(cwd, 'big.bin')))).toBe(sha256(BODY));
  });

  it('a server that ignores the range gets the whole file written afresh (-o)', async () => {
    holder.server.expect({ method: 'GET', path: '/big.bin', respond: serveRange({ body: BODY, lastModified: VERSION, ignoreRange: true }) });
    const file = join(freshFolder(), 'out.bin');
    writeFileSync(file, BODY.subarray(0, 1000));
    utimesSync(file, new Date(), new Date(VERSION));
    expect((await hb(['get', url('/big.bin'), '-o', file, '-C', '-'])).code).toBe(0);
    expect(holder.server.requests[0].headers.range).toBe('bytes=1000-');
    expect(sha256(readFileSync(file))).toBe(sha256(BODY));
  });
});

describe('-C - on a complete file', () => {
  it('the 416 the server answers is success, as in curl: exit 0, the file left as it was', async () => {
    holder.server.expect({ method: 'GET', path: '/big.bin', respond: serveRange({ body: BODY, lastModified: VERSION }) });
    const file = join(freshFolder(), 'done.bin');
    writeFileSync(file, BODY);
    const result = await hb(['get', url('/big.bin'), '-o', file, '-C', '-']);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(holder.server.requests[0].headers.range).toBe(`bytes=${BODY.length}-`);
    expect(sha256(readFileSync(file))).toBe(sha256(BODY));
  });

  it('a 416 for another length is still a failure (exit 4)', async () => {
    holder.server.expect({ method: 'GET', path: '/big.bin', respond: serveRange({ body: BODY, lastModified: VERSION }) });
    const file = join(freshFolder(), 'longer.bin');
    writeFileSync(file, Buffer.concat([BODY, Buffer.from('extra')]));
    utimesSync(file, new Date(), new Date(VERSION)); // the same version: If-Range holds, the range is past the end
    const result = await hb(['get', url('/big.bin'), '-o', file, '-C', '-']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/^hb: 416 /);
  });
});

describe('bad download flags: exit 2 naming the flag, nothing sent', () => {
  it.each([
    [['-C', '100', '-o', 'x'], /-C: only '-C -'/],
    [['-C', '-'], /-C - continues a file: give it with -o <file> or -O/],
    [['-C', '-', '-o', '-'], /-C - continues a file/],
    [['-J'], /-J takes the file name from Content-Disposition: use it with -O/],
    [['-O', '-o', 'x'], /-o and -O both name the output file/],
    [['-O', '-J', '-C', '-'], /-C - and -J cannot be combined/],
  ])('%j', async (flags, message) => {
    const result = await hb(['get', url('/files/x.bin'), ...flags], { cwd: freshFolder() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(holder.server.requests).toHaveLength(0);
  });

  it('-O on a URL whose path ends with / has no name to use', async () => {
    const result = await hb(['get', url('/files/'), '-O'], { cwd: freshFolder() });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/-O: the URL has no file name/);
    expect(holder.server.requests).toHaveLength(0);
  });
});

describe('--data @file is streamed', () => {
  it('--data @file sends the file as it is, with its Content-Length (as curl --data-binary @file)', async () => {
    holder.server.expect({ method: 'POST', path: '/up', respond: { status: 204 } });
    const file = join(freshFolder(), 'upload.bin');
    writeFileSync(file, BODY);
    expect((await hb(['post', url('/up'), '--data', `@${file}`])).code).toBe(0);
    const [received] = holder.server.requests;
    expect(received.headers['content-length']).toBe(String(BODY.length));
    expect(received.chunked).toBe(false);
    expect(received.body.equals(BODY)).toBe(true);
  });

  it('--data @file with --digest is read whole: the challenge needs the body sent twice', async () => {
    holder.server.expect({
      method: 'POST',
      path: '/up',
      respond: (req, res) =>
        void res.writeHead(req.headers.authorization === undefined ? 401 : 200, { 'WWW-Authenticate': 'Digest realm="r", nonce="n1", qop="auth"' }).end(),
    });
    const file = join(freshFolder(), 'upload.bin');
    writeFileSync(file, BODY);
    const result = await hb(['post', url('/up'), '--digest', 'ada:secret', '--data', `@${file}`]);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(holder.server.requests.map((r) => [r.headers.authorization === undefined, r.body.equals(BODY)])).toEqual([
      [true, true],
      [false, true],
    ]);
  });

  it('--data @missing is a usage error naming --data, nothing sent', async () => {
    const result = await hb(['post', url('/up'), '--data', `@${join(root, 'missing.bin')}`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--data: cannot read '.*missing\.bin' \(ENOENT\)/);
    expect(holder.server.requests).toHaveLength(0);
  });
});
