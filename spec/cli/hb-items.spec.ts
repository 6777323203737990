// httpie's request items on the `hb` binary: what each item makes arrive at the real test server,
// the method chosen without a verb, -X for any method, and the items hb refuses (nothing sent).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseMultipart } from '../support/multipart-parser.js';
import { useTestServer } from '../support/use-test-server.js';
import { builtCli } from './support/built-cli.js';
import { runHb, type HbResult } from './support/run-hb.js';

const holder = useTestServer();
let cli = '';
beforeAll(async () => {
  cli = await builtCli();
}, 180_000);

const dir = mkdtempSync(join(tmpdir(), 'hb-items-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function hb(...args: string[]): Promise<HbResult> {
  return runHb(cli, args);
}

/** Answers `method path` with `done`, runs hb, and returns the one request that arrived. */
async function arrived(method: string, path: string, args: (url: string) => string[]) {
  holder.server.expect({ method, path, respond: { headers: { 'Content-Type': 'text/plain' }, body: 'done' } });
  const result = await hb(...args(`${holder.server.httpUrl}${path}`));
  expect({ code: result.code, stderr: result.stderr, stdout: result.stdout.toString('utf8') }).toEqual({ code: 0, stderr: '', stdout: 'done' });
  expect(holder.server.requests).toHaveLength(1);
  return holder.server.requests[0];
}

describe('hb: request items', () => {
  it('fields and raw JSON make a JSON object, with queries and headers beside it; no verb and a body: POST', async () => {
    const req = await arrived('POST', '/users', (url) => [url, 'name=Ada', 'age:=36', 'tags:=["x",{"y":null}]', 'page==2', 'X-Trace:on', 'page==3']);
    expect(req.query).toEqual({ page: ['2', '3'] });
    expect(req.headers['x-trace']).toBe('on');
    expect(req.headers['content-type']).toBe('application/json');
    expect(req.headers.accept).toBe('application/json');
    expect(req.body.toString('utf8')).toBe('{"name":"Ada","age":36,"tags":["x",{"y":null}]}');
  });

  it('without data items the method is GET; a verb or -X still chooses', async () => {
    const get = await arrived('GET', '/list', (url) => [url, 'q==ada', 'Accept:text/plain']);
    expect({ query: get.query, accept: get.headers.accept, body: get.body.length }).toEqual({ query: { q: ['ada'] }, accept: 'text/plain', body: 0 });
    holder.server.reset();
    const put = await arrived('PUT', '/users/1', (url) => ['put', url, 'name=Ada']);
    expect(put.body.toString('utf8')).toBe('{"name":"Ada"}');
  });

  it('-X sends any method: PROPFIND with a header item, QUERY with a JSON body', async () => {
    const propfind = await arrived('PROPFIND', '/files/', (url) => ['-X', 'PROPFIND', url, 'Depth:1']);
    expect(propfind.headers.depth).toBe('1');
    holder.server.reset();
    const query = await arrived('QUERY', '/contacts', (url) => [url, '-X', 'query', 'name=Ada']);
    expect(query.body.toString('utf8')).toBe('{"name":"Ada"}');
  });

  it('a repeated field keeps its last value; a backslash keeps a separator in the name', async () => {
    const req = await arrived('POST', '/p', (url) => [url, 'a=1', 'a=2', 'x\\=y=z', 'h\\:m=s']);
    expect(req.body.toString('utf8')).toBe('{"a":"2","x=y":"z","h:m":"s"}');
  });

  it('Name: leaves out a header hb would send; Name; sends it empty', async () => {
    const req = await arrived('GET', '/h', (url) => [url, 'User-Agent:', 'X-Empty;']);
    expect(req.headers['user-agent']).toBeUndefined();
    expect(req.rawHeaders).toContainEqual(['X-Empty', '']);
  });

  it('--form (a switch before the URL, or with a field) makes fields urlencoded', async () => {
    const switched = await arrived('POST', '/form', (url) => ['--form', url, 'name=Ada', 'city=Zürich']);
    expect(switched.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(switched.body.toString('utf8')).toBe('name=Ada&city=Z%C3%BCrich');
    holder.server.reset();
    const given = await arrived('POST', '/form', (url) => ['post', url, '--form', 'name=Ada', 'city=Bern']);
    expect(given.body.toString('utf8')).toBe('name=Ada&city=Bern');
  });

  it('a file item makes a multipart form: the fields first, then the file', async () => {
    const file = join(dir, 'notes.txt');
    writeFileSync(file, 'line one\n');
    const req = await arrived('POST', '/upload', (url) => [url, 'note=draft', `doc@${file}`]);
    const { parts } = parseMultipart(req.body, req.headers['content-type'] as string);
    expect(parts.map((part) => ({ params: part.disposition?.params, type: part.headers['content-type'], body: part.body.toString('utf8') }))).toEqual([
      { params: { name: 'note' }, type: undefined, body: 'draft' },
      { params: { name: 'doc', filename: 'notes.txt' }, type: 'text/plain', body: 'line one\n' },
    ]);
  });
});

describe('hb: items it refuses (exit 2, nothing sent)', () => {
  const refused: ReadonlyArray<[string, (url: string) => string[], RegExp]> = [
    ['raw JSON that is not', (url) => [url, 'age:=thirty'], /^hb: request item 'age:=thirty': not valid JSON after ':='/],
    ['an argument without a separator', (url) => [url, 'stray'], /^hb: unexpected argument 'stray' \(a request item needs a separator/],
    ['an item without a name', (url) => [url, '=x'], /^hb: request item '=x' has no name before '='/],
    ['data items with --json', (url) => [url, '--json', '{}', 'a=1'], /^hb: --json is the whole body: drop the data items \(a=\.\.\.\) or the option/],
    ['raw JSON in a form', (url) => ['--form', url, 'a:=1'], /^hb: raw JSON \(a:=\.\.\.\) cannot go into a form/],
    ['a method that is no token', (url) => ['-X', 'GET /x', url], /^hb: -X expects a method name such as PROPFIND, got 'GET \/x'/],
    ['-X CONNECT', (url) => ['-X', 'CONNECT', url], /^hb: -X CONNECT opens a tunnel, not a request: use --proxy/],
    ['-X with a verb', (url) => ['get', url, '-X', 'PUT'], /^hb: -X PUT and the verb 'get' both name the method: give one/],
    ['a misspelt verb', (url) => ['gte', url], /^hb: unknown verb 'gte' \(did you mean get\?\); a host named so needs its scheme: http:\/\/gte/],
    ['a misspelt option', (url) => [url, '--jsn', '{}'], /^hb: unknown option '--jsn' \(did you mean --json\?\)/],
  ];
  it.each(refused)('%s', async (_, args, message) => {
    const result = await hb(...args(`${holder.server.httpUrl}/nothing`));
    expect({ code: result.code, stdout: result.stdout.toString('utf8') }).toEqual({ code: 2, stdout: '' });
    expect(result.stderr).toMatch(message);
    expect(result.stderr).toMatch(/; see hb --help\n$/);
    expect(holder.server.requests).toHaveLength(0);
  });
});
