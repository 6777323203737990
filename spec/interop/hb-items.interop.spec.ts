// hb's request items cross-checked against httpie (Debian package `httpie`, command `http`), and
// hb's --curl output run with curl (Debian package `curl`): the same request sent both ways
// arrives identically at the same local test server (method, target, the headers that matter,
// the body).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { builtCli } from '../cli/support/built-cli.js';
import { runHb } from '../cli/support/run-hb.js';
import { parseMultipart } from '../support/multipart-parser.js';
import type { RecordedRequest } from '../support/recorded-request.js';
import { useTestServer } from '../support/use-test-server.js';

const holder = useTestServer();
let cli = '';
beforeAll(async () => {
  cli = await builtCli();
}, 180_000);

const dir = mkdtempSync(join(tmpdir(), 'hb-items-interop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a command (no shell unless asked) and resolves to its exit code and stdout. */
function exec(file: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(file, [...args], { timeout: 20_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : -1, stdout, stderr });
    });
  });
}

/** What a request carries that the items decide: the body as a value (JSON parsed, a form's parts), not its bytes' spacing or boundary. */
function essence(req: RecordedRequest, headers: readonly string[]) {
  const type = String(req.headers['content-type'] ?? '');
  const body = type.startsWith('application/json')
    ? (JSON.parse(req.body.toString('utf8')) as unknown)
    : type.startsWith('multipart/form-data')
      ? parseMultipart(req.body, type).parts.map((part) => ({
          ...part.disposition?.params,
          type: part.headers['content-type'],
          body: part.body.toString('utf8'),
        }))
      : req.body.toString('utf8');
  return {
    method: req.method,
    path: req.path,
    // httpie writes a space in a query as '+', hb as %20: the same in a form-encoded query
    query: Object.fromEntries(Object.entries(req.query).map(([name, values]) => [name, values.map((v) => v.replace(/\+/g, ' '))])),
    // httpie adds '; charset=utf-8' to a form's type; the parameters (a boundary too) aside
    type: type.replace(/;.*$/, ''),
    headers: Object.fromEntries(headers.map((name) => [name, req.headers[name]])),
    body,
  };
}

/** The one request `send` makes arrive at `path`. */
async function arriving(path: string, send: (url: string) => Promise<{ code: number; stderr: string }>): Promise<RecordedRequest> {
  holder.server.reset();
  holder.server.expect({ method: 'GET', path, respond: { body: 'ok' } });
  for (const method of ['POST', 'PUT', 'PATCH', 'PROPFIND', 'QUERY']) holder.server.expect({ method, path, respond: { body: 'ok' } });
  const result = await send(`${holder.server.httpUrl}${path}`);
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
  expect(holder.server.requests).toHaveLength(1);
  return holder.server.requests[0];
}

describe('hb and httpie send the same request for the same items', () => {
  const file = () => {
    const path = join(dir, 'notes.txt');
    writeFileSync(path, 'line one\n');
    return path;
  };
  // [what, httpie's words, hb's words (the same unless httpie needs --form for a file), headers to compare]
  const cases: ReadonlyArray<[string, () => string[], (() => string[]) | undefined, string[]]> = [
    [
      'JSON fields, raw JSON, queries and a header',
      () => ['name=Ada', 'age:=36', 'tags:=["x",{"y":null}]', 'ok:=true', 'page==2', 'page==3', 'X-Trace:on'],
      undefined,
      ['x-trace'],
    ],
    ['no data: GET with a query and a header', () => ['q==ada lovelace', 'Accept:text/plain'], undefined, ['accept']],
    ['nested names: keys, appends, an index', () => ['user[name]=Ada', 'user[age]:=36', 'user[tags][]=x', 'user[tags][]=y', 'slots[2]=z'], undefined, []],
    ['an array body', () => ['[]=1', '[]:=2'], undefined, []],
    ['a repeated field, escaped separators', () => ['a=1', 'a=2', 'x\\=y=z', 'h\\:m=s'], undefined, []],
    // (httpie's `User-Agent:` is filled in again by urllib3, `Accept:` is not)
    ['an unset and an empty header', () => ['Accept:', 'X-Empty;'], undefined, ['accept', 'x-empty']],
    ['a form', () => ['--form', 'name=Ada', 'city=Zürich'], undefined, []],
    ['a file with a field', () => ['--form', 'note=draft', `doc@${file()}`], () => ['note=draft', `doc@${file()}`], []],
    ['-X PROPFIND with a header', () => ['Depth:1'], undefined, ['depth']],
  ];
  it.each(cases)('%s', async (what, words, hbWords, headers) => {
    const method = what.startsWith('-X') ? ['PROPFIND'] : [];
    const byHttpie = await arriving('/items', (url) => {
      const args = words();
      const options = args.filter((w) => w.startsWith('--'));
      return exec('http', ['--ignore-stdin', ...options, ...method, url, ...args.filter((w) => !w.startsWith('--'))]);
    });
    const byHb = await arriving('/items', (url) =>
      runHb(cli, [...(method.length > 0 ? ['-X', ...method] : []), url, ...(hbWords ?? words)()]).then((r) => ({ code: r.code ?? -1, stderr: r.stderr })),
    );
    expect(essence(byHb, headers)).toEqual(essence(byHttpie, headers));
  });
});

describe('hb --curl prints a command that sends what hb sends', () => {
  const cases: ReadonlyArray<[string, (url: string) => string[]]> = [
    ['JSON items with a query and a header', (url) => [url, 'name=Ada', 'age:=36', 'page==2', 'X-Trace:on']],
    ['GET without a body', (url) => ['get', url, '-q', 'a=1 2', '-H', "X-Quote: it's"]],
    ['-X PROPFIND', (url) => ['-X', 'PROPFIND', url, 'Depth:1']],
    [
      '--resolve, --max-redirs, --connect-timeout',
      (url) => {
        const { port, pathname } = new URL(url);
        return ['get', `http://api.test:${port}${pathname}`, '--resolve', `api.test:${port}:127.0.0.1`, '--max-redirs', '2', '--connect-timeout', '5000'];
      },
    ],
    ['an empty PUT', (url) => ['put', url]],
    ['a form', (url) => ['--form', url, 'name=Ada', 'city=Zürich']],
    ['a multipart form', (url) => [url, 'note=@not-a-file', `doc@${join(dir, 'notes.txt')}`]],
    ['a multipart file whose name has ; , and "', (url) => [url, `doc@${join(dir, 'a;b, "c".txt')}`]],
    [
      '--data with its type, Basic credentials, an unset header',
      (url) => ['patch', url, '--data', 'a\nb', '-H', 'Content-Type: text/plain', '--basic', 'ada:s3cret', 'Accept:'],
    ],
  ];
  it.each(cases)('%s', async (_, args) => {
    writeFileSync(join(dir, 'notes.txt'), 'line one\n');
    writeFileSync(join(dir, 'a;b, "c".txt'), 'line two\n');
    const byHb = await arriving('/curl', (url) => runHb(cli, args(url)).then((r) => ({ code: r.code ?? -1, stderr: r.stderr })));
    let command = '';
    const byCurl = await arriving('/curl', async (url) => {
      const printed = await runHb(cli, [...args(url), '--curl']);
      command = printed.stdout.toString('utf8');
      // one command (a body's newline stays inside its quotes)
      expect(command).toMatch(/^curl [^\n]+(\n[^\n]+)*\n$/);
      return exec('sh', ['-c', `${command.trimEnd()} -sS -o /dev/null`]);
    });
    // everything but what each transport adds itself (and a multipart boundary)
    const others = (req: RecordedRequest) =>
      Object.keys(req.headers).filter((name) => !['host', 'connection', 'content-length', 'content-type'].includes(name));
    expect(others(byCurl).sort()).toEqual(others(byHb).sort());
    expect(essence(byCurl, others(byHb))).toEqual(essence(byHb, others(byHb)));
    if (!String(byHb.headers['content-type']).startsWith('multipart/')) {
      expect({ target: byCurl.target, body: byCurl.body.toString('latin1'), length: byCurl.headers['content-length'] }).toEqual({
        target: byHb.target,
        body: byHb.body.toString('latin1'),
        length: byHb.headers['content-length'],
      });
    }
  });
});
