// The request side of the `hb` binary: every option as it arrives at the real test server.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicRoute, digestRoute, OK_TEXT } from '../support/auth/index.js';
import { parseMultipart } from '../support/multipart-parser.js';
import { ProxyServer } from '../support/proxy-server.js';
import { headerValue } from '../support/recorded-request.js';
import { useTestServer } from '../support/use-test-server.js';
import { VERSION } from '../../lib/core/version.js';
import { builtCli } from './support/built-cli.js';
import { runHb, type HbResult, type StdinSpec } from './support/run-hb.js';

const holder = useTestServer();
let cli = '';
beforeAll(async () => {
  cli = await builtCli();
}, 180_000);

const dir = mkdtempSync(join(tmpdir(), 'hb-request-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TEXT = { headers: { 'Content-Type': 'text/plain' }, body: 'done' };

function hb(...args: string[]): Promise<HbResult> {
  return runHb(cli, args);
}

/** Runs hb with `stdin` as its standard input. */
function hbWithStdin(stdin: StdinSpec, ...args: string[]): Promise<HbResult> {
  return runHb(cli, args, { stdin });
}

/** The one request the server received (fails when there were more or none). */
function onlyRequest() {
  const { requests } = holder.server;
  expect(requests).toHaveLength(1);
  return requests[0];
}

/** Asserts a successful run that printed `stdout` and nothing on stderr. */
function expectOk(result: HbResult, stdout: string): void {
  expect({ code: result.code, stderr: result.stderr, stdout: result.stdout.toString('utf8') }).toEqual({ code: 0, stderr: '', stdout });
}

describe('hb: verbs and URL', () => {
  it.each(['get', 'post', 'put', 'delete', 'patch', 'options'])('%s sends that method through the library', async (verb) => {
    holder.server.expect({ method: verb.toUpperCase(), path: '/verb', respond: TEXT });
    expectOk(await hb(verb, `${holder.server.httpUrl}/verb`), 'done');
    const request = onlyRequest();
    expect(headerValue(request.rawHeaders, 'user-agent')).toBe(`httpbuilder-ts/${VERSION}`);
    // the library's wire rules: an empty POST/PUT/PATCH says Content-Length: 0, the others send none
    expect(headerValue(request.rawHeaders, 'content-length')).toBe(['post', 'put', 'patch'].includes(verb) ? '0' : undefined);
  });

  it('head sends HEAD and prints nothing', async () => {
    holder.server.expect({ method: 'HEAD', path: '/verb', respond: { headers: { 'Content-Type': 'text/plain', 'Content-Length': '4' } } });
    expectOk(await hb('head', `${holder.server.httpUrl}/verb`), '');
    expect(onlyRequest().method).toBe('HEAD');
  });

  it('takes the verb in any case and a URL without scheme as http://', async () => {
    holder.server.expect({ method: 'GET', path: '/bare', respond: TEXT });
    expectOk(await hb('GET', `${holder.server.httpUrl.replace('http://', '')}/bare`), 'done');
    expect(onlyRequest().secure).toBe(false);
  });

  it('accepts options before, between and after the verb and URL', async () => {
    holder.server.expect({ method: 'GET', path: '/order', query: { a: '1', b: '2' }, headers: { 'X-Place': 'first' }, respond: TEXT });
    expectOk(await hb('-H', 'X-Place: first', 'get', '-q', 'a=1', `${holder.server.httpUrl}/order`, '--query=b=2'), 'done');
  });
});

describe('hb: -H and -q', () => {
  it('-H sends each header; repeated names are joined; the value is trimmed and may contain colons', async () => {
    holder.server.expect({ method: 'GET', path: '/h', respond: TEXT });
    expectOk(
      await hb(
        'get',
        `${holder.server.httpUrl}/h`,
        '-H',
        'X-One: 1',
        '-H',
        'X-Time:  12:30:00 ',
        '-H',
        'X-Rep: a',
        '-H',
        'x-rep: b',
        '-HX-Short:yes',
        '-H',
        'X-Empty:',
      ),
      'done',
    );
    const { rawHeaders } = onlyRequest();
    expect(headerValue(rawHeaders, 'x-one')).toBe('1');
    expect(headerValue(rawHeaders, 'x-time')).toBe('12:30:00');
    expect(headerValue(rawHeaders, 'x-rep')).toBe('a, b');
    expect(headerValue(rawHeaders, 'x-short')).toBe('yes');
    expect(headerValue(rawHeaders, 'x-empty')).toBe('');
  });

  it('-H overrides the library defaults (Accept, User-Agent)', async () => {
    holder.server.expect({ method: 'GET', path: '/h', headers: { Accept: 'text/csv', 'User-Agent': 'tester/1' }, respond: TEXT });
    expectOk(await hb('get', `${holder.server.httpUrl}/h`, '-H', 'Accept: text/csv', '-H', 'User-Agent: tester/1'), 'done');
  });

  it('-q adds percent-encoded parameters, repeats a name per value, and keeps the query of the URL', async () => {
    holder.server.expect({ method: 'GET', path: '/q', respond: TEXT });
    expectOk(await hb('get', `${holder.server.httpUrl}/q?z=0`, '-q', 'a=1', '-q', 'a=2', '-q', 'sp ace=x&y=+', '-q', 'empty='), 'done');
    const request = onlyRequest();
    expect(request.query).toEqual({ z: ['0'], a: ['1', '2'], 'sp ace': ['x&y=+'], empty: [''] });
    expect(request.target).toContain('sp%20ace=x%26y%3D%2B');
  });
});

describe('hb: bodies', () => {
  it('--json sends the text byte for byte as application/json and asks for JSON', async () => {
    const json = '{ "name": "Ada",\n  "n": 12345678901234567890, "ü": "é" }';
    holder.server.expect({
      method: 'POST',
      path: '/json',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', 'Content-Length': String(Buffer.byteLength(json)) },
      body: json,
      respond: TEXT,
    });
    expectOk(await hb('post', `${holder.server.httpUrl}/json`, '--json', json), 'done');
  });

  it('--json takes its Content-Type and Accept from -H when given', async () => {
    holder.server.expect({
      method: 'PUT',
      path: '/json',
      headers: { 'Content-Type': 'application/vnd.acme+json', Accept: '*/*' },
      body: '[1,2]',
      respond: TEXT,
    });
    expectOk(await hb('put', `${holder.server.httpUrl}/json`, '--json', '[1,2]', '-H', 'content-type: application/vnd.acme+json', '-H', 'Accept: */*'), 'done');
  });

  it('--form sends an urlencoded form; a repeated name repeats in the body', async () => {
    holder.server.expect({ method: 'POST', path: '/form', respond: TEXT });
    expectOk(
      await hb('post', `${holder.server.httpUrl}/form`, '--form', 'name=Ada Lovelace', '--form', 'tag=a', '--form', 'tag=b&c', '--form', 'eq=1=2'),
      'done',
    );
    const request = onlyRequest();
    expect(headerValue(request.rawHeaders, 'content-type')).toBe('application/x-www-form-urlencoded');
    expect([...new URLSearchParams(request.body.toString('utf8'))]).toEqual([
      ['name', 'Ada Lovelace'],
      ['tag', 'a'],
      ['tag', 'b&c'],
      ['eq', '1=2'],
    ]);
  });

  it('--file sends multipart/form-data with the --form fields first, then the files as they are on disk', async () => {
    const text = join(dir, 'notes.txt');
    const binary = join(dir, 'blob.bin');
    const bytes = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 256));
    writeFileSync(text, 'some notes\r\nline two');
    writeFileSync(binary, bytes);
    holder.server.expect({ method: 'POST', path: '/upload', respond: TEXT });
    expectOk(
      await hb('post', `${holder.server.httpUrl}/upload`, '--file', `notes=@${text}`, '--form', 'alpha=one', '--file', `blob=@${binary}`, '--form', 'beta=two'),
      'done',
    );
    const request = onlyRequest();
    const parsed = parseMultipart(request.body, headerValue(request.rawHeaders, 'content-type'));
    expect(
      parsed.parts.map((part) => ({
        name: part.disposition?.params.name,
        filename: part.disposition?.params.filename,
        type: part.headers['content-type'],
        body: part.body.toString('latin1'),
      })),
    ).toEqual([
      { name: 'alpha', filename: undefined, type: undefined, body: 'one' },
      { name: 'beta', filename: undefined, type: undefined, body: 'two' },
      { name: 'notes', filename: 'notes.txt', type: 'text/plain', body: 'some notes\r\nline two' },
      { name: 'blob', filename: 'blob.bin', type: 'application/octet-stream', body: bytes.toString('latin1') },
    ]);
  });
});

describe('hb: authentication', () => {
  it('--basic sends the credentials with the first request', async () => {
    const route = basicRoute(holder.server, { user: 'ada', password: 'pa:ss word' });
    expectOk(await hb('get', `${holder.server.httpUrl}/basic`, '--basic', 'ada:pa:ss word'), OK_TEXT);
    expect({ authorized: route.authorized, challenges: route.challenges }).toEqual({ authorized: 1, challenges: 0 });
  });

  it('--bearer sends Authorization: Bearer <token>, and -v shows it as ***', async () => {
    holder.server.expect({ method: 'GET', path: '/token', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'in' } });
    const result = await hb('get', `${holder.server.httpUrl}/token`, '--bearer', 'tok.en-1~', '-v');
    expect([result.code, result.stdout.toString()]).toEqual([0, 'in']);
    expect(holder.server.requests[0].headers.authorization).toBe('Bearer tok.en-1~');
    expect(result.stderr).toContain('Authorization: ***');
    expect(result.stderr).not.toContain('tok.en-1~');
  });

  it('credentials in the URL are used as Basic credentials', async () => {
    const route = basicRoute(holder.server, { user: 'ada', password: 'secret' });
    expectOk(await hb('get', holder.server.httpUrl.replace('//', '//ada:secret@') + '/basic'), OK_TEXT);
    expect(route.authorized).toBe(1);
  });

  it.each(['MD5', 'SHA-256'] as const)('--digest answers a %s challenge (query included in the digest uri)', async (algorithm) => {
    const route = digestRoute(holder.server, { user: 'ada', password: 'wonder land', algorithm });
    expectOk(await hb('get', `${holder.server.httpUrl}/digest`, '-q', 'page=2', '--digest', 'ada:wonder land'), OK_TEXT);
    expect({ authorized: route.authorized, challenges: route.challenges, rejected: route.rejected }).toEqual({ authorized: 1, challenges: 1, rejected: 0 });
    expect(route.lastAuthorization?.uri).toBe('/digest?page=2');
  });

  it('--digest works for a POST with a body (the challenge is answered by resending it)', async () => {
    const route = digestRoute(holder.server, { user: 'ada', password: 'pw' });
    expectOk(await hb('post', `${holder.server.httpUrl}/digest`, '--digest', 'ada:pw', '--json', '{"a":1}'), OK_TEXT);
    expect(route.authorized).toBe(1);
    expect(route.requests.map((r) => r.body.toString('utf8'))).toEqual(['{"a":1}', '{"a":1}']);
  });
});

describe('hb: --backend and --insecure', () => {
  it.each(['native', 'axios', 'got', 'fetch'])('--backend %s makes the same request over HTTPS with --insecure', async (backend) => {
    holder.server.expect({ method: 'POST', path: '/b', secure: true, headers: { 'Content-Type': 'application/json' }, body: '{"x":1}', respond: TEXT });
    expectOk(await hb('post', `${holder.server.httpsUrl}/b`, '--backend', backend, '--insecure', '--json', '{"x":1}', '-H', 'X-Backend: yes'), 'done');
    const request = onlyRequest();
    expect(headerValue(request.rawHeaders, 'user-agent')).toBe(`httpbuilder-ts/${VERSION}`);
    expect(headerValue(request.rawHeaders, 'x-backend')).toBe('yes');
  });

  it('without --insecure a self-signed certificate is refused: exit 1, one line, no request handled', async () => {
    holder.server.expect({ method: 'GET', path: '/tls', respond: TEXT });
    const result = await hb('get', `${holder.server.httpsUrl}/tls`);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^hb: NetworkError: [^\n]+\n$/);
    expect(result.stdout.length).toBe(0);
    expect(holder.server.requests).toHaveLength(0);
  });
});

describe('hb: proxies (environment, --proxy, --noproxy)', () => {
  let proxy: ProxyServer;
  beforeAll(async () => {
    proxy = await ProxyServer.start({ auth: { scheme: 'digest', user: 'pu', password: 'proxy-secret' } });
  });
  afterEach(() => proxy.reset());
  afterAll(() => proxy.close());

  it('honours https_proxy as curl does, and answers the proxy with the URL credentials', async () => {
    holder.server.expect({ method: 'GET', path: '/env', secure: true, respond: TEXT });
    const result = await runHb(cli, ['get', `${holder.server.httpsUrl}/env`, '--insecure'], { env: { https_proxy: proxy.urlWith('pu', 'proxy-secret') } });
    expectOk(result, 'done');
    expect(proxy.seen.map((s) => `${s.method} ${s.status}`)).toEqual(['CONNECT 407', 'CONNECT 200']);
    expect(onlyRequest().headers['proxy-authorization']).toBeUndefined();
  });

  it('--proxy overrides the environment; --noproxy exempts a host; -v shows the proxy without its password', async () => {
    holder.server.expect({ method: 'GET', path: '/flag', respond: TEXT });
    const url = `${holder.server.httpUrl}/flag`;
    const env = { http_proxy: 'http://127.0.0.1:9' }; // would be refused
    const proxied = await runHb(cli, ['get', url, '--proxy', proxy.urlWith('pu', 'proxy-secret'), '-v'], { env });
    expect(proxied.code).toBe(0);
    expect(proxied.stderr).toContain(`* via the proxy http://***@127.0.0.1:${new URL(proxy.url).port}`);
    expect(proxied.stderr).not.toContain('proxy-secret');
    expect(proxy.seen.map((s) => `${s.method} ${s.target} ${s.status}`)).toEqual([`GET ${url} 407`, `GET ${url} 200`]);
    proxy.reset();
    expectOk(await runHb(cli, ['get', url, '--noproxy', '127.0.0.1'], { env }), 'done');
    expect(proxy.seen).toHaveLength(0);
  });

  it('a refused proxy is one line naming it as http://***@host:port; a bad --proxy is a usage error', async () => {
    const wrong = await hb('get', `${holder.server.httpUrl}/x`, '--proxy', proxy.urlWith('pu', 'not-the-secret'));
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^hb: ProxyError: the proxy http:\/\/\*\*\*@127\.0\.0\.1:\d+ asked for authentication[^\n]*407[^\n]*\n$/);
    expect(wrong.stderr).not.toContain('not-the-secret');
    const bad = await hb('get', `${holder.server.httpUrl}/x`, '--proxy', 'socks4://u:hidden@127.0.0.1:1080');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('--proxy');
    expect(bad.stderr).not.toContain('hidden');
  });
});

describe('hb: bodies from a file or stdin (--json @file, --json @-, --data)', () => {
  const json = '{ "name": "Ada",\n  "n": 12345678901234567890 }\n';

  it('--json @file sends the file byte for byte as application/json and asks for JSON', async () => {
    const file = join(dir, 'user.json');
    writeFileSync(file, json);
    holder.server.expect({
      method: 'POST',
      path: '/json',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: json,
      respond: TEXT,
    });
    expectOk(await hb('post', `${holder.server.httpUrl}/json`, '--json', `@${file}`), 'done');
  });

  it('--json @- sends what a shell pipe brings, byte for byte', async () => {
    holder.server.expect({
      method: 'PUT',
      path: '/json',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: json,
      respond: TEXT,
    });
    expectOk(await hbWithStdin({ through: 'fifo', data: json }, 'put', `${holder.server.httpUrl}/json`, '--json', '@-'), 'done');
  });

  it('--json @file or @- that is not JSON is refused before anything is sent', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{"a":');
    holder.server.expect({ method: 'POST', path: '/json', respond: TEXT });
    for (const result of [
      await hb('post', `${holder.server.httpUrl}/json`, '--json', `@${file}`),
      await hbWithStdin({ through: 'fifo', data: '' }, 'post', `${holder.server.httpUrl}/json`, '--json', '@-'),
    ]) {
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^hb: --json: not valid JSON \(.+\); see hb --help\n$/);
    }
    expect(holder.server.requests).toHaveLength(0);
  });

  it('--data @- sends any bytes from stdin as they are, typed by -H Content-Type', async () => {
    const bytes = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));
    holder.server.expect({ method: 'POST', path: '/raw', headers: { 'Content-Type': 'image/png', 'Content-Length': String(bytes.length) }, respond: TEXT });
    expectOk(
      await hbWithStdin({ through: 'socket', data: bytes }, 'post', `${holder.server.httpUrl}/raw`, '--data', '@-', '-H', 'Content-Type: image/png'),
      'done',
    );
    expect(onlyRequest().body.equals(bytes)).toBe(true);
  });

  it('--data @- from a redirected file, --data @file and --data text default to application/octet-stream', async () => {
    const file = join(dir, 'payload.txt');
    writeFileSync(file, 'from a file\n');
    holder.server.expect({ method: 'PUT', path: '/raw', headers: { 'Content-Type': 'application/octet-stream', Accept: '*/*' }, respond: TEXT });
    expectOk(await hbWithStdin({ through: 'file', data: 'redirected in' }, 'put', `${holder.server.httpUrl}/raw`, '--data', '@-'), 'done');
    expectOk(await hb('put', `${holder.server.httpUrl}/raw`, '--data', `@${file}`), 'done');
    expectOk(await hb('put', `${holder.server.httpUrl}/raw`, '--data', 'a=1&b=2'), 'done');
    expect(holder.server.requests.map((r) => r.body.toString('utf8'))).toEqual(['redirected in', 'from a file\n', 'a=1&b=2']);
  });

  it('--data @- with an empty stdin sends an empty body, as asked', async () => {
    holder.server.expect({ method: 'POST', path: '/raw', headers: { 'Content-Length': '0' }, body: '', respond: TEXT });
    expectOk(await hbWithStdin({ through: 'fifo' }, 'post', `${holder.server.httpUrl}/raw`, '--data', '@-'), 'done');
  });
});

describe('hb: a body on stdin that no option reads', () => {
  it.each(['fifo', 'socket', 'file'] as const)('through a %s, it is refused (exit 2) before anything is sent', async (through) => {
    holder.server.expect({ method: 'POST', path: '/users', respond: TEXT });
    const result = await hbWithStdin({ through, data: '{"name":"Ada"}' }, 'post', `${holder.server.httpUrl}/users`, '-H', 'X-Any: 1');
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('hb: stdin has data that no option reads: send it with --data @- or --json @-, or give hb < /dev/null; see hb --help\n');
    expect(holder.server.requests).toHaveLength(0);
  });

  it('also next to a --json body given on the command line', async () => {
    holder.server.expect({ method: 'POST', path: '/users', respond: TEXT });
    const result = await hbWithStdin({ through: 'fifo', data: 'more' }, 'post', `${holder.server.httpUrl}/users`, '--json', '{}');
    expect(result.code).toBe(2);
    expect(holder.server.requests).toHaveLength(0);
  });

  it.each([
    ['an empty pipe', { through: 'fifo' }],
    ['a pipe nobody writes to (as on GitHub Actions)', { through: 'socket' }],
    ['an empty file', { through: 'file' }],
  ] as const)('%s is no body: the request goes out', async (_what, stdin: StdinSpec) => {
    holder.server.expect({ method: 'GET', path: '/plain', respond: TEXT });
    expectOk(await hbWithStdin(stdin, 'get', `${holder.server.httpUrl}/plain`), 'done');
    expect(onlyRequest().body.length).toBe(0);
  });
});

describe('hb: --timeout and --retry', () => {
  it('--timeout limits the whole call: a server that never answers fails with exit 1 and a timeout line', async () => {
    holder.server.expect({ method: 'GET', path: '/hang', respond: () => {} });
    const started = Date.now();
    const result = await hb('get', `${holder.server.httpUrl}/hang`, '--timeout', '300');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`hb: TimeoutError: total timeout: the call did not complete within 300 ms (${holder.server.httpUrl}/hang)\n`);
    expect(result.stdout.length).toBe(0);
  });

  it('--timeout 0 is no limit, as in curl', async () => {
    holder.server.expect({ method: 'GET', path: '/plain', respond: TEXT });
    expectOk(await hb('get', `${holder.server.httpUrl}/plain`, '--timeout', '0'), 'done');
  });

  it('--retry sends again after a 503: the server sees two requests and hb exits 0; without it, one and exit 5', async () => {
    let calls = 0;
    holder.server.expect({
      method: 'GET',
      path: '/busy',
      respond: (_req, res) => {
        calls += 1;
        res.writeHead(calls === 1 ? 503 : 200, { 'Content-Type': 'text/plain' });
        res.end(calls === 1 ? 'busy' : 'done');
      },
    });
    expectOk(await hb('get', `${holder.server.httpUrl}/busy`, '--retry', '2'), 'done');
    expect(holder.server.requests).toHaveLength(2);

    calls = 0;
    const once = await hb('get', `${holder.server.httpUrl}/busy`);
    expect({ code: once.code, stdout: once.stdout.toString('utf8') }).toEqual({ code: 5, stdout: 'busy' });
    expect(holder.server.requests).toHaveLength(3);
  });
});

describe('hb: --session', () => {
  it('cookies set in one run (on a redirect hop too) are sent in the next; the file is JSON with mode 0600', async () => {
    const file = join(dir, 'session.json');
    holder.server.expect({
      method: 'POST',
      path: '/login',
      respond: { status: 303, headers: { Location: '/home', 'Set-Cookie': ['session=s1; Path=/; HttpOnly'] } },
    });
    holder.server.expect({
      method: 'GET',
      path: '/home',
      respond: { headers: { 'Content-Type': 'text/plain', 'Set-Cookie': ['theme=dark; Path=/'] }, body: 'home' },
    });
    holder.server.expect({ method: 'GET', path: '/me', respond: TEXT });
    expectOk(await hb('post', `${holder.server.httpUrl}/login`, '--session', file), 'home');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { cookies: Array<{ key: string }> };
    expect(saved.cookies.map((cookie) => cookie.key).sort()).toEqual(['session', 'theme']);

    expectOk(await hb('get', `${holder.server.httpUrl}/me`, '--session', file), 'done');
    expect(holder.server.requests.map((r) => [r.path, r.cookies])).toEqual([
      ['/login', {}],
      ['/home', { session: 's1' }],
      ['/me', { session: 's1', theme: 'dark' }],
    ]);
  });

  it('without --session nothing is kept between runs', async () => {
    holder.server.expect({ method: 'GET', path: '/set', respond: { headers: { 'Content-Type': 'text/plain', 'Set-Cookie': ['a=1'] }, body: 'done' } });
    expectOk(await hb('get', `${holder.server.httpUrl}/set`), 'done');
    expectOk(await hb('get', `${holder.server.httpUrl}/set`), 'done');
    expect(holder.server.requests.map((r) => headerValue(r.rawHeaders, 'cookie'))).toEqual([undefined, undefined]);
  });
});
