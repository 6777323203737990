// hb's download flags cross-checked against curl on the same local server: -O, -J -O and -C -
// given to curl (with -R, which hb always does) and to hb, each in a folder of its own, write the
// same files (names, bytes, mtimes) and send the same Range. Where the contract asks more than
// curl does, the difference is stated: hb adds If-Range to -C -, and -J drops leading dots.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtCli } from '../cli/support/built-cli.js';
import { runHb } from '../cli/support/run-hb.js';
import { serveRange } from '../support/range-resource.js';
import { useTestServer } from '../support/use-test-server.js';

const holder = useTestServer();
let cli = '';
beforeAll(async () => {
  cli = await builtCli();
}, 180_000);
const root = mkdtempSync(join(tmpdir(), 'hb-downloads-interop-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const BODY = randomBytes(150_000);
const VERSION = 'Tue, 03 Mar 2026 10:00:00 GMT';

function curl(args: readonly string[], cwd: string): Promise<number> {
  return new Promise((resolve) => {
    execFile('curl', ['-sS', '-R', '--max-time', '10', ...args], { cwd, timeout: 20_000 }, (error) => {
      resolve(error === null ? 0 : typeof error.code === 'number' ? error.code : -1);
    });
  });
}

/** The files a run left in its folder: name, bytes, mtime as an HTTP date. */
function files(folder: string): Array<[string, Buffer, string]> {
  return readdirSync(folder)
    .sort()
    .map((name) => [name, readFileSync(join(folder, name)), statSync(join(folder, name)).mtime.toUTCString()]);
}

/** What the server saw: method, request-target and Range of each request since `from`. */
function seen(from: number): Array<[string, string, unknown]> {
  return holder.server.requests.slice(from).map((r) => [r.method, r.target, r.headers.range]);
}

/** Runs `client` with `flags` on `path` in a fresh folder (or `folder`); its exit code, files and requests. */
async function observe(client: 'curl' | 'hb', path: string, flags: readonly string[], folder = mkdtempSync(join(root, `${client}-`))) {
  const from = holder.server.requests.length;
  const url = `${holder.server.httpUrl}${path}`;
  const code = client === 'curl' ? await curl([...flags, url], folder) : (await runHb(cli, ['get', url, ...flags], { cwd: folder })).code;
  return { code, files: files(folder), seen: seen(from), folder };
}

describe('hb and curl agree on the download flags', () => {
  it('-O: the name from the URL (query left out), the body, Last-Modified as the mtime', async () => {
    holder.server.expect({ method: 'GET', path: '/files/report.csv', respond: serveRange({ body: BODY, lastModified: VERSION }) });
    const [byCurl, byHb] = [await observe('curl', '/files/report.csv?v=2', ['-O']), await observe('hb', '/files/report.csv?v=2', ['-O'])];
    expect(byHb.files).toEqual(byCurl.files);
    expect(byHb.seen).toEqual(byCurl.seen);
    expect([byCurl.code, byHb.code, byHb.files.map(([name]) => name)]).toEqual([0, 0, ['report.csv']]);
  });

  it('-J -O: the name Content-Disposition gives, without its path', async () => {
    holder.server.expect({
      method: 'GET',
      path: '/dl',
      respond: { headers: { 'Content-Disposition': 'attachment; filename="reports/March 2026.csv"', 'Last-Modified': VERSION }, body: 'a,b\n' },
    });
    const [byCurl, byHb] = [await observe('curl', '/dl', ['-J', '-O']), await observe('hb', '/dl', ['-J', '-O'])];
    expect(byHb.files).toEqual(byCurl.files);
    expect(byHb.files.map(([name]) => name)).toEqual(['March 2026.csv']);
  });

  it('-J -O without Content-Disposition: the name from the URL', async () => {
    holder.server.expect({ method: 'GET', path: '/files/plain.txt', respond: { headers: { 'Last-Modified': VERSION }, body: 'x' } });
    const [byCurl, byHb] = [await observe('curl', '/files/plain.txt', ['-J', '-O']), await observe('hb', '/files/plain.txt', ['-J', '-O'])];
    expect(byHb.files).toEqual(byCurl.files);
    expect(byHb.files.map(([name]) => name)).toEqual(['plain.txt']);
  });

  it('-C -: a download cut mid-body, then resumed, ends identical, with the same Range asked (hb adds If-Range)', async () => {
    holder.server.expect({ method: 'GET', path: '/big.bin', respond: serveRange({ body: BODY, lastModified: VERSION, cutAfter: 60_000 }) });
    const flags = ['-C', '-', '-o', 'big.bin'];
    const [cutByCurl, cutByHb] = [await observe('curl', '/big.bin', flags), await observe('hb', '/big.bin', flags)];
    expect([cutByCurl.code === 0, cutByHb.code === 0]).toEqual([false, false]);
    // what each kept may differ by what reached it before the cut; both kept something
    for (const { files: kept } of [cutByCurl, cutByHb]) expect(kept[0][1].length).toBeGreaterThan(0);

    holder.server.reset();
    holder.server.expect({ method: 'GET', path: '/big.bin', respond: serveRange({ body: BODY, lastModified: VERSION }) });
    const from = holder.server.requests.length;
    const byCurl = await observe('curl', '/big.bin', flags, cutByCurl.folder);
    const byHb = await observe('hb', '/big.bin', flags, cutByHb.folder);
    expect([byCurl.code, byHb.code]).toEqual([0, 0]);
    expect(byHb.files).toEqual(byCurl.files);
    expect(byHb.files[0][1].equals(BODY)).toBe(true);
    expect(byCurl.seen).toEqual([['GET', '/big.bin', `bytes=${cutByCurl.files[0][1].length}-`]]);
    expect(byHb.seen).toEqual([['GET', '/big.bin', `bytes=${cutByHb.files[0][1].length}-`]]);
    expect(holder.server.requests.slice(from).map((r) => r.headers['if-range'])).toEqual([undefined, VERSION]);
  });

  it('-C - on a file already complete: the server answers 416, and both leave the file as it was', async () => {
    holder.server.expect({ method: 'GET', path: '/big.bin', respond: serveRange({ body: BODY, lastModified: VERSION }) });
    const [first, second] = [await observe('curl', '/big.bin', ['-o', 'big.bin']), await observe('hb', '/big.bin', ['-o', 'big.bin'])];
    const byCurl = await observe('curl', '/big.bin', ['-C', '-', '-o', 'big.bin'], first.folder);
    const byHb = await observe('hb', '/big.bin', ['-C', '-', '-o', 'big.bin'], second.folder);
    expect(byHb.code).toBe(byCurl.code);
    expect(byHb.files).toEqual(byCurl.files);
    expect(byHb.files[0][1].equals(BODY)).toBe(true);
    expect(byHb.seen).toEqual([['GET', '/big.bin', `bytes=${BODY.length}-`]]);
  });
});
