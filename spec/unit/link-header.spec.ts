import { describe, expect, it } from '@jest/globals';
import { linkTo, parseLinks } from '../../lib/content/link-header.js';

const BASE = 'https://api.example.com/users?page=1';

describe('parseLinks', () => {
  it("reads GitHub's header: absolute targets, quoted rel, comma-separated links", () => {
    const header = '<https://api.github.com/repositories/1/issues?page=2>; rel="next", <https://api.github.com/repositories/1/issues?page=5>; rel="last"';
    expect(parseLinks([header], 'https://api.github.com/repositories/1/issues')).toEqual([
      { url: 'https://api.github.com/repositories/1/issues?page=2', rel: ['next'], params: { rel: 'next' } },
      { url: 'https://api.github.com/repositories/1/issues?page=5', rel: ['last'], params: { rel: 'last' } },
    ]);
  });

  it('reads every Link header value, in order', () => {
    const links = parseLinks(['<https://a.example/1>; rel=first, <https://a.example/2>; rel=prev', '<https://a.example/3>; rel=next'], BASE);
    expect(links.map((link) => [link.url, link.rel])).toEqual([
      ['https://a.example/1', ['first']],
      ['https://a.example/2', ['prev']],
      ['https://a.example/3', ['next']],
    ]);
  });

  it('does not split at commas or semicolons inside quotes, nor at commas inside <...>', () => {
    const links = parseLinks(['<https://a.example/x,y;z>; title="a, b; c"; rel="next", <https://a.example/2>; rel=last'], BASE);
    expect(links).toEqual([
      { url: 'https://a.example/x,y;z', rel: ['next'], params: { title: 'a, b; c', rel: 'next' } },
      { url: 'https://a.example/2', rel: ['last'], params: { rel: 'last' } },
    ]);
  });

  it('undoes backslash escapes in quoted-strings', () => {
    const [link] = parseLinks(['<https://a.example/>; title="say \\"hi\\", \\\\ok"; rel=next'], BASE);
    expect(link?.params.title).toBe('say "hi", \\ok');
    expect(link?.rel).toEqual(['next']);
  });

  it('splits rel into lower-case types; param names are lower case, other values verbatim', () => {
    const [link] = parseLinks(['<https://a.example/>; REL="Next  LAST\tprev"; Title="Mixed Case"; type=text/html'], BASE);
    expect(link).toEqual({
      url: 'https://a.example/',
      rel: ['next', 'last', 'prev'],
      params: { rel: 'Next  LAST\tprev', title: 'Mixed Case', type: 'text/html' },
    });
  });

  it('resolves relative targets against the base', () => {
    const links = parseLinks(['</users?page=2>; rel=next, <?page=3>; rel=last, <../x#frag>; rel=up, <//cdn.example/a>; rel=alt'], BASE);
    expect(links.map((link) => link.url)).toEqual([
      'https://api.example.com/users?page=2',
      'https://api.example.com/users?page=3',
      'https://api.example.com/x#frag',
      'https://cdn.example/a',
    ]);
  });

  it('an empty <> is the base itself (RFC 3986 §5.2), minus its fragment', () => {
    expect(parseLinks(['<>; rel=self'], `${BASE}#top`)).toEqual([{ url: BASE, rel: ['self'], params: { rel: 'self' } }]);
  });

  it('takes unquoted token values and tolerates whitespace anywhere between parts', () => {
    const header = '  ,  < https://a.example/1 >  ;  rel  =  next  ;hreflang=en ,\t,<https://a.example/2>;rel=last ; ';
    expect(parseLinks([header], BASE)).toEqual([
      { url: 'https://a.example/1', rel: ['next'], params: { rel: 'next', hreflang: 'en' } },
      { url: 'https://a.example/2', rel: ['last'], params: { rel: 'last' } },
    ]);
  });

  it('the first occurrence of a param wins: a second rel is ignored', () => {
    expect(parseLinks(['<https://a.example/>; rel=next; REL=last; title=a; title=b'], BASE)).toEqual([
      { url: 'https://a.example/', rel: ['next'], params: { rel: 'next', title: 'a' } },
    ]);
  });

  it('no rel gives rel: []; a param without "=" has the value ""', () => {
    expect(parseLinks(['<https://a.example/>; crossorigin; rel='], BASE)).toEqual([
      { url: 'https://a.example/', rel: [], params: { crossorigin: '', rel: '' } },
    ]);
  });

  it('keeps rel* verbatim in params without decoding it, and it does not feed rel', () => {
    const [link] = parseLinks(["<https://a.example/>; rel*=UTF-8''next"], BASE);
    expect(link).toEqual({ url: 'https://a.example/', rel: [], params: { 'rel*': "UTF-8''next" } });
  });

  it('skips malformed links and keeps the good ones around them', () => {
    const header = [
      '<https://a.example/no-close; rel="next"', // missing '>': resyncs at the comma after it
      '<https://a.example/1>; rel=one',
      'https://a.example/no-brackets; rel=two',
      '<https://a.example/junk> junk; rel=three',
      '<https://a.example/bad;;name>; =x; rel=four', // a param with no name ('=x') is junk
      '<http://[::1>; rel=five', // does not parse as a URL
      '<https://a.example/2>; ; rel=six',
    ].join(', ');
    expect(parseLinks([header], BASE).map((link) => [link.url, link.rel])).toEqual([
      ['https://a.example/1', ['one']],
      ['https://a.example/2', ['six']],
    ]);
  });

  it('an unterminated quote drops its link and the rest of that value only', () => {
    expect(
      parseLinks(['<https://a.example/1>; rel=one, <https://a.example/2>; title="open, <https://a.example/3>; rel=three', '<https://a.example/4>'], BASE),
    ).toEqual([
      { url: 'https://a.example/1', rel: ['one'], params: { rel: 'one' } },
      { url: 'https://a.example/4', rel: [], params: {} },
    ]);
  });

  it('a __proto__ param is an own param, not the prototype', () => {
    const [link] = parseLinks(['<https://a.example/>; __proto__=x; rel=next'], BASE);
    expect(Object.getPrototypeOf(link?.params)).toBe(Object.prototype);
    expect(Object.hasOwn(link?.params ?? {}, '__proto__')).toBe(true);
    expect(link?.rel).toEqual(['next']);
  });

  it('skips every link when the base is not an absolute URL, never throws', () => {
    expect(parseLinks(['<https://a.example/>; rel=next, </x>; rel=last'], 'not a url')).toEqual([]);
  });

  it('no links gives []', () => {
    expect(parseLinks([], BASE)).toEqual([]);
    expect(parseLinks(['', ' , ,', 'garbage'], BASE)).toEqual([]);
  });
});

describe('linkTo', () => {
  const values = ['<https://api.github.com/repositories/1/issues?page=2>; rel="next", <https://api.github.com/repositories/1/issues?page=5>; rel="last"'];

  it('finds the first link with the relation, case-insensitively', () => {
    expect(linkTo(values, 'next', BASE)).toBe('https://api.github.com/repositories/1/issues?page=2');
    expect(linkTo(values, 'LAST', BASE)).toBe('https://api.github.com/repositories/1/issues?page=5');
    expect(linkTo(['<?page=2>; rel="Next Last"', '<?page=9>; rel=next'], 'next', BASE)).toBe('https://api.example.com/users?page=2');
  });

  it('undefined when no link has the relation', () => {
    expect(linkTo(values, 'prev', BASE)).toBeUndefined();
    expect(linkTo([], 'next', BASE)).toBeUndefined();
    expect(linkTo(['<https://a.example/>; rel="nextpage"'], 'next', BASE)).toBeUndefined();
  });
});
