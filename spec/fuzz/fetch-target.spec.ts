import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { PLAIN_TARGET } from '../../lib/backends/fetch.js';
import { anyCodeUnit, runs } from './fuzz-kit.js';

// What a URL path or query can hold that WHATWG parsing may rewrite: dot segments (also
// percent-encoded), characters it escapes, backslashes, a bare '?', and the harmless rest.
const FRAGMENTS = [
  '/',
  '.',
  '..',
  '%2e',
  '%2E',
  '%',
  '?',
  "'",
  '#',
  '\\',
  ' ',
  '"',
  '<',
  '>',
  '`',
  '{',
  '}',
  '|',
  '^',
  '[',
  ']',
  'a',
  'Z',
  '0',
  '-',
  '_',
  '~',
  '!',
  '$',
  '&',
  '(',
  ')',
  '*',
  '+',
  ',',
  ';',
  '=',
  ':',
  '@',
  'é',
];
const TARGET = fc
  .string({ unit: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...FRAGMENTS) }, { weight: 1, arbitrary: anyCodeUnit }), maxLength: 16 })
  .map((rest) => `/${rest}`);

/** The target fetch puts on the request line for `target` (it sends pathname + search). */
function sentByFetch(target: string): string | undefined {
  try {
    const url = new URL(`http://127.0.0.1${target}`);
    return url.pathname + url.search;
  } catch {
    return undefined;
  }
}

// The fetch backend skips parsing the URL for targets this pattern accepts: it must accept only
// targets fetch sends unchanged, or a rewritten target would go out unchecked.
describe('fetch backend: targets taken as sent without parsing', () => {
  it('are sent unchanged by fetch (WHATWG URL parsing)', () => {
    fc.assert(
      fc.property(TARGET, (target) => {
        if (PLAIN_TARGET.test(target)) expect(sentByFetch(target)).toBe(target);
      }),
      runs(20_000),
    );
  });

  it.each(['/small.json', '/', '/a/b/c', '/users/42?expand=1&fields=a,b', '/a//b', '/.well-known/x', '/v1/items;id=3'])(
    'include ordinary targets such as %s',
    (target) => {
      expect(PLAIN_TARGET.test(target)).toBe(true);
      expect(sentByFetch(target)).toBe(target);
    },
  );

  it.each(['/a/../b', '/a/./b', '/..', '/a/.', '/%2e%2e/x', '/a?', "/a?b='c'", '/a b', '/a\\b', '/a#b', '/é'])('leave %s to the parsing check', (target) => {
    expect(PLAIN_TARGET.test(target)).toBe(false);
  });
});
