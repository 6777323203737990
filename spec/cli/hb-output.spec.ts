// The output side of the `hb` binary: bodies piped and on a real terminal, -i, and -o downloads.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeRepeated } from '../../bench/pattern.js';
import { digestRoute } from '../support/auth/index.js';
import { useTestServer } from '../support/use-test-server.js';
import { builtCli } from './support/built-cli.js';
import { runHb, runHbInTerminal, type HbResult } from './support/run-hb.js';

const holder = useTestServer();
let cli = '';
beforeAll(async () => {
  cli = await builtCli();
}, 180_000);

const dir = mkdtempSync(join(tmpdir(), 'hb-output-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// odd spacing, a big integer and an escaped control character: piped output must keep all of it
const JSON_TEXT = '{"name":"Ada",  "tags":["x",[],{}],"big":12345678901234567890,"esc":"a\\u001bb","ok":true,"none":null}';
const PRETTY = [
  '{',
  '  "name": "Ada",',
  '  "tags": [',
  '    "x",',
  '    [],',
  '    {}',
  '  ],',
  '  "big": 12345678901234567890,',
  '  "esc": "a\\u001bb",',
  '  "ok": true,',
  '  "none": null',
  '}',
  '',
].join('\n');
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

function hb(...args: string[]): Promise<HbResult> {
  return runHb(cli, args);
}

function expectJsonRoute(path = '/data.json'): void {
  holder.server.expect({
    method: 'GET',
    path,
    respond: { headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Custom': 'yes' }, body: JSON_TEXT },
  });
}

describe('hb: piped output (stdout is not a terminal)', () => {
  it('writes a JSON body byte for byte, not reformatted', async () => {
    expectJsonRoute();
    const result = await hb('get', `${holder.server.httpUrl}/data.json`);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout.toString('utf8')).toBe(JSON_TEXT);
  });

  it('writes a binary body exactly, decompressed', async () => {
    const bytes = randomBytes(200_000);
    holder.server.expect({ method: 'GET', path: '/blob', respond: { headers: { 'Content-Type': 'application/octet-stream' }, body: bytes, encoding: 'gzip' } });
    const result = await hb('get', `${holder.server.httpUrl}/blob`);
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout.equals(bytes)).toBe(true);
  });

  it('-i prints the status line and the headers as received, an empty line, then the body', async () => {
    holder.server.expect({
      method: 'POST',
      path: '/created',
      respond: { status: 201, headers: { 'Content-Type': 'text/plain', 'X-Multi': ['one', 'two'] }, body: 'made it' },
    });
    const result = await hb('post', `${holder.server.httpUrl}/created`, '-i');
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    const [head, body] = result.stdout.toString('utf8').split('\n\n');
    const lines = head.split('\n');
    expect(lines[0]).toBe('HTTP/1.1 201 Created');
    expect(lines).toEqual(expect.arrayContaining(['Content-Type: text/plain', 'X-Multi: one', 'X-Multi: two', 'Content-Length: 7']));
    expect(body).toBe('made it');
  });

  it('-i on HEAD prints only the head; -i on a 404 prints the head and the error body', async () => {
    holder.server.expect({ method: 'HEAD', path: '/h', respond: { headers: { ETag: '"v1"' } } });
    const head = await hb('head', `${holder.server.httpUrl}/h`, '-i');
    expect(head.code).toBe(0);
    expect(head.stdout.toString('utf8')).toMatch(/^HTTP\/1\.1 200 OK\n(.+\n)*ETag: "v1"\n(.+\n)*\n$/);

    holder.server.expect({ method: 'GET', path: '/gone', respond: { status: 404, headers: { 'Content-Type': 'text/plain' }, body: 'no such thing' } });
    const missing = await hb('get', `${holder.server.httpUrl}/gone`, '-i');
    expect(missing.code).toBe(4);
    expect(missing.stdout.toString('utf8')).toMatch(/^HTTP\/1\.1 404 Not Found\n(.+\n)+\nno such thing$/);
  });

  it('-o downloads the body to the file (and nothing to stdout or stderr)', async () => {
    const bytes = randomBytes(300_000);
    holder.server.expect({ method: 'GET', path: '/file.bin', respond: { headers: { 'Content-Type': 'application/octet-stream' }, body: bytes } });
    const file = join(dir, 'piped.bin');
    const result = await hb('get', `${holder.server.httpUrl}/file.bin`, '-o', file);
    expect({ code: result.code, stderr: result.stderr, stdout: result.stdout.length }).toEqual({ code: 0, stderr: '', stdout: 0 });
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('-o with -i writes the head to stdout and the body to the file', async () => {
    expectJsonRoute();
    const file = join(dir, 'with-head.json');
    const result = await hb('get', `${holder.server.httpUrl}/data.json`, '-o', file, '-i');
    expect(result.code).toBe(0);
    expect(result.stdout.toString('utf8')).toMatch(/^HTTP\/1\.1 200 OK\n(.+\n)*X-Custom: yes\n(.+\n)*\n$/);
    expect(readFileSync(file, 'utf8')).toBe(JSON_TEXT);
  });

  it('-o on a 404 creates no file and exits 4', async () => {
    holder.server.expect({
      method: 'GET',
      path: '/nope',
      respond: { status: 404, headers: { 'Content-Type': 'application/json' }, body: '{"error":"missing"}' },
    });
    const file = join(dir, 'never.bin');
    const result = await hb('get', `${holder.server.httpUrl}/nope`, '-o', file);
    expect(result.code).toBe(4);
    expect(result.stderr).toBe(`hb: 404 Not Found (GET ${holder.server.httpUrl}/nope)\n`);
    expect(existsSync(file)).toBe(false);
  });
});

describe('hb: -v (the heads of every exchange on stderr)', () => {
  /** The lines of a stderr that start with `mark` (`> ` or `< `), without it. */
  function marked(stderr: string, mark: string): string[] {
    return stderr
      .split('\n')
      .filter((line) => line.startsWith(mark))
      .map((line) => line.slice(mark.length));
  }

  it('shows each hop as curl -v does, credentials as ***, and leaves stdout as it is without -v', async () => {
    const host = holder.server.httpUrl.replace('http://', '');
    holder.server.expect({ method: 'GET', path: '/old', respond: { status: 302, headers: { Location: '/new', 'Set-Cookie': ['sid=s3cr3t-cookie'] } } });
    holder.server.expect({ method: 'GET', path: '/new', respond: { headers: { 'Content-Type': 'application/json', 'X-Custom': 'yes' }, body: JSON_TEXT } });
    const args = [
      'get',
      `${holder.server.httpUrl}/old?api_key=k3y-s3cret&page=2`,
      '--basic',
      'ada:pa55-word',
      '-H',
      'Cookie: mine=c00kie-value',
      '-H',
      'X-Team: core',
    ];
    const plain = await hb(...args);
    const result = await hb(...args, '-v');
    expect({ code: result.code, stdout: result.stdout.toString('utf8') }).toEqual({ code: 0, stdout: plain.stdout.toString('utf8') });
    expect(result.stdout.toString('utf8')).toBe(JSON_TEXT);

    const sent = marked(result.stderr, '> ');
    expect(sent.filter((line) => line.endsWith(' HTTP/1.1'))).toEqual(['GET /old?api_key=***&page=2 HTTP/1.1', 'GET /new HTTP/1.1']);
    expect(sent).toEqual(expect.arrayContaining([`Host: ${host}`, 'Authorization: ***', 'Cookie: ***', 'X-Team: core', 'Accept: */*']));
    const received = marked(result.stderr, '< ');
    expect(received.filter((line) => line.startsWith('HTTP/1.1 '))).toEqual(['HTTP/1.1 302 Found', 'HTTP/1.1 200 OK']);
    expect(received).toEqual(expect.arrayContaining(['Location: /new', 'Set-Cookie: ***', 'X-Custom: yes']));
    // each head ends with a bare mark, as in curl -v
    expect(result.stderr.match(/^>$/gm)).toHaveLength(2);
    expect(result.stderr.match(/^<$/gm)).toHaveLength(2);
    expect(result.stderr).not.toMatch(/pa55-word|YWRh|c00kie-value|s3cr3t-cookie|k3y-s3cret/);
  });

  it('redacts the URLs of Location, Content-Location and Link as the request line: a redirect to a pre-signed URL shows no signature', async () => {
    const { server } = holder;
    const origin = server.httpUrl;
    const query = 'X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAEXAMPLE%2F20240501&X-Amz-Expires=60&X-Amz-Signature=5ign4ture';
    const shownQuery = 'X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=***&X-Amz-Expires=60&X-Amz-Signature=***';
    const presigned = `${origin.replace('//', '//ada:l0cation-pw@')}/bucket/report.csv?${query}`;
    server.expect({
      method: 'GET',
      path: '/report',
      respond: { status: 302, headers: { Location: presigned, Link: '</report?page=2&access_token=l1nk-t0ken>; rel="next"' } },
    });
    server.expect({
      method: 'GET',
      path: '/bucket/report.csv',
      // the real URL goes on the wire
      query: { 'X-Amz-Algorithm': 'AWS4-HMAC-SHA256', 'X-Amz-Credential': 'AKIAEXAMPLE/20240501', 'X-Amz-Expires': '60', 'X-Amz-Signature': '5ign4ture' },
      respond: {
        headers: { 'Content-Type': 'text/csv', 'Content-Location': `${origin.replace('//', '//u:c0ntent-pw@')}/bucket/report.csv?sig=c0ntent-s1g` },
        body: 'id\n1\n',
      },
    });
    const result = await hb('get', `${origin}/report`, '-v');
    expect({ code: result.code, stdout: result.stdout.toString('utf8') }).toEqual({ code: 0, stdout: 'id\n1\n' });
    const shownOrigin = origin.replace('//', '//***@');
    expect(marked(result.stderr, '> ').filter((line) => line.endsWith(' HTTP/1.1'))).toEqual([
      'GET /report HTTP/1.1',
      `GET /bucket/report.csv?${shownQuery} HTTP/1.1`,
    ]);
    expect(marked(result.stderr, '< ')).toEqual(
      expect.arrayContaining([
        `Location: ${shownOrigin}/bucket/report.csv?${shownQuery}`,
        'Link: </report?page=2&access_token=***>; rel="next"',
        `Content-Location: ${shownOrigin}/bucket/report.csv?sig=***`,
      ]),
    );
    expect(result.stderr).not.toMatch(/5ign4ture|AKIAEXAMPLE|l0cation-pw|l1nk-t0ken|c0ntent-pw|c0ntent-s1g/);
  });

  it('shows both rounds of a Digest challenge, and -i still writes its head to stdout', async () => {
    const route = digestRoute(holder.server, { user: 'ada', password: 'wonder land' });
    const result = await hb('get', `${holder.server.httpUrl}/digest`, '--digest', 'ada:wonder land', '-v', '-i');
    expect(result.code).toBe(0);
    expect(route.authorized).toBe(1);
    expect(marked(result.stderr, '< ').filter((line) => line.startsWith('HTTP/1.1 '))).toEqual(['HTTP/1.1 401 Unauthorized', 'HTTP/1.1 200 OK']);
    expect(marked(result.stderr, '> ').filter((line) => line.startsWith('Authorization: '))).toEqual(['Authorization: ***']);
    expect(result.stdout.toString('utf8')).toMatch(/^HTTP\/1\.1 200 OK\n/);
    expect(result.stderr).not.toContain('wonder land');
  });
});

describe('hb: on a terminal (a real pseudo-terminal through script(1))', () => {
  it('pretty-prints and colours a JSON body', async () => {
    expectJsonRoute();
    const { code, screen } = await runHbInTerminal(cli, ['get', `${holder.server.httpUrl}/data.json`]);
    expect(code).toBe(0);
    const plain = screen.replace(ANSI, '').replace(/\r\n/g, '\n');
    expect(plain).toBe(PRETTY);
    // keys, strings and literals each in their colour
    expect(screen).toContain('\x1b[34;1m"name"\x1b[0m');
    expect(screen).toContain('\x1b[32m"Ada"\x1b[0m');
    expect(screen).toContain('\x1b[1;30mnull\x1b[0m');
  });

  it('pretty-prints without colours when NO_COLOR is set', async () => {
    expectJsonRoute();
    const { code, screen } = await runHbInTerminal(cli, ['get', `${holder.server.httpUrl}/data.json`], { env: { NO_COLOR: '1' } });
    expect(code).toBe(0);
    expect(screen.replace(/\r\n/g, '\n')).toBe(PRETTY);
  });

  it('shows a body that is not valid JSON as it came, even when labelled JSON', async () => {
    holder.server.expect({ method: 'GET', path: '/broken', respond: { headers: { 'Content-Type': 'application/json' }, body: '{"a":' } });
    const { code, screen } = await runHbInTerminal(cli, ['get', `${holder.server.httpUrl}/broken`]);
    expect(code).toBe(0);
    expect(screen).toBe('{"a":');
  });

  it('-i colours the head; -o draws a progress bar on stderr that ends at 100%', async () => {
    const bytes = randomBytes(1_000_000);
    holder.server.expect({ method: 'GET', path: '/big', respond: { headers: { 'Content-Type': 'application/octet-stream' }, body: bytes } });
    const file = join(dir, 'tty.bin');
    const { code, screen } = await runHbInTerminal(cli, ['get', `${holder.server.httpUrl}/big`, '-o', file, '-i']);
    expect(code).toBe(0);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(screen).toContain('\x1b[1mHTTP/1.1 200 OK\x1b[0m');
    expect(screen).toContain('\r[########################################] 100%  976.6 KiB / 976.6 KiB\x1b[K\r\n');
  });

  it('-o without a Content-Length shows the bytes received', async () => {
    holder.server.expect({
      method: 'GET',
      path: '/chunked',
      respond: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('x'.repeat(3000));
        res.end('y'.repeat(2000));
      },
    });
    const file = join(dir, 'chunked.txt');
    const { code, screen } = await runHbInTerminal(cli, ['get', `${holder.server.httpUrl}/chunked`, '-o', file]);
    expect(code).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe('x'.repeat(3000) + 'y'.repeat(2000));
    expect(screen.endsWith('\r4.9 KiB received\x1b[K\r\n')).toBe(true);
  });
});

describe('hb: --paginate and --stream', () => {
  it('--paginate prints every item of every page as one JSON line, following Link rel="next"', async () => {
    const base = holder.server.httpUrl;
    holder.server.expect({
      method: 'GET',
      path: '/items',
      query: {},
      respond: { headers: { 'Content-Type': 'application/json', Link: '</items?page=2>; rel="next"' }, body: '[{"id":1},{"id":2,"tags":["a"]}]' },
    });
    holder.server.expect({
      method: 'GET',
      path: '/items',
      query: { page: '2' },
      respond: { headers: { 'Content-Type': 'application/json' }, body: '["three"]' },
    });
    const result = await hb('get', `${base}/items`, '--paginate');
    expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
    expect(result.stdout.toString('utf8')).toBe('{"id":1}\n{"id":2,"tags":["a"]}\n"three"\n');
  });

  it('--paginate: a failing page exits with its status, after the items already printed', async () => {
    holder.server.expect({
      method: 'GET',
      path: '/list',
      respond: { headers: { 'Content-Type': 'application/json', Link: '</list-2>; rel="next"' }, body: '[1,2]' },
    });
    holder.server.expect({ method: 'GET', path: '/list-2', respond: { status: 503, headers: { 'Content-Type': 'text/plain' }, body: 'later' } });
    const result = await hb('get', `${holder.server.httpUrl}/list`, '--paginate');
    expect(result.code).toBe(5);
    expect(result.stdout.toString('utf8')).toBe('1\n2\n');
    expect(result.stderr).toBe(`hb: 503 Service Unavailable (GET ${holder.server.httpUrl}/list-2)\n`);
  });

  it('--paginate: a page whose next link names itself ends with one error line and exit code 1, after its items', async () => {
    const page = holder.server.expect({
      method: 'GET',
      path: '/loop',
      respond: { headers: { 'Content-Type': 'application/json', Link: '</loop?token=s3cret>; rel="next"' }, body: '["only"]' },
    });
    const result = await hb('get', `${holder.server.httpUrl}/loop?token=s3cret`, '--paginate');
    expect(result.code).toBe(1);
    expect(result.stdout.toString('utf8')).toBe('"only"\n');
    expect(result.stderr).toBe(
      `hb: HttpBuilderError: paginate(): the next page ${holder.server.httpUrl}/loop?token=*** was already fetched as page 1 of this walk: the pages link in a loop, so the walk stops\n`,
    );
    expect(page.calls).toBe(1);
  });

  it('--stream: a line longer than 16 MiB ends with one error line and exit code 1, after the lines before it', async () => {
    holder.server.expect({
      method: 'GET',
      path: '/no-end',
      respond: async (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('first\n');
        await writeRepeated(res, Buffer.alloc(65536, 'x'), 64 * 2 ** 20); // until the client goes away
      },
    });
    const result = await hb('get', `${holder.server.httpUrl}/no-end`, '--stream');
    expect(result.code).toBe(1);
    expect(result.stdout.toString('utf8')).toBe('first\n');
    expect(result.stderr).toBe(
      `hb: ResponseTooLargeError: a line of the response of ${holder.server.httpUrl}/no-end is larger than 16 MiB (16777216 bytes); without --stream the body is printed as it comes\n`,
    );
  });

  it('--stream prints the lines of a body as they complete, and server-sent events as JSON lines', async () => {
    holder.server.expect({
      method: 'GET',
      path: '/log',
      respond: async (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.write('one\r\ntw');
        await new Promise((resolve) => setTimeout(resolve, 30));
        res.end('o\nthree');
      },
    });
    const log = await hb('get', `${holder.server.httpUrl}/log`, '--stream');
    expect({ code: log.code, stdout: log.stdout.toString('utf8') }).toEqual({ code: 0, stdout: 'one\ntwo\nthree\n' });

    holder.server.expect({
      method: 'GET',
      path: '/feed',
      respond: { headers: { 'Content-Type': 'text/event-stream' }, body: ': hello\nevent: tick\ndata: 1\nid: a\n\ndata: x\ndata: y\n\n' },
    });
    const feed = await hb('get', `${holder.server.httpUrl}/feed`, '--stream');
    expect(feed.code).toBe(0);
    expect(feed.stdout.toString('utf8')).toBe('{"event":"tick","data":"1","id":"a"}\n{"event":"message","data":"x\\ny","id":"a"}\n');
  });
});

describe('hb: --cache', () => {
  it('keeps responses in a folder across runs: a fresh one answers the next run without a request, a stale one is revalidated', async () => {
    const folder = join(dir, 'http-cache');
    const fresh = holder.server.expect({
      method: 'GET',
      path: '/rates',
      respond: { headers: { 'Content-Type': 'application/json', 'Cache-Control': 'max-age=60' }, body: '{"eur":1.1}' },
    });
    const tagged = holder.server.expect({
      method: 'GET',
      path: '/tagged',
      respond: (req, res) =>
        req.headers['if-none-match'] === '"t1"'
          ? void res.writeHead(304, { ETag: '"t1"' }).end()
          : void res.writeHead(200, { 'Content-Type': 'text/plain', ETag: '"t1"', 'Cache-Control': 'no-cache' }).end('tagged body'),
    });
    for (let run = 0; run < 2; run++) {
      const rates = await hb('get', `${holder.server.httpUrl}/rates`, '--cache', folder);
      expect({ code: rates.code, stdout: rates.stdout.toString('utf8') }).toEqual({ code: 0, stdout: '{"eur":1.1}' });
      const body = await hb('get', `${holder.server.httpUrl}/tagged`, '--cache', folder);
      expect(body.stdout.toString('utf8')).toBe('tagged body');
    }
    expect(fresh.calls).toBe(1);
    expect(tagged.calls).toBe(2);
    expect(existsSync(folder)).toBe(true);
  });
});
