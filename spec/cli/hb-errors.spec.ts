// Failures of the `hb` binary: HTTP errors, network errors, bad input, secrets, interrupts.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicRoute, digestRoute } from '../support/auth/index.js';
import { rawServer } from '../support/raw-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { builtCli } from './support/built-cli.js';
import { runHb, type HbResult } from './support/run-hb.js';
import { closedPort } from '../support/closed-port.js';

const holder = useTestServer();
let cli = '';
beforeAll(async () => {
  cli = await builtCli();
}, 180_000);

const dir = mkdtempSync(join(tmpdir(), 'hb-errors-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const notASession = join(dir, 'not-a-session.json');
writeFileSync(notASession, '{"cookies": "none"}');

function hb(...args: string[]): Promise<HbResult> {
  return runHb(cli, args);
}

/** Asserts exactly one line on stderr, starting `hb: `, without a stack trace; returns it. */
function oneErrorLine(result: HbResult): string {
  expect(result.stderr).toMatch(/^hb: [^\n]+\n$/);
  expect(result.stderr).not.toMatch(/\bat .+:\d+:\d+/);
  return result.stderr.trimEnd();
}

describe('hb: exit codes for HTTP statuses', () => {
  it('404: exit 4, the body on stdout, one line naming status, verb and URL on stderr', async () => {
    holder.server.expect({ method: 'GET', path: '/missing', respond: { status: 404, headers: { 'Content-Type': 'text/plain' }, body: 'not here' } });
    const result = await hb('get', `${holder.server.httpUrl}/missing?x=1`);
    expect(result.code).toBe(4);
    expect(oneErrorLine(result)).toBe(`hb: 404 Not Found (GET ${holder.server.httpUrl}/missing?x=1)`);
    expect(result.stdout.toString('utf8')).toBe('not here');
  });

  it('the URL in the error line hides credential-like query values, as debug lines do', async () => {
    holder.server.expect({ method: 'GET', path: '/private', respond: { status: 403, headers: { 'Content-Type': 'text/plain' }, body: 'no' } });
    const result = await hb('get', `${holder.server.httpUrl}/private?api_key=k3y-s3cret&page=2`);
    expect(result.code).toBe(4);
    expect(oneErrorLine(result)).toBe(`hb: 403 Forbidden (GET ${holder.server.httpUrl}/private?api_key=***&page=2)`);
    expect(result.stdout.toString('utf8')).toBe('no');
  });

  it('5xx: exit 5, the error body on stdout, the reason phrase as sent with control characters removed', async () => {
    // node's own server refuses to send an escape sequence in a reason phrase: a raw one does
    const raw = await rawServer((socket) => {
      const body = '{"retry":true}';
      socket.end(
        `HTTP/1.1 503 Down \x1b[31mfor\x1b[0m maintenance\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
    try {
      const result = await hb('delete', `${raw.url}/boom`);
      expect(result.code).toBe(5);
      expect(oneErrorLine(result)).toBe(`hb: 503 Down [31mfor [0m maintenance (DELETE ${raw.url}/boom)`);
      expect(result.stdout.toString('utf8')).toBe('{"retry":true}');
    } finally {
      await raw.close();
    }
  });

  it.each([
    [204, ''],
    [304, ''],
    [302, 'moved'],
  ])('%i is a success (exit 0, nothing on stderr)', async (status, body) => {
    // a 302 without Location cannot be followed: it reaches the handlers as it is
    holder.server.expect({ method: 'GET', path: '/s', respond: { status, headers: { 'Content-Type': 'text/plain' }, ...(body === '' ? {} : { body }) } });
    const result = await hb('get', `${holder.server.httpUrl}/s`);
    expect({ code: result.code, stderr: result.stderr, stdout: result.stdout.toString('utf8') }).toEqual({ code: 0, stderr: '', stdout: body });
  });

  it('a 404 after a redirect names the URL that answered', async () => {
    holder.server.expect({ method: 'GET', path: '/moved', respond: { status: 302, headers: { Location: '/gone' } } });
    const result = await hb('get', `${holder.server.httpUrl}/moved`);
    expect(result.code).toBe(4);
    expect(oneErrorLine(result)).toBe(`hb: 404 Not Found (GET ${holder.server.httpUrl}/gone)`);
  });

  it('follows a redirect and prints the final body', async () => {
    holder.server.expect({ method: 'GET', path: '/old', respond: { status: 301, headers: { Location: '/new' } } });
    holder.server.expect({ method: 'GET', path: '/new', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'new place' } });
    const result = await hb('get', `${holder.server.httpUrl}/old`);
    expect({ code: result.code, stderr: result.stderr, stdout: result.stdout.toString('utf8') }).toEqual({ code: 0, stderr: '', stdout: 'new place' });
  });
});

describe('hb: failures without a response', () => {
  it('connection refused: exit 1 and one line', async () => {
    const port = await closedPort();
    const result = await hb('get', `http://127.0.0.1:${port}/x`);
    expect(result.code).toBe(1);
    expect(oneErrorLine(result)).toMatch(/^hb: NetworkError: .*ECONNREFUSED/);
    expect(result.stdout.length).toBe(0);
  });

  it("the library's ConfigError (a control character in a header value): exit 2, its name and message, nothing sent", async () => {
    holder.server.expect({ method: 'GET', path: '/never', respond: { body: 'sent!' } });
    const result = await hb('get', `${holder.server.httpUrl}/never`, '-H', 'X-Ctl: a\x01b');
    expect(result.code).toBe(2);
    expect(oneErrorLine(result)).toMatch(/^hb: ConfigError: header 'X-Ctl' has a character not allowed/);
    expect(holder.server.requests).toHaveLength(0);
  });

  it('a download that fails half-way leaves no file and exits 1', async () => {
    holder.server.expect({
      method: 'GET',
      path: '/cut',
      respond: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': '100000' });
        res.write(Buffer.alloc(1000));
        setTimeout(() => res.destroy(), 50);
      },
    });
    const folder = mkdtempSync(join(dir, 'cut-'));
    const result = await hb('get', `${holder.server.httpUrl}/cut`, '-o', join(folder, 'cut.bin'));
    expect(result.code).toBe(1);
    oneErrorLine(result);
    expect(readdirSync(folder)).toEqual([]); // neither the file nor the temporary file beside it
  });

  it('Ctrl-C during a download cancels it: exit 130, one line, no partial file', async () => {
    holder.server.expect({
      method: 'GET',
      path: '/slow',
      respond: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': '100000' });
        res.write(Buffer.alloc(1000)); // and never more: the test server ends the socket at close()
      },
    });
    const folder = mkdtempSync(join(dir, 'slow-'));
    const file = join(folder, 'slow.bin');
    // the body goes to a temporary file beside the target until it is complete: interrupt once it has bytes
    const started = () => readdirSync(folder).some((name) => (statSync(join(folder, name), { throwIfNoEntry: false })?.size ?? 0) > 0);
    const result = await runHb(cli, ['get', `${holder.server.httpUrl}/slow`, '-o', file], {
      started: (child) => {
        const poll = setInterval(() => {
          if (started()) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 20);
        child.on('exit', () => clearInterval(poll));
      },
    });
    expect(result.code).toBe(130);
    expect(oneErrorLine(result)).toBe('hb: interrupted');
    expect(readdirSync(folder)).toEqual([]);
  });

  it('a reader that stops early (hb ... | head) ends hb quietly', async () => {
    holder.server.expect({ method: 'GET', path: '/long', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'z'.repeat(5_000_000) } });
    const result = await runHb(cli, ['get', `${holder.server.httpUrl}/long`], {
      started: (child) => child.stdout?.once('data', () => child.stdout?.destroy()),
    });
    expect({ code: result.code, signal: result.signal, stderr: result.stderr }).toEqual({ code: 0, signal: null, stderr: '' });
  });
});

describe('hb: bad command-line input exits 2 with one line, before anything is sent', () => {
  const cases: Array<[what: string, args: (url: string) => string[], message: RegExp]> = [
    ['-H without a colon', (url) => ['get', url, '-H', 'X-Broken'], /^hb: -H expects 'Name: value', got 'X-Broken'/],
    ['-H with a bad name', (url) => ['get', url, '-H', 'Bad Name: x'], /^hb: -H: 'Bad Name' is not a valid header name/],
    ['--basic without a colon', (url) => ['get', url, '--basic', 'justauser'], /^hb: --basic expects user:password/],
    ['--digest without a colon', (url) => ['get', url, '--digest', 'justauser'], /^hb: --digest expects user:password/],
    ['an unknown verb', (url) => ['fetch', url], /^hb: unknown verb 'fetch'/],
    ['-q without =', (url) => ['get', url, '-q', 'flag'], /^hb: -q expects name=value, got 'flag'/],
    ['--form without =', (url) => ['post', url, '--form', 'x'], /^hb: --form expects name=value/],
    ['--file without @', (url) => ['post', url, '--file', 'doc=path.txt'], /^hb: --file expects name=@path/],
    ['--file naming a missing file', (url) => ['post', url, '--file', 'doc=@/no/such/file.txt'], /^hb: --file: cannot read '\/no\/such\/file.txt' \(ENOENT\)/],
    ['--json that is not JSON', (url) => ['post', url, '--json', '{name:1}'], /^hb: --json: not valid JSON/],
    ['--json with --form', (url) => ['post', url, '--json', '{}', '--form', 'a=1'], /^hb: --json cannot be combined with --form or --file/],
    ['--basic with --digest', (url) => ['get', url, '--basic', 'a:b', '--digest', 'a:b'], /^hb: --basic, --digest and --bearer cannot be combined/],
    ['--bearer with --basic', (url) => ['get', url, '--bearer', 't', '--basic', 'a:b'], /^hb: --basic, --digest and --bearer cannot be combined/],
    [
      '--bearer with a space in the token',
      (url) => ['get', url, '--bearer', 'two words'],
      /^hb: --bearer must be visible ASCII without spaces \(it has another character\);/,
    ],
    ['-H Content-Type with --form', (url) => ['post', url, '--form', 'a=1', '-H', 'Content-Type: text/plain'], /^hb: --form and --file set the Content-Type/],
    ['an unknown backend', (url) => ['get', url, '--backend', 'curl'], /^hb: unknown backend 'curl'/],
    ['an unknown option', (url) => ['get', url, '--no-such-option'], /^hb: unknown option '--no-such-option'/],
    ['--timeout that is no whole number', (url) => ['get', url, '--timeout', '1.5'], /^hb: --timeout expects a whole number from 0 to 2147483647, got '1.5'/],
    ['--timeout with a unit', (url) => ['get', url, '--timeout=5s'], /^hb: --timeout expects a whole number from 0 to 2147483647, got '5s'/],
    ['--timeout beyond what a timer holds', (url) => ['get', url, '--timeout', '2147483648'], /^hb: --timeout expects a whole number from 0 to 2147483647/],
    ['--retry below 0', (url) => ['get', url, '--retry=-1'], /^hb: --retry expects a whole number >= 0, got '-1'/],
    ['--retry that is no number', (url) => ['get', url, '--retry', 'often'], /^hb: --retry expects a whole number >= 0, got 'often'/],
    ['--data with --json', (url) => ['post', url, '--data', 'x', '--json', '{}'], /^hb: --data cannot be combined with --json, --form or --file/],
    ['--data with --form', (url) => ['post', url, '--data', '@-', '--form', 'a=1'], /^hb: --data cannot be combined with --json, --form or --file/],
    ['--data @ without a file name', (url) => ['post', url, '--data', '@'], /^hb: --data @ needs a file name \(or @- for stdin\)/],
    ['--json @ naming a missing file', (url) => ['post', url, '--json', '@/no/such/body.json'], /^hb: --json: cannot read '\/no\/such\/body.json' \(ENOENT\)/],
    ['--data @ naming a missing file', (url) => ['post', url, '--data', '@/no/such/body.bin'], /^hb: --data: cannot read '\/no\/such\/body.bin' \(ENOENT\)/],
    [
      '--session in a folder that does not exist',
      (url) => ['get', url, '--session', '/nonexistent/dir/s.json'],
      /^hb: --session: the folder '\/nonexistent\/dir' does not exist/,
    ],
    ['--session naming a file that holds no saved cookies', (url) => ['get', url, '--session', notASession], /^hb: --session: '.+' holds no saved cookies/],
    ['an option without its value', (url) => ['get', url, '-H'], /^hb: option -H, --header <value> needs a value|^hb: option .*-H.* needs a value/],
    ['-o into a folder that does not exist', (url) => ['post', url, '-o', '/nonexistent/dir/out'], /^hb: -o: the folder '\/nonexistent\/dir' does not exist/],
    ['-o naming a directory', (url) => ['get', url, '-o', dir], /^hb: -o: '.+' is a directory/],
    ['a repeated single option', (url) => ['get', url, '-o', 'a', '-o', 'b'], /^hb: -o given more than once/],
    ['a third argument', (url) => ['get', url, 'extra'], /^hb: unexpected argument 'extra'/],
    ['no URL', () => ['get'], /^hb: missing the URL/],
    ['nothing at all', () => [], /^hb: missing the verb and the URL/],
    ['a URL that does not parse', () => ['get', 'http://ada:topsecret@[::1'], /^hb: not a valid URL: 'http:\/\/\*\*\*@\[::1'/],
    // a password with '@' in it: the user info runs to the last '@' (the first one left 'ss' showing)
    ['a URL that does not parse, its password holding @', () => ['get', 'http://bob:p@ss@[::1'], /^hb: not a valid URL: 'http:\/\/\*\*\*@\[::1'/],
    ['a scheme other than http(s)', () => ['get', 'ftp://127.0.0.1/x'], /^hb: only http and https URLs are supported, not 'ftp'/],
  ];

  it.each(cases)('%s', async (_what, args, message) => {
    holder.server.expect({ method: 'GET', path: '/never', respond: { body: 'sent!' } });
    holder.server.expect({ method: 'POST', path: '/never', respond: { body: 'sent!' } });
    const result = await hb(...args(`${holder.server.httpUrl}/never`));
    expect(result.code).toBe(2);
    expect(oneErrorLine(result)).toMatch(message);
    expect(result.stderr).toMatch(/; see hb --help\n$/);
    expect(result.stdout.length).toBe(0);
    expect(holder.server.requests).toHaveLength(0);
  });

  it('--help prints usage with examples (exit 0); --version prints the version', async () => {
    const help = await hb('--help');
    expect(help.code).toBe(0);
    const text = help.stdout.toString('utf8');
    expect(text).toMatch(/^Usage: hb <verb> <url> \[options\]/);
    for (const option of [
      '-H,',
      '-q,',
      '--json',
      '--data',
      '--form',
      '--file',
      '--basic',
      '--digest',
      '--backend',
      '--insecure',
      '--timeout',
      '--retry',
      '--session',
      '-o,',
      '-i,',
      '-v,',
    ])
      expect(text).toContain(option);
    expect(text).toMatch(/Examples:\n( {2}hb .+\n)+$/);
    expect((await hb('get', 'http://x', '-h')).stdout.toString('utf8')).toBe(text);

    const version = await hb('--version');
    const { version: packageVersion } = (await import('../../package.json', { with: { type: 'json' } })).default as { version: string };
    expect({ code: version.code, stdout: version.stdout.toString('utf8') }).toEqual({ code: 0, stdout: `hb (httpbuilder-ts) ${packageVersion}\n` });
  });
});

describe('hb: passwords never appear in messages', () => {
  it('a wrong --basic password: exit 4, one line without the password', async () => {
    basicRoute(holder.server, { user: 'ada', password: 'right-password' });
    const result = await hb('get', `${holder.server.httpUrl}/basic`, '--basic', 'ada:hunter2-wrong');
    expect(result.code).toBe(4);
    expect(oneErrorLine(result)).toBe(`hb: 401 Unauthorized (GET ${holder.server.httpUrl}/basic)`);
  });

  it('a wrong --digest password: exit 4, one line without the password', async () => {
    const route = digestRoute(holder.server, { user: 'ada', password: 'right-password' });
    const result = await hb('get', `${holder.server.httpUrl}/digest`, '--digest', 'ada:hunter2-wrong');
    expect(result.code).toBe(4);
    expect(oneErrorLine(result)).toBe(`hb: 401 Unauthorized (GET ${holder.server.httpUrl}/digest)`);
    expect(route.rejected).toBe(1); // the library answered once and gave up, no loop
  });

  it('credentials in the URL are not shown, on a 401 or on a refused connection', async () => {
    basicRoute(holder.server, { user: 'ada', password: 'right-password' });
    const refused = await hb('get', `http://ada:pw-in-url-1@127.0.0.1:${await closedPort()}/x`, '--digest', 'bob:pw-digest-2');
    const denied = await hb('get', holder.server.httpUrl.replace('//', '//ada:pw-in-url-3@') + '/basic');
    expect(refused.code).toBe(1);
    expect(denied.code).toBe(4);
    for (const result of [refused, denied]) {
      const line = oneErrorLine(result);
      expect(line).not.toMatch(/pw-|ada:/);
    }
    expect(denied.stderr).toBe(`hb: 401 Unauthorized (GET ${holder.server.httpUrl}/basic)\n`);
  });
});
