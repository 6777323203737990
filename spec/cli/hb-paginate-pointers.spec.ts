// hb --paginate over wrapped pages: --items <json-pointer> finds each page's array (a GitHub
// search page's /items), --next <json-pointer> the cursor of the next page, sent as the query
// parameter --cursor-param names (cursor by default). Bad pointers are bad input (exit 2).
import { describe, expect, it } from '@jest/globals';
import { parseCommandLine, type CliRequest } from '../../lib/cli/args.js';
import { UsageError } from '../../lib/cli/failure.js';
import { parsePointer, pointAt } from '../../lib/cli/json-pointer.js';
import { useTestServer } from '../support/use-test-server.js';
import { outcome } from './support/hb-outcome.js';
import { useBuiltHb } from './support/use-built-hb.js';

const holder = useTestServer();
const { hb } = useBuiltHb();

function json(body: unknown) {
  return { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
}

function request(argv: string[]): CliRequest {
  const command = parseCommandLine(argv);
  if (command.kind !== 'request') throw new Error(`not a request: ${command.kind}`);
  return command.request;
}

describe('JSON pointers (RFC 6901)', () => {
  it('reads ~1 as / and ~0 as ~, and indexes arrays by decimal numbers', () => {
    const document = { 'a/b': { '~k': [10, 20] }, '': 'empty name' };
    expect(pointAt(document, parsePointer('/a~1b/~0k/1', '--items'))).toBe(20);
    expect(pointAt(document, parsePointer('/', '--items'))).toBe('empty name');
    expect(pointAt(document, parsePointer('', '--items'))).toBe(document);
    expect(pointAt(document, parsePointer('/a~1b/~0k/01', '--items'))).toBeUndefined();
    expect(pointAt(document, parsePointer('/missing/deeper', '--items'))).toBeUndefined();
    expect(pointAt({ toString: 1 }, parsePointer('/constructor', '--items'))).toBeUndefined();
  });

  it.each([
    ['items', "--items expects a JSON pointer such as /items (starting with '/'), got 'items'"],
    ['/a~2b', "--items: in a JSON pointer '~' is written ~0 and '/' ~1, got '/a~2b'"],
    ['/a~', "--items: in a JSON pointer '~' is written ~0 and '/' ~1, got '/a~'"],
  ])('refuses %j', (text, message) => {
    expect(() => parsePointer(text, '--items')).toThrow(new UsageError(message));
  });
});

describe('reading --items, --next and --cursor-param', () => {
  it('keeps the pointers and the parameter name', () => {
    expect(request(['get', 'h', '--paginate', '--items', '/items', '--next', '/meta/next', '--cursor-param', 'after']).pages).toEqual({
      items: { text: '/items', tokens: ['items'] },
      next: { text: '/meta/next', tokens: ['meta', 'next'] },
      cursorParam: 'after',
    });
  });

  it.each([
    [['--items', '/items'], '--items says how --paginate reads a page: use it with --paginate'],
    [['--paginate', '--cursor-param', 'after'], '--cursor-param names the query parameter of --next: give --next <json-pointer>'],
    [['--paginate', '--next', '/n', '--cursor-param', ''], '--cursor-param needs a parameter name'],
    [['--paginate', '--next', '/a', '--next', '/b'], '--next given more than once'],
    [['--paginate', '--next', 'next_cursor'], "--next expects a JSON pointer such as /items (starting with '/'), got 'next_cursor'"],
  ])('%j is bad input', (flags, message) => {
    expect(() => request(['get', 'h', ...flags])).toThrow(new UsageError(message));
  });
});

describe('hb --paginate with pointers', () => {
  it('--items reads a wrapped page; the Link header still leads to the next page', async () => {
    const { server } = holder;
    server.expect({
      method: 'GET',
      path: '/search/issues',
      query: { q: 'bug' },
      respond: {
        ...json({ total_count: 3, items: [{ n: 1 }, { n: 2 }] }),
        headers: { 'Content-Type': 'application/json', Link: '</search/issues?q=bug&page=2>; rel="next"' },
      },
    });
    server.expect({ method: 'GET', path: '/search/issues', query: { q: 'bug', page: '2' }, respond: json({ total_count: 3, items: [{ n: 3 }] }) });
    const result = await hb('get', `${server.httpUrl}/search/issues`, '-q', 'q=bug', '--paginate', '--items', '/items');
    expect(outcome(result)).toEqual({ code: 0, stdout: '{"n":1}\n{"n":2}\n{"n":3}\n', stderr: '' });
  });

  it('--next follows the cursor as ?cursor=, keeping the other parameters, until it is null', async () => {
    const { server } = holder;
    server.expect({ method: 'GET', path: '/audit', query: { limit: '2' }, respond: json({ data: { entries: ['a', 'b'] }, next: 'c2' }) });
    server.expect({ method: 'GET', path: '/audit', query: { limit: '2', cursor: 'c2' }, respond: json({ data: { entries: ['c', 'd'] }, next: 7 }) });
    server.expect({ method: 'GET', path: '/audit', query: { limit: '2', cursor: '7' }, respond: json({ data: { entries: ['e'] }, next: null }) });
    const result = await hb('get', `${server.httpUrl}/audit`, '-q', 'limit=2', '--paginate', '--items', '/data/entries', '--next', '/next');
    expect(outcome(result)).toEqual({ code: 0, stdout: '"a"\n"b"\n"c"\n"d"\n"e"\n', stderr: '' });
    expect(server.requests.map((r) => r.target)).toEqual(['/audit?limit=2', '/audit?limit=2&cursor=c2', '/audit?limit=2&cursor=7']);
  });

  it('--cursor-param names the parameter (its value encoded); a page without a cursor ends the walk', async () => {
    const { server } = holder;
    server.expect({ method: 'GET', path: '/events', query: {}, respond: json({ results: [1, 2], paging: { after: 'x y&z' } }) });
    server.expect({ method: 'GET', path: '/events', query: { after: 'x y&z' }, respond: json({ results: [3], paging: {} }) });
    const result = await hb('get', `${server.httpUrl}/events`, '--paginate', '--items', '/results', '--next', '/paging/after', '--cursor-param', 'after');
    expect(outcome(result)).toEqual({ code: 0, stdout: '1\n2\n3\n', stderr: '' });
    expect(server.requests).toHaveLength(2);
  });

  it('a page without the --items array: exit 2 naming the flag and the page, after the items already printed', async () => {
    const { server } = holder;
    server.expect({ method: 'GET', path: '/list', query: {}, respond: json({ items: ['first'], next: 'p2' }) });
    server.expect({ method: 'GET', path: '/list', query: { cursor: 'p2' }, respond: json({ error: 'gone' }) });
    const result = outcome(await hb('get', `${server.httpUrl}/list`, '--paginate', '--items', '/items', '--next', '/next'));
    expect(result).toEqual({
      code: 2,
      stdout: '"first"\n',
      stderr: `hb: --items /items: the page ${server.httpUrl}/list?cursor=p2 has nothing there, not an array; see hb --help\n`,
    });
  });

  it('a cursor that is an object: exit 2 naming --next', async () => {
    const { server } = holder;
    server.expect({ method: 'GET', path: '/odd', respond: json({ items: [1], next: { page: 2 } }) });
    const result = outcome(await hb('get', `${server.httpUrl}/odd`, '--paginate', '--items', '/items', '--next', '/next'));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('1\n');
    expect(result.stderr).toContain('--next /next: the page');
    expect(result.stderr).toContain('has an object there, not a cursor (a string or a number)');
  });

  it('a bad pointer is refused before anything is sent', async () => {
    const result = outcome(await hb('get', `${holder.server.httpUrl}/list`, '--paginate', '--items', 'items'));
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--items expects a JSON pointer');
    expect(holder.server.requests).toHaveLength(0);
  });
});
