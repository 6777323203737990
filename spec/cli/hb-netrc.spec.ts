// hb --netrc and --netrc-file: Basic credentials for the URL's host from a .netrc file, read
// only when asked (as curl), with HOME pointed at a temporary folder.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseNetrc } from '../../lib/cli/netrc.js';
import { basicRoute } from '../support/auth/index.js';
import { headerValue } from '../support/recorded-request.js';
import { useTestServer } from '../support/use-test-server.js';
import { useBuiltHb } from './support/use-built-hb.js';

const holder = useTestServer();
const home = mkdtempSync(join(tmpdir(), 'hb-netrc-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

const { hb } = useBuiltHb({ env: { HOME: home } });

const PASSWORD = 'n3trc-s3cret';
const NETRC = `# credentials for the test server
machine 127.0.0.1
  login ada
  password ${PASSWORD}

machine other.example login bob password bobs
`;

/** The Authorization header of the only request the server got (undefined when none was sent). */
function authorization(): string | undefined {
  expect(holder.server.requests).toHaveLength(1);
  return headerValue(holder.server.requests[0].rawHeaders, 'authorization');
}

function basic(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}

function url(): string {
  holder.server.expect({ method: 'GET', path: '/me', respond: { body: 'ok' } });
  return `${holder.server.httpUrl}/me`;
}

describe('.netrc files, as curl reads them', () => {
  it('machines, default, quoted tokens with escapes, comments, account and macdef', () => {
    const text = [
      '# a comment line',
      'machine API.example.com login "ada lovelace" password "p\\"w d"',
      'macdef init',
      'machine not-a-machine login nobody',
      '',
      'machine second account acct login eve password eves',
      'default login anon password guest',
    ].join('\n');
    expect(parseNetrc(text)).toEqual([
      { machine: 'api.example.com', login: 'ada lovelace', password: 'p"w d' },
      { machine: 'second', login: 'eve', password: 'eves' },
      { machine: undefined, login: 'anon', password: 'guest' },
    ]);
  });
});

describe('hb --netrc', () => {
  beforeAll(() => writeFileSync(join(home, '.netrc'), NETRC));

  it("sends the host's login and password as Basic credentials, with the first request", async () => {
    expect((await hb('get', url(), '--netrc')).code).toBe(0);
    expect(authorization()).toBe(basic('ada', PASSWORD));
  });

  it('reads nothing without the flag', async () => {
    expect((await hb('get', url())).code).toBe(0);
    expect(authorization()).toBeUndefined();
  });

  it('a host the file does not name gets nothing (no default entry here)', async () => {
    const other = url().replace('127.0.0.1', 'localhost');
    expect((await hb('get', other, '--netrc', '-4')).code).toBe(0);
    expect(authorization()).toBeUndefined();
  });

  it('--basic and a user in the URL win over the file, as curl -u does', async () => {
    expect((await hb('get', url(), '--netrc', '--basic', 'zoe:zoes')).code).toBe(0);
    expect(authorization()).toBe(basic('zoe', 'zoes'));
    holder.server.reset();
    // the URL's credentials answer the challenge; the file's would be refused (exit 4)
    basicRoute(holder.server, { path: '/guarded', user: 'max', password: 'maxs' });
    expect((await hb('get', `http://max:maxs@${holder.server.httpUrl.slice('http://'.length)}/guarded`, '--netrc')).code).toBe(0);
    const sent = holder.server.requests.map((r) => headerValue(r.rawHeaders, 'authorization'));
    expect(sent.at(-1)).toBe(basic('max', 'maxs'));
    expect(sent).not.toContain(basic('ada', PASSWORD));
  });

  it('never shows the password: -v prints the credentials as ***', async () => {
    const result = await hb('get', url(), '--netrc', '-v');
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Authorization: ***');
    expect(result.stderr).not.toContain(PASSWORD);
  });
});

describe('hb --netrc-file', () => {
  const file = join(home, 'team.netrc');
  beforeAll(() => writeFileSync(file, 'default login team password "team pass"\n'));

  it('reads that file; a default entry answers any host; a login without password sends an empty one', async () => {
    expect((await hb('get', url(), '--netrc-file', file)).code).toBe(0);
    expect(authorization()).toBe(basic('team', 'team pass'));
    holder.server.reset();
    const loginOnly = join(home, 'login-only.netrc');
    writeFileSync(loginOnly, 'machine 127.0.0.1 login solo\n');
    expect((await hb('get', url(), '--netrc-file', loginOnly)).code).toBe(0);
    expect(authorization()).toBe(basic('solo', ''));
  });

  it('a file that is not there gives no credentials, as curl', async () => {
    expect((await hb('get', url(), '--netrc-file', join(home, 'missing.netrc'))).code).toBe(0);
    expect(authorization()).toBeUndefined();
  });

  it('a file that cannot be read is bad input (exit 2), nothing sent', async () => {
    const folder = join(home, 'a-folder');
    mkdirSync(folder, { recursive: true });
    const result = await hb('get', `${holder.server.httpUrl}/me`, '--netrc-file', folder);
    expect({ code: result.code, stderr: result.stderr }).toEqual({
      code: 2,
      stderr: `hb: --netrc-file: cannot read '${folder}' (EISDIR); see hb --help\n`,
    });
    expect(holder.server.requests).toHaveLength(0);
  });

  it.each([
    [['--netrc', '--netrc-file', 'x'], '--netrc and --netrc-file cannot be combined'],
    [['--netrc-file', ''], '--netrc-file needs a file name'],
    [['--netrc-file', 'a', '--netrc-file', 'b'], '--netrc-file given more than once'],
  ])('%j is bad input', async (flags, message) => {
    const result = await hb('get', `${holder.server.httpUrl}/me`, ...flags);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 2, stderr: `hb: ${message}; see hb --help\n` });
  });
});
