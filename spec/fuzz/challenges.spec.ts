import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { parseChallenges } from '../../lib/auth/challenges.js';
import { pickDigest } from '../../lib/auth/digest.js';
import { expectPrototypesUntouched, hostileText, own, runs, token } from './fuzz-kit.js';
import { expectLinear, pathological, pumped } from './linear-time.js';

// WWW-Authenticate / Authentication-Info as a hostile server could send them
const FRAGMENTS = ['Digest', 'Basic', 'Negotiate', 'realm', 'nonce', 'qop', 'algorithm', 'stale', '==', '/', '+', '"', '\\"', ', ', 'a=b', '=""'];

const TOKEN68 = fc
  .tuple(fc.string({ unit: fc.constantFrom(...'ABCxyz019-._~+/'.split('')), minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 2 }))
  .map(([text, pad]) => text + '='.repeat(pad));

/** Any text a quoted-string can carry (escaped when formatted): visible ASCII, space, tab, obs-text. */
const QUOTABLE = fc.string({
  unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.constant(0x09), fc.integer({ min: 0x80, max: 0xff })).map((c) => String.fromCharCode(c)),
  maxLength: 20,
});

/** A param value and how it goes on the wire: a token bare, anything else as a quoted-string. */
const PARAM_VALUE = fc.oneof(
  token().map((value) => ({ value, wire: value })),
  QUOTABLE.map((value) => ({ value, wire: `"${value.replace(/[\\"]/g, '\\$&')}"` })),
);

interface Generated {
  scheme: string;
  token68?: string;
  params: ReadonlyArray<readonly [string, { value: string; wire: string }]>;
}

const CHALLENGE: fc.Arbitrary<Generated> = fc.oneof(
  fc.record({ scheme: token(), params: fc.uniqueArray(fc.tuple(token(), PARAM_VALUE), { selector: ([name]) => name.toLowerCase(), maxLength: 6 }) }),
  fc.record({ scheme: token(), token68: TOKEN68, params: fc.constant([]) }),
);

function format(challenge: Generated): string {
  if (challenge.token68 !== undefined) return `${challenge.scheme} ${challenge.token68}`;
  const params = challenge.params.map(([name, { wire }]) => `${name}=${wire}`).join(', ');
  return params === '' ? challenge.scheme : `${challenge.scheme} ${params}`;
}

function expected(challenge: Generated): { scheme: string; params: Record<string, string> } {
  if (challenge.token68 !== undefined) return { scheme: challenge.scheme.toLowerCase(), params: { token68: challenge.token68 } };
  return { scheme: challenge.scheme.toLowerCase(), params: own(challenge.params.map(([name, { value }]) => [name.toLowerCase(), value])) };
}

describe('WWW-Authenticate challenge parser (lib/auth/challenges.ts) under hostile input', () => {
  it('never throws; schemes are lower-case tokens, params own lower-case names with string values; no prototype changes', () => {
    fc.assert(
      fc.property(fc.array(hostileText(FRAGMENTS), { maxLength: 3 }), (values) => {
        const challenges = parseChallenges(values);
        for (const { scheme, params } of challenges) {
          expect(scheme).toMatch(/^[!#$%&'*+\-.^_`|~0-9a-z]+$/);
          expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
          for (const name of Object.keys(params)) {
            expect(name).toBe(name.toLowerCase());
            expect(typeof params[name]).toBe('string');
          }
        }
        // what the auth stage does with them must not throw either
        pickDigest(challenges);
        expectPrototypesUntouched();
      }),
      runs(300),
    );
  });

  it('gives back the challenges it was given: schemes, token68s and params, bare or quoted with escapes, several per header', () => {
    fc.assert(
      fc.property(fc.array(CHALLENGE, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 3 }), (challenges, headers) => {
        // spread the challenges over `headers` header values, as a server may
        const values: string[] = [];
        challenges.forEach((challenge, i) => {
          const at = i % headers;
          values[at] = values[at] === undefined ? format(challenge) : `${values[at]}, ${format(challenge)}`;
        });
        const byHeader = values.flatMap((_, at) => challenges.filter((__, i) => i % headers === at));
        expect(parseChallenges(values)).toEqual(byHeader.map(expected));
        expectPrototypesUntouched();
      }),
      runs(500),
    );
  });

  it('parses pumped inputs in linear time (no ReDoS)', async () => {
    const parse = (value: string) => parseChallenges([value]);
    await fc.assert(
      fc.asyncProperty(pumped(FRAGMENTS), (shape) => expectLinear(parse, shape)),
      runs(40),
    );
    const worst = pathological([
      ['Digest ', 'a', '!'],
      ['Digest ', 'a ', '='],
      ['Digest ', ' ', 'x'],
      ['Negotiate ', 'a', '= x'],
      ['Digest ', 'a=', ''],
      ['Digest ', ',', ''],
      ['Digest realm="', '\\"', ''],
      ['Digest ', 'a=b,', 'c'],
      ['', 'Basic, ', ''],
      ['x ', 'a=\t', ''],
    ]);
    for (const shape of worst) await expectLinear(parse, shape);
  });

  describe('regressions', () => {
    it('keeps a __proto__ param as an own param (it used to be dropped), beside constructor and prototype', () => {
      const [challenge] = parseChallenges(['Digest __proto__="{\\"polluted\\":1}", constructor=c, Prototype=p, realm="r", nonce="n"']);
      expect(Object.getPrototypeOf(challenge.params)).toBe(Object.prototype);
      expect(Object.getOwnPropertyNames(challenge.params)).toEqual(['__proto__', 'constructor', 'prototype', 'realm', 'nonce']);
      expect(Object.getOwnPropertyDescriptor(challenge.params, '__proto__')?.value).toBe('{"polluted":1}');
      expect(challenge.params.constructor).toBe('c');
      expect(pickDigest([challenge])).toMatchObject({ realm: 'r', nonce: 'n' });
      expectPrototypesUntouched();
    });
  });
});
