// `hb --cache <dir>` and what it keeps at rest: no credential in its files, and nothing from a
// folder or entry another user could have written. Runs as root in CI: another user's files are
// made with chown to uid 65534 (nobody).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, lchownSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useTestServer } from '../support/use-test-server.js';
import { builtCli } from './support/built-cli.js';
import { runHb, type HbResult } from './support/run-hb.js';

const holder = useTestServer();
let cli = '';
beforeAll(async () => {
  cli = await builtCli();
}, 180_000);

const dir = mkdtempSync(join(tmpdir(), 'hb-cache-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const NOBODY = 65534;
/** Enough for three runs of hb (a node process each) on a loaded machine. */
const RUNS_MS = 30_000;

function hb(...args: string[]): Promise<HbResult> {
  return runHb(cli, args);
}

/** A route answering `body` with max-age=60: each hb run that reaches it counts. */
function fresh(path: string, body: string, headers: Record<string, string | string[]> = {}) {
  return holder.server.expect({ method: 'GET', path, respond: { headers: { 'Content-Type': 'text/plain', 'Cache-Control': 'max-age=60', ...headers }, body } });
}

/** Every file of a cache folder as text (names included). */
function folderText(folder: string): string {
  return readdirSync(folder)
    .map((name) => `${name}\n${readFileSync(join(folder, name), 'utf8')}`)
    .join('\n');
}

describe('hb --cache: credentials at rest', () => {
  it(
    'with Vary: Authorization, Cookie, X-Api-Key the files hold no token, password, cookie or key, nor Set-Cookie; each user has their own',
    async () => {
      const folder = join(dir, 'credentials');
      const route = holder.server.expect({
        method: 'GET',
        path: '/account',
        respond: (req, res) =>
          void res
            .writeHead(200, {
              'Content-Type': 'text/plain',
              'Cache-Control': 'private, max-age=60, must-revalidate',
              Vary: 'Authorization, Cookie, X-Api-Key',
              'Set-Cookie': 'refresh=set-cookie-secret; Path=/',
            })
            .end(`for ${String(req.headers.authorization)}`),
      });
      const url = `${holder.server.httpUrl}/account?access_token=query-secret`;
      const asUser = (...auth: string[]) =>
        hb('get', url, '--cache', folder, '-H', 'X-Api-Key: api-key-secret', '-H', 'Cookie: session=cookie-secret', ...auth);
      const bodies = [];
      for (const auth of [
        ['--bearer', 'bearer-secret'],
        ['--bearer', 'bearer-secret'],
        ['--basic', 'ada:basic-secret'],
        ['--basic', 'ada:basic-secret'],
      ]) {
        const result = await asUser(...auth);
        expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
        bodies.push(result.stdout.toString('utf8'));
      }
      const basic = `Basic ${Buffer.from('ada:basic-secret').toString('base64')}`;
      expect(bodies).toEqual(['for Bearer bearer-secret', 'for Bearer bearer-secret', `for ${basic}`, `for ${basic}`]);
      expect(route.calls).toBe(2);
      const text = folderText(folder);
      for (const secret of ['bearer-secret', 'basic-secret', basic.slice(6), 'api-key-secret', 'cookie-secret', 'query-secret', 'set-cookie-secret']) {
        expect(text).not.toContain(secret);
      }
      expect(statSync(folder).mode & 0o777).toBe(0o700);
      for (const name of readdirSync(folder)) expect(statSync(join(folder, name)).mode & 0o777).toBe(0o600);
      // the digests are keyed with the folder's own key, made by the first run: no plain hash to test guesses against
      expect(readFileSync(join(folder, 'hmac.key'))).toHaveLength(32);
      const plain = createHash('sha256').update('httpbuilder-ts cache\0').update(`authorization\0${basic}`).digest('base64url');
      expect(text).toMatch(/"credentials":"hmac:[\w-]{43}"/);
      expect(text).not.toContain(plain);
    },
    2 * RUNS_MS,
  );
});

describe('hb --cache: a folder or entry another user could have written', () => {
  const WARNING = /^hb: warning: --cache ignores the (folder|entry|key) [^\n]*: ([^\n]*); this run goes on without a cache\n$/;

  /** Two runs against a fresh route: each warns once and reaches the server (no cache), and prints its answer. */
  async function ignored(folder: string, path: string, why: string): Promise<void> {
    const route = fresh(path, 'from the server');
    for (let run = 0; run < 2; run++) {
      const result = await hb('get', `${holder.server.httpUrl}${path}`, '--cache', folder);
      expect({ code: result.code, stdout: result.stdout.toString('utf8') }).toEqual({ code: 0, stdout: 'from the server' });
      expect(result.stderr).toMatch(WARNING);
      expect(WARNING.exec(result.stderr)?.[2]).toBe(why);
    }
    expect(route.calls).toBe(2);
  }

  it.each([
    ['everyone', 0o777],
    ['its group', 0o770],
  ])(
    'a folder writable by %s is not used',
    async (_who, mode) => {
      const folder = join(dir, `mode-${mode.toString(8)}`);
      mkdirSync(folder);
      chmodSync(folder, mode);
      await ignored(folder, `/folder-${mode.toString(8)}`, `other users can write to it (mode ${mode.toString(8)})`);
      expect(readdirSync(folder)).toEqual([]);
    },
    RUNS_MS,
  );

  it.each([
    [
      'a folder another user owns',
      (folder: string) => {
        mkdirSync(folder, { mode: 0o700 });
        chownSync(folder, NOBODY, NOBODY);
        return folder;
      },
      `it belongs to another user (uid ${NOBODY})`,
    ],
    [
      'a link another user owns, even to a folder of ours,',
      (link: string) => {
        mkdirSync(`${link}-target`, { mode: 0o700 });
        symlinkSync(`${link}-target`, link);
        lchownSync(link, NOBODY, NOBODY);
        return `${link}-target`;
      },
      `it is a link another user owns (uid ${NOBODY})`,
    ],
  ])(
    '%s is not used',
    async (_what, make, why) => {
      const folder = join(dir, `owned-${why.length}`);
      const real = make(folder);
      await ignored(folder, `/owned-${why.length}`, why);
      expect(readdirSync(real)).toEqual([]);
    },
    RUNS_MS,
  );

  it.each([
    ['others can read', (key: string) => chmodSync(key, 0o644), 'other users can read it (mode 644)'],
    ['another user owns', (key: string) => chownSync(key, NOBODY, NOBODY), `it belongs to another user (uid ${NOBODY})`],
  ])(
    'a key %s is not used',
    async (_what, spoil, why) => {
      const folder = join(dir, `key-${why.replace(/\W+/g, '-')}`);
      mkdirSync(folder, { mode: 0o700 });
      writeFileSync(join(folder, 'hmac.key'), Buffer.alloc(32, 7), { mode: 0o600 });
      spoil(join(folder, 'hmac.key'));
      await ignored(folder, `/key-${why.length}`, why);
      expect(readdirSync(folder)).toEqual(['hmac.key']);
    },
    RUNS_MS,
  );

  /** The file of the entry a run without credentials keeps for `path`. */
  const entryFile = (folder: string, path: string) => join(folder, `${createHash('sha256').update(`${holder.server.httpUrl}${path}`).digest('hex')}.json`);

  it.each([
    ['a FIFO (the run does not hang on it)', (file: string) => execFileSync('mkfifo', ['-m', '600', file]), 'it is not a file'],
    ['a link (even to a file of ours)', (file: string) => symlinkSync(join(dir, 'planted-elsewhere.json'), file), 'it is a link'],
  ])(
    'an entry that is %s is not read, and says so',
    async (_what, plant, why) => {
      const folder = join(dir, `entry-${why.replace(/\W+/g, '-')}`);
      const path = `/${why.length}-planted`;
      mkdirSync(folder, { mode: 0o700 });
      writeFileSync(join(dir, 'planted-elsewhere.json'), '{}', { mode: 0o600 });
      plant(entryFile(folder, path));
      const route = fresh(path, 'from the server');
      const result = await runHb(cli, ['get', `${holder.server.httpUrl}${path}`, '--cache', folder], { timeout: 10_000 });
      expect({ signal: result.signal, stdout: result.stdout.toString('utf8') }).toEqual({ signal: null, stdout: 'from the server' });
      expect(WARNING.exec(result.stderr)?.slice(1)).toEqual(['entry', why]);
      expect(route.calls).toBe(1);
    },
    RUNS_MS,
  );

  /** A folder whose entry for `path` (stored by a first run) now holds a planted answer; the entry's file. */
  async function planted(path: string): Promise<string> {
    const folder = join(dir, `planted${path.replace(/\//g, '-')}`);
    expect((await hb('get', `${holder.server.httpUrl}${path}`, '--cache', folder)).stdout.toString('utf8')).toBe('real rates');
    const [name] = readdirSync(folder).filter((file) => file.endsWith('.json'));
    const file = join(folder, name);
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { body: string };
    writeFileSync(file, JSON.stringify({ ...entry, body: Buffer.from('planted rates').toString('base64') }));
    return file;
  }

  /** One more run for `path`: what it printed, and why it warned. */
  async function rerun(file: string, path: string): Promise<[string, string | undefined]> {
    const result = await hb('get', `${holder.server.httpUrl}${path}`, '--cache', join(file, '..'));
    return [result.stdout.toString('utf8'), WARNING.exec(result.stderr)?.[2]];
  }

  it(
    'an entry others can write is not read: the answer planted in it is not served',
    async () => {
      const route = fresh('/rates', 'real rates');
      const file = await planted('/rates');
      // the same file, ours and 0600, is served: what the check refuses is a real answer
      expect(await rerun(file, '/rates')).toEqual(['planted rates', undefined]);
      chmodSync(file, 0o666);
      expect(await rerun(file, '/rates')).toEqual(['real rates', 'other users can write to it (mode 666)']);
      expect(route.calls).toBe(2);
    },
    RUNS_MS,
  );

  it(
    'an entry another user owns is not read',
    async () => {
      const route = fresh('/owned-rates', 'real rates');
      const file = await planted('/owned-rates');
      chownSync(file, NOBODY, NOBODY);
      expect(await rerun(file, '/owned-rates')).toEqual(['real rates', `it belongs to another user (uid ${NOBODY})`]);
      expect(route.calls).toBe(2);
    },
    RUNS_MS,
  );
});
