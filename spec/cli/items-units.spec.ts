// Unit tests of hb's request items, positionals, print modes and suggestions (no server).
import { describe, expect, it } from '@jest/globals';
import { parseCommandLine } from '../../lib/cli/args.js';
import { UsageError } from '../../lib/cli/failure.js';
import { jsonBody, parseItem } from '../../lib/cli/items.js';
import { closest, editDistance } from '../../lib/cli/suggest.js';

describe('parseItem', () => {
  it('splits at the first separator, the longest one where two start together', () => {
    expect(parseItem('a=b=c')).toEqual({ kind: 'field', name: 'a', value: 'b=c' });
    expect(parseItem('a==b=c')).toEqual({ kind: 'query', name: 'a', value: 'b=c' });
    expect(parseItem('n:=[1,2]')).toEqual({ kind: 'json', name: 'n', value: [1, 2] });
    expect(parseItem('Host:example.com:8080')).toEqual({ kind: 'header', name: 'Host', value: 'example.com:8080' });
    expect(parseItem('X-A:  spaced ')).toEqual({ kind: 'header', name: 'X-A', value: 'spaced' });
    expect(parseItem('X-A:')).toEqual({ kind: 'header', name: 'X-A', value: undefined });
    expect(parseItem('X-A;')).toEqual({ kind: 'header', name: 'X-A', value: '' });
    expect(parseItem('doc@./a=b.txt')).toEqual({ kind: 'file', name: 'doc', path: './a=b.txt' });
    expect(parseItem('mail=ada@example.com')).toEqual({ kind: 'field', name: 'mail', value: 'ada@example.com' });
  });

  it('a backslash keeps a separator character in the name', () => {
    expect(parseItem('a\\:b=c')).toEqual({ kind: 'field', name: 'a:b', value: 'c' });
    expect(parseItem('a\\@b\\\\=c')).toEqual({ kind: 'field', name: 'a@b\\', value: 'c' });
  });

  it('refuses text without a separator or name, and := text that is not JSON', () => {
    expect(() => parseItem('plain')).toThrow(UsageError);
    expect(() => parseItem(':=1')).toThrow("request item ':=1' has no name before ':='");
    expect(() => parseItem('doc@')).toThrow("request item 'doc@' needs a file name after '@'");
    expect(() => parseItem('X;v')).toThrow("'Name;' sends an empty header");
  });

  it('jsonBody: one object in order, the last value of a repeated name, __proto__ an ordinary key', () => {
    expect(jsonBody(['b=1', 'a:=2', 'b=3', '__proto__=x'].map(parseItem))).toBe('{"b":"3","a":2,"__proto__":"x"}');
  });
});

describe('nested JSON names, as httpie 3', () => {
  const body = (...items: string[]) => jsonBody(items.map(parseItem));

  it('keys, indexes and appends build objects and arrays; [] alone an array body', () => {
    expect(body('a[b]=1', 'a[c]:=2', 'l[]=x', 'l[]=y', 'i[2]=z')).toBe('{"a":{"b":"1","c":2},"l":["x","y"],"i":[null,null,"z"]}');
    expect(body('[]=1', '[]:=2')).toBe('["1",2]');
    expect(body('a[b]=1', 'a=2')).toBe('{"a":"2"}');
    expect(body('__proto__[x]=1')).toBe('{"__proto__":{"x":"1"}}');
    expect(body()).toBe('{}');
  });

  it('a step that does not fit what an earlier item set, or a malformed name: a usage error naming the item', () => {
    expect(() => body('a=1', 'a[b]=2')).toThrow("request item 'a[b]=2': the key 'b' does not fit a string set by an earlier item");
    expect(() => body('a[b]=1', 'a[]=2')).toThrow("request item 'a[]=2': appending ([]) does not fit an object set by an earlier item");
    expect(() => body('x[y]z=1')).toThrow("request item 'x[y]z=1': a nested name is name[key][index][]");
    expect(() => body('i[100001]=1')).toThrow('index 100001 is over 100000');
  });
});

describe('positionals', () => {
  const request = (argv: string[]) => {
    const command = parseCommandLine(argv);
    if (command.kind !== 'request') throw new Error(command.kind);
    return command.request;
  };

  it('a verb, a URL alone (GET, or POST with a body) or -X chooses the method', () => {
    expect(request(['GET', 'h']).verb).toBe('get');
    expect(request(['h', 'q==1']).verb).toBe('get');
    expect(request(['h', 'a=1']).verb).toBe('post');
    expect(request(['h', '--data', 'x']).verb).toBe('post');
    expect(request(['-X', 'PropFind', 'h']).verb).toBe('propfind');
  });

  it('help and verbs are words: a host named so takes its scheme', () => {
    expect(parseCommandLine(['help'])).toEqual({ kind: 'help' });
    expect(parseCommandLine(['HELP', 'items'])).toEqual({ kind: 'help', topic: 'items' });
    expect(request(['http://help/x']).url.href).toBe('http://help/x');
    expect(request(['http://get/', 'a==1']).url.href).toBe('http://get/');
    expect(() => parseCommandLine(['help', 'nope'])).toThrow("no help topic 'nope'");
  });

  it('a bare word before a URL was meant as a verb', () => {
    expect(() => parseCommandLine(['fetch', 'https://h/'])).toThrow("unknown verb 'fetch' (did you mean patch?)");
    expect(() => parseCommandLine(['send', 'localhost:8080/x'])).toThrow("unknown verb 'send' (use get, head, post, put, delete, patch, options, or -X SEND)");
    expect(request(['localhost', 'name=Ada']).url.href).toBe('http://localhost/');
  });
});

describe('--form as a switch', () => {
  const form = (argv: string[]) => {
    const command = parseCommandLine(argv);
    if (command.kind !== 'request') throw new Error(command.kind);
    return command.request.form;
  };

  it('before a verb, a URL or an option it makes the fields form fields; before a field it takes it', () => {
    expect(form(['--form', 'POST', 'h', 'a=1'])).toEqual([['a', '1']]);
    expect(form(['--form', 'example.com/x?y=1', 'a=1'])).toEqual([['a', '1']]);
    expect(form(['h', 'a=1', '--form'])).toEqual([['a', '1']]);
    expect(form(['post', 'h', '--form', 'b=2', 'a=1'])).toEqual([
      ['b', '2'],
      ['a', '1'],
    ]);
    expect(() => parseCommandLine(['post', 'h', '--form', 'x'])).toThrow("--form expects name=value, got 'x'");
  });
});

describe('print modes', () => {
  const print = (...args: string[]) => {
    const command = parseCommandLine(['h', ...args]);
    if (command.kind !== 'request') throw new Error(command.kind);
    return command.request.print;
  };

  it('each flag is a set of --print letters', () => {
    expect(print()).toEqual({ parts: undefined, offline: false, curl: false });
    expect(print('--print', 'Hb')).toEqual({ parts: 'Hb', offline: false, curl: false });
    expect(print('--headers').parts).toBe('h');
    expect(print('-b').parts).toBe('b');
    expect(print('--quiet').parts).toBe('');
    expect(print('-i').parts).toBe('hb');
    expect(print('--offline')).toEqual({ parts: 'HB', offline: true, curl: false });
    expect(print('--offline', '--print', 'H')).toEqual({ parts: 'H', offline: true, curl: false });
    expect(print('--curl')).toEqual({ parts: undefined, offline: false, curl: true });
  });

  it('--paginate prints items: no print mode with it, but --offline', () => {
    expect(() => parseCommandLine(['get', 'h', '--paginate', '--headers'])).toThrow(
      '--paginate prints items, not responses: drop --print, --headers, -b or --quiet',
    );
    expect(parseCommandLine(['get', 'h', '--paginate', '--offline'])).toMatchObject({ request: { print: { parts: 'HB', offline: true } } });
  });
});

describe('suggestions', () => {
  it('edit distance counts a swap of neighbours as one edit', () => {
    expect(editDistance('jsno', 'json')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });

  it('closest: only a near miss, never a guess', () => {
    expect(closest('--jsn', ['--json', '--data'])).toBe('--json');
    expect(closest('--heders', ['--header', '--headers'])).toBe('--headers');
    expect(closest('--x', ['--json'])).toBeUndefined();
    expect(closest('--zzzzzz', ['--json'])).toBeUndefined();
  });
});
