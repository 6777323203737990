// Unit tests of the CLI's parts that need no server: argument parsing, JSON pretty-printing,
// the progress bar, the output style, the one-line error text, -v's heads and stdin.
import { describe, expect, it } from '@jest/globals';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { parseCommandLine, type CliRequest } from '../../lib/cli/args.js';
import { describeError, exitCodeForStatus, oneLine, UsageError } from '../../lib/cli/failure.js';
import { prettyJson } from '../../lib/cli/json-pretty.js';
import { formatBytes, ProgressBar, renderBar } from '../../lib/cli/progress-bar.js';
import { isJsonType, outputStyle } from '../../lib/cli/render.js';
import { fileContentType } from '../../lib/cli/request.js';
import { bodyWaiting, readAll, stdinKind, type Stdin } from '../../lib/cli/stdin.js';
import { requestHead, responseHead } from '../../lib/cli/verbose.js';
import { bufferedBody, type WireRequest, type WireResponse } from '../../lib/model/backend.js';

function request(argv: string[]): CliRequest {
  const command = parseCommandLine(argv);
  if (command.kind !== 'request') throw new Error(`expected a request, got ${command.kind}`);
  return command.request;
}

describe('parseCommandLine', () => {
  it('reads every option, short and long, in any position', () => {
    expect(
      request([
        '-H',
        'A: 1',
        'POST',
        '--header=B:2',
        'example.com:8080/p?x=1',
        '-q',
        'a=1',
        '--query',
        'a=2',
        '--form',
        'f=v',
        '--file',
        'up=@./x.txt',
        '--digest',
        'u:p:w',
        '--backend',
        'got',
        '--insecure',
        '--proxy',
        'http://pu:pp@127.0.0.1:3128',
        '--noproxy',
        'localhost, .internal',
        '-o',
        'out.bin',
        '-C',
        '-',
        '-i',
        '-v',
        '--timeout',
        '2500',
        '--retry=3',
        '--session',
        's.json',
        '--public-only',
        '-w',
        '%{http_code}',
        '--cacert',
        'ca.pem',
        '--cert',
        'me.pem',
        '--cert-type',
        'pem',
        '--key',
        'me.key',
        '--pass',
        'phrase',
        `--pinnedpubkey=sha256//${'a'.repeat(43)}=;sha256//${'b'.repeat(43)}=`,
        '--http2',
        'X-Item:1',
        'n==2',
        'g=w',
        'User-Agent:',
        '--unix-socket',
        '/run/api.sock',
        '--resolve',
        'api.test:8080:127.0.0.1',
        '--resolve=API.test:443:[::1],10.0.0.1',
        '-6',
        '--max-redirs',
        '3',
        '--connect-timeout',
        '1500',
        '--netrc-file',
        'my.netrc',
        '--compress',
        '--compress',
        '--compress-with',
        'gzip',
      ]),
    ).toEqual({
      verb: 'post',
      url: new URL('http://example.com:8080/p?x=1'),
      headers: [
        ['A', '1'],
        ['B', '2'],
        ['X-Item', '1'],
      ],
      query: [
        ['a', '1'],
        ['a', '2'],
        ['n', '2'],
      ],
      json: undefined,
      data: undefined,
      form: [
        ['f', 'v'],
        ['g', 'w'],
      ],
      files: [{ name: 'up', path: './x.txt' }],
      auth: { scheme: 'digest', user: 'u', password: 'p:w' },
      backend: 'got',
      insecure: true,
      proxy: 'http://pu:pp@127.0.0.1:3128',
      noProxy: ['localhost', '.internal'],
      output: 'out.bin',
      download: { headerName: false, resume: true },
      paginate: false,
      stream: false,
      include: true,
      verbose: true,
      timeout: 2500,
      retry: 3,
      session: 's.json',
      publicOnly: true,
      writeOut: '%{http_code}',
      tls: {
        cacert: 'ca.pem',
        cert: 'me.pem',
        certType: 'PEM',
        key: 'me.key',
        passphrase: 'phrase',
        pins: { from: 'digests', digests: [`${'a'.repeat(43)}=`, `${'b'.repeat(43)}=`] },
      },
      http2: true,
      unsetHeaders: ['User-Agent'],
      print: { parts: 'hb', offline: false, curl: false },
      pages: { items: undefined, next: undefined, cursorParam: 'cursor' },
      transport: {
        unixSocket: '/run/api.sock',
        resolve: [
          { host: 'api.test', port: 8080, addresses: ['127.0.0.1'] },
          { host: 'api.test', port: 443, addresses: ['::1', '10.0.0.1'] },
        ],
        family: 6,
        follow: true,
        maxRedirs: 3,
        connectTimeout: 1500,
      },
      netrc: { file: 'my.netrc' },
      compress: { encoding: 'gzip', minSize: 0 },
    });
  });

  it('has plain defaults', () => {
    expect(request(['get', 'https://h/'])).toMatchObject({
      headers: [],
      query: [],
      form: [],
      files: [],
      auth: undefined,
      backend: undefined,
      insecure: false,
      proxy: undefined,
      noProxy: undefined,
      output: undefined,
      download: { headerName: false, resume: false },
      paginate: false,
      stream: false,
      include: false,
      verbose: false,
      timeout: undefined,
      retry: undefined,
      session: undefined,
      cache: undefined,
      json: undefined,
      data: undefined,
      pages: { items: undefined, next: undefined, cursorParam: 'cursor' },
      transport: { unixSocket: undefined, resolve: [], family: undefined, follow: true, maxRedirs: undefined, connectTimeout: undefined },
      netrc: undefined,
      compress: undefined,
    });
  });

  it('reads where --json and --data take their body from: the text, @file or @- (stdin)', () => {
    expect(request(['post', 'h', '--json', '{"a":1}']).json).toEqual({ from: 'text', text: '{"a":1}' });
    expect(request(['post', 'h', '--json', '@body.json']).json).toEqual({ from: 'file', path: 'body.json' });
    expect(request(['post', 'h', '--json', '@-']).json).toEqual({ from: 'stdin' });
    expect(request(['post', 'h', '--data', 'a=1&b']).data).toEqual({ from: 'text', text: 'a=1&b' });
    expect(request(['post', 'h', '--data=@-']).data).toEqual({ from: 'stdin' });
  });

  it('--paginate is for get alone, and neither --paginate nor --stream goes with -o; --paginate not with -i', () => {
    expect(request(['get', 'h', '--paginate'])).toMatchObject({ paginate: true, stream: false });
    expect(request(['post', 'h', '--stream', '-i'])).toMatchObject({ paginate: false, stream: true, include: true });
    for (const [argv, message] of [
      [['post', 'h', '--paginate'], '--paginate walks the pages of a list: use it with get'],
      [['get', 'h', '--paginate', '--stream'], '--paginate and --stream cannot be combined'],
      [['get', 'h', '--paginate', '-o', 'out.json'], '--paginate prints to stdout: drop -o'],
      [['get', 'h', '--stream', '-o', 'out.txt'], '--stream prints to stdout: drop -o'],
      [['get', 'h', '--paginate', '-i'], '--paginate prints items, not responses: drop -i'],
    ] as const) {
      expect(() => parseCommandLine(argv)).toThrow(new UsageError(message));
    }
  });

  it('--cache names the folder of a cache kept across runs', () => {
    expect(request(['get', 'h', '--cache', '.hb-cache'])).toMatchObject({ cache: '.hb-cache' });
    expect(() => parseCommandLine(['get', 'h', '--cache', 'a', '--cache', 'b'])).toThrow(new UsageError('--cache given more than once'));
  });

  it('--timeout 0 means no limit; --retry 0 is no retry', () => {
    expect(request(['get', 'h', '--timeout', '0', '--retry', '0'])).toMatchObject({ timeout: undefined, retry: 0 });
  });

  it('--help and --version win over everything else', () => {
    expect(parseCommandLine(['get', '--help', '-H', 'broken'])).toEqual({ kind: 'help' });
    expect(parseCommandLine(['--version'])).toEqual({ kind: 'version' });
  });

  it('`--` ends the options', () => {
    expect(request(['get', '--', 'h/-q']).url.href).toBe('http://h/-q');
  });

  it('never repeats a password in its errors', () => {
    for (const argv of [
      ['get', 'h', '--basic', 'nocolon-secret'],
      ['get', 'http://u:secret-in-url@[bad'],
    ]) {
      expect(() => parseCommandLine(argv)).toThrow(UsageError);
      try {
        parseCommandLine(argv);
      } catch (error) {
        expect((error as Error).message).not.toContain('secret');
      }
    }
  });
});

describe('prettyJson', () => {
  it('indents by two spaces, keeps empty containers short and every digit of a number', () => {
    expect(prettyJson('{"a":[1,{"b":null}],"e":{},"f":[],"n":-1.5e+300,"big":123456789012345678901234567890}', false)).toBe(
      '{\n  "a": [\n    1,\n    {\n      "b": null\n    }\n  ],\n  "e": {},\n  "f": [],\n  "n": -1.5e+300,\n  "big": 123456789012345678901234567890\n}\n',
    );
  });

  it('keeps strings as written: escapes, quotes, structural characters inside them', () => {
    const text = '["a\\"b\\\\", "{[,:]}", "\\u00e9\\n"]';
    expect(prettyJson(text, false)).toBe('[\n  "a\\"b\\\\",\n  "{[,:]}",\n  "\\u00e9\\n"\n]\n');
  });

  it('shows repeated keys (JSON.parse would keep only the last)', () => {
    expect(prettyJson('{"k":1,"k":2}', false)).toBe('{\n  "k": 1,\n  "k": 2\n}\n');
  });

  it('pretty-prints scalars and ignores a byte order mark', () => {
    expect(prettyJson('\ufeff "text" ', false)).toBe('"text"\n');
    expect(prettyJson('42', false)).toBe('42\n');
  });

  it('colours keys, strings, numbers and literals differently (jq palette)', () => {
    expect(prettyJson('{"k":"v","n":1,"t":true}', true)).toBe(
      '\x1b[1;39m{\x1b[0m\n  \x1b[34;1m"k"\x1b[0m\x1b[1;39m:\x1b[0m \x1b[32m"v"\x1b[0m\x1b[1;39m,\x1b[0m\n' +
        '  \x1b[34;1m"n"\x1b[0m\x1b[1;39m:\x1b[0m \x1b[0;39m1\x1b[0m\x1b[1;39m,\x1b[0m\n' +
        '  \x1b[34;1m"t"\x1b[0m\x1b[1;39m:\x1b[0m \x1b[1;30mtrue\x1b[0m\n\x1b[1;39m}\x1b[0m\n',
    );
  });

  it('returns undefined for text that is not JSON', () => {
    for (const text of ['', '{', '{"a":1,}', "{'a':1}", 'NaN', '[1] [2]']) expect(prettyJson(text, false)).toBeUndefined();
  });
});

describe('progress bar', () => {
  it('formats sizes', () => {
    expect([0, 1023, 1024, 1536, 10 * 1024 * 1024, 3 * 1024 ** 3].map(formatBytes)).toEqual(['0 B', '1023 B', '1.0 KiB', '1.5 KiB', '10.0 MiB', '3.0 GiB']);
  });

  it('renders a bar with percentage and sizes, fitting the width', () => {
    expect(renderBar({ transferred: 512, total: 2048, percent: 25 }, 79)).toBe(`[${'#'.repeat(10)}${'.'.repeat(30)}]  25%  512 B / 2.0 KiB`);
    const narrow = renderBar({ transferred: 512, total: 2048, percent: 25 }, 30);
    expect(narrow.length).toBeLessThanOrEqual(30);
    expect(narrow).toMatch(/^\[#*\.+\] {2}25%/);
    expect(renderBar({ transferred: 512, total: 2048, percent: 25 }, 12).length).toBeLessThanOrEqual(12);
  });

  it('renders the bytes so far when the total is unknown', () => {
    expect(renderBar({ transferred: 5000, total: undefined, percent: undefined }, 79)).toBe('4.9 KiB received');
  });

  it('redraws at most once per interval, and finish() draws the last state and ends the line', () => {
    const writes: string[] = [];
    let now = 1000;
    const bar = new ProgressBar({ write: (t: string) => writes.push(t), columns: 60 }, 100, () => now);
    bar.update({ transferred: 10, total: 100, percent: 10 });
    now += 50;
    bar.update({ transferred: 20, total: 100, percent: 20 }); // too soon: not drawn
    now += 60;
    bar.update({ transferred: 30, total: 100, percent: 30 });
    bar.update({ transferred: 100, total: 100, percent: 100 }); // too soon, but finish() shows it
    bar.finish();
    expect(writes.map((w) => /(\d+)%/.exec(w)?.[1] ?? w)).toEqual(['10', '30', '100', '\n']);
    expect(writes[0].startsWith('\r[') && writes[0].endsWith('\x1b[K')).toBe(true);
  });

  it('finish() writes nothing when nothing was received', () => {
    const writes: string[] = [];
    new ProgressBar({ write: (t: string) => writes.push(t) }).finish();
    expect(writes).toEqual([]);
  });
});

describe('output style and failures', () => {
  it('is pretty only on a terminal, coloured unless NO_COLOR or TERM=dumb', () => {
    expect(outputStyle(undefined, {})).toEqual({ pretty: false, colour: false });
    expect(outputStyle(true, {})).toEqual({ pretty: true, colour: true });
    expect(outputStyle(true, { NO_COLOR: '1' })).toEqual({ pretty: true, colour: false });
    expect(outputStyle(true, { NO_COLOR: '' })).toEqual({ pretty: true, colour: true });
    expect(outputStyle(true, { TERM: 'dumb' })).toEqual({ pretty: true, colour: false });
  });

  it('knows JSON media types', () => {
    expect(['application/json', 'application/problem+json', 'text/json', 'application/jsonl'].map(isJsonType)).toEqual([true, true, false, false]);
  });

  it('maps statuses to exit codes', () => {
    expect([200, 204, 302, 399, 400, 404, 499, 500, 503].map(exitCodeForStatus)).toEqual([0, 0, 0, 0, 4, 4, 4, 5, 5]);
  });

  it('makes one safe line: control characters and line breaks become spaces, secrets are masked', () => {
    expect(oneLine('first\nsecond\r\n\tthird \x1b[31mred\x1b[0m')).toBe('first second third [31mred [0m');
    expect(oneLine('auth for ada:hunter2 failed (hunter2)', ['hunter2', 'abc'])).toBe('auth for ada:*** failed (***)');
  });

  it('describes errors as Name: message, from any realm', () => {
    expect(describeError(new TypeError('bad'))).toBe('TypeError: bad');
    expect(describeError({ name: 'NetworkError', message: 'refused' })).toBe('NetworkError: refused');
    expect(describeError('plain')).toBe('Error: plain');
  });

  it('guesses part content types from the file extension', () => {
    expect(['a.txt', 'b.JSON', 'c.png', 'd', 'e.weird'].map(fileContentType)).toEqual([
      'text/plain',
      'application/json',
      'image/png',
      'application/octet-stream',
      'application/octet-stream',
    ]);
  });
});

describe('-v heads', () => {
  const wire = (target: string, headers: Record<string, string>, port = 8080): WireRequest => ({
    method: 'POST',
    url: `http://api.test:${port}${target}`,
    secure: false,
    hostname: 'api.test',
    port,
    target,
    headers,
    body: bufferedBody(new Uint8Array(2)),
  });

  it('the request line, Host (the port only when not the default), the headers as handed over, credentials as ***', () => {
    expect(
      requestHead(
        wire('/users?access_token=abc&page=2', {
          'User-Agent': 'hb',
          authorization: 'Basic YWRhOnB3',
          Cookie: 'a=1',
          'Proxy-Authorization': 'x',
          'X-Api-Key': 'k3y',
          'X-Author': 'ada',
          'Content-Length': '2',
        }),
      ),
    ).toBe(
      [
        '> POST /users?access_token=***&page=2 HTTP/1.1',
        '> Host: api.test:8080',
        '> User-Agent: hb',
        '> authorization: ***',
        '> Cookie: ***',
        '> Proxy-Authorization: ***',
        '> X-Api-Key: ***',
        '> X-Author: ada',
        '> Content-Length: 2',
        '>',
        '',
      ].join('\n'),
    );
    expect(requestHead(wire('/', { Host: 'other.test' }, 80))).toBe('> POST / HTTP/1.1\n> Host: other.test\n>\n');
    expect(requestHead(wire('/', {}, 80))).toBe('> POST / HTTP/1.1\n> Host: api.test\n>\n');
  });

  /** A response head with an empty body. */
  const bodiless = (statusCode: number, message: string, headers: WireResponse['headers']): WireResponse => ({
    statusCode,
    message,
    headers,
    body: (async function* () {})(),
    decoded: false,
    discard: () => {},
  });

  it('the status line and the headers as received, Set-Cookie as ***, control characters shown as \\xNN', () => {
    const response = bodiless(503, 'Down \x1b[31m', [
      ['set-cookie', 'sid=1'],
      ['Set-Cookie', 'b=2'],
      ['X-Odd', 'a\x07b'],
    ]);
    expect(responseHead(response)).toBe('< HTTP/1.1 503 Down \\x1b[31m\n< set-cookie: ***\n< Set-Cookie: ***\n< X-Odd: a\\x07b\n<\n');
  });

  it('URLs in Location, Content-Location and Link as the request line shows them: user info and credential-like query values as ***', () => {
    const response = bodiless(302, 'Found', [
      ['Location', 'https://ada:pw@bucket.test/r.csv?X-Amz-Credential=AKIA1&X-Amz-Signature=abc&X-Amz-Expires=60'],
      ['Location', '/next;jsessionid=s1?page=2&token=t0k#top'],
      ['Content-Location', '//ada:pw@cdn.test/x?sig=s'],
      ['Link', '<https://a.test/2?access_token=t2>; rel="next", </9?page=9&api_key=k9>; rel="last"'],
      ['X-Auth-Token', 'tok'],
      ['X-Note', 'see /x?token=kept-not-a-url-header'],
    ]);
    expect(responseHead(response).split('\n')).toEqual([
      '< HTTP/1.1 302 Found',
      '< Location: https://***@bucket.test/r.csv?X-Amz-Credential=***&X-Amz-Signature=***&X-Amz-Expires=60',
      '< Location: /next;jsessionid=***?page=2&token=***#top',
      '< Content-Location: //***@cdn.test/x?sig=***',
      '< Link: <https://a.test/2?access_token=***>; rel="next", </9?page=9&api_key=***>; rel="last"',
      '< X-Auth-Token: ***',
      '< X-Note: see /x?token=kept-not-a-url-header',
      '<',
      '',
    ]);
  });
});

describe('stdin', () => {
  const stdinOf = (stream: PassThrough): Stdin => ({ kind: 'pipe', stream: () => stream });

  it('is judged by fstat: /dev/null and an empty file are no input, a file with bytes is', () => {
    const folder = mkdtempSync(join(tmpdir(), 'hb-stdin-kind-'));
    writeFileSync(join(folder, 'empty'), '');
    writeFileSync(join(folder, 'full'), 'x');
    const fds = ['/dev/null', join(folder, 'empty'), join(folder, 'full')].map((path) => openSync(path, 'r'));
    try {
      expect(fds.map(stdinKind)).toEqual(['none', 'none', 'file']);
      expect(stdinKind(987_654)).toBe('none'); // not open
    } finally {
      fds.forEach((fd) => closeSync(fd));
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('a pipe has a body waiting when bytes arrive; not when it ends empty or stays silent past the grace time', async () => {
    const withData = new PassThrough();
    withData.end('x');
    const ended = new PassThrough();
    ended.end();
    const silent = new PassThrough();
    expect(await Promise.all([bodyWaiting(stdinOf(withData)), bodyWaiting(stdinOf(ended)), bodyWaiting(stdinOf(silent), 20)])).toEqual([true, false, false]);
    expect([withData.destroyed, ended.destroyed, silent.destroyed]).toEqual([true, true, true]);
    expect(await bodyWaiting({ kind: 'file', stream: () => new PassThrough() })).toBe(true);
    expect(await bodyWaiting({ kind: 'none', stream: () => new PassThrough() })).toBe(false);
  });

  it('readAll reads to the end, and stops with an AbortError when the signal fires', async () => {
    const stream = new PassThrough();
    stream.write('a');
    stream.end(Buffer.from([0, 255]));
    expect(await readAll(stream)).toEqual(Buffer.from([97, 0, 255]));
    const controller = new AbortController();
    const waiting = readAll(new PassThrough(), controller.signal);
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  });
});
