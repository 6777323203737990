import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { DEFAULT_PARSERS, defaultParser } from '../../lib/content/parsers.js';
import { lookup, lookupKeys, parseMediaType } from '../../lib/core/media-type.js';
import { ParseError } from '../../lib/core/errors.js';
import { expectPrototypesUntouched, hostileText, own, response, runs, token } from './fuzz-kit.js';
import { expectLinear, pathological, pumped } from './linear-time.js';

const FRAGMENTS = ['text/plain', 'application/json', '*/*', '+json', '/', 'charset=', 'utf-8', 'UTF-16LE', 'boundary=', '"a;b"', '\\"'];

/** Any text a quoted-string can carry (escaped when formatted): visible ASCII (';' '"' '\' '=' included), space, tab, obs-text. */
const QUOTABLE = fc.string({
  unit: fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.constant(0x09), fc.integer({ min: 0x80, max: 0xff })).map((c) => String.fromCharCode(c)),
  maxLength: 20,
});

const PARAM_VALUE = fc.oneof(
  token().map((value) => ({ value, wire: value })),
  QUOTABLE.map((value) => ({ value, wire: `"${value.replace(/[\\"]/g, '\\$&')}"` })),
);

const MEDIA_TYPE = fc.record({
  type: token(),
  subtype: token(),
  params: fc.uniqueArray(fc.tuple(fc.oneof(token(), fc.constant('charset'), fc.constant('Boundary')), PARAM_VALUE), {
    selector: ([name]) => name.toLowerCase(),
    maxLength: 5,
  }),
  // optional whitespace around ';' (RFC 9110 OWS)
  before: fc.constantFrom('', ' ', '\t'),
  after: fc.constantFrom('', ' ', '  '),
});

describe('Content-Type parsing (lib/core/media-type.ts) under hostile input', () => {
  it('never throws; the type is the trimmed lower-case text before the first ";", params are own lower-case names; no prototype changes', () => {
    fc.assert(
      fc.property(hostileText(FRAGMENTS), (value) => {
        const { type, params } = parseMediaType(value);
        expect(type).toBe(value.split(';')[0].trim().toLowerCase());
        expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
        for (const name of Object.keys(params)) {
          if (name !== name.trim().toLowerCase() || name.includes(';') || typeof params[name] !== 'string') throw new Error(`bad parameter ${name}`);
        }
        if (params.charset !== undefined && params.charset !== params.charset.toLowerCase()) throw new Error('charset not lower case');
        // the registry lookups run on whatever came in
        const keys = lookupKeys(type);
        expect([keys[0], keys[keys.length - 1]]).toEqual([type, '*/*']);
        expect(typeof lookup([DEFAULT_PARSERS], type)).toBe('function');
        expect(typeof defaultParser(type)).toBe('function');
        expectPrototypesUntouched();
      }),
      runs(300),
    );
  });

  it('gives back the type and params of a formatted media type: quoted values keep ";" "=" and escaped quotes', () => {
    fc.assert(
      fc.property(MEDIA_TYPE, ({ type, subtype, params, before, after }) => {
        const text = [`${type}/${subtype}`, ...params.map(([name, { wire }]) => `${name}=${wire}`)].join(`${before};${after}`);
        const expected = own(params.map(([name, { value }]) => [name.toLowerCase(), name.toLowerCase() === 'charset' ? value.toLowerCase() : value]));
        expect(parseMediaType(text)).toEqual({ type: `${type}/${subtype}`.toLowerCase(), params: expected });
        expectPrototypesUntouched();
      }),
      runs(500),
    );
  });

  it('a response with any Content-Type: contentType and charset are strings, text() gives a string or rejects with ParseError', async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileText([...FRAGMENTS, 'charset=constructor', 'charset=__proto__', 'charset=shift_jis', 'charset=utf-16be'], 200),
        fc.uint8Array({ maxLength: 64 }),
        async (contentType, body) => {
          const fromServer = response(contentType, body);
          expect(typeof fromServer.contentType).toBe('string');
          expect(typeof fromServer.charset).toBe('string');
          const text = await fromServer.text().catch((error: unknown) => {
            expect(error).toBeInstanceOf(ParseError);
            return '';
          });
          expect(typeof text).toBe('string');
          expectPrototypesUntouched();
        },
      ),
      runs(300),
    );
  });

  it('parses pumped inputs in linear time (no ReDoS)', async () => {
    await fc.assert(
      fc.asyncProperty(pumped(FRAGMENTS), (shape) => expectLinear(parseMediaType, shape)),
      runs(40),
    );
    const worst = pathological([
      ['text/plain', ';', '='],
      ['text/plain; a=', '"', ''],
      ['text/plain; a="', '\\', ''],
      ['text/plain; a="', '\\"', ''],
      ['text/plain', '; a', '='],
      ['text/plain', ';a=""x', ''],
      ['', ' ', ';'],
      ['text/plain;', '=', ''],
    ]);
    for (const shape of worst) await expectLinear(parseMediaType, shape);
  });

  describe('regressions', () => {
    it("keeps ';' inside a quoted value and undoes backslash escapes (a quoted 'a;b' used to be cut at the ';')", () => {
      expect(parseMediaType('multipart/form-data; boundary="a;b"; charset=UTF-8')).toEqual({
        type: 'multipart/form-data',
        params: { boundary: 'a;b', charset: 'utf-8' },
      });
      expect(parseMediaType('text/plain; title="say \\"hi\\" \\\\o/"; q=1')).toEqual({ type: 'text/plain', params: { title: 'say "hi" \\o/', q: '1' } });
    });

    it('keeps a __proto__ parameter as an own parameter (it used to be dropped)', () => {
      const { params } = parseMediaType('text/plain; __proto__={"polluted":1}; constructor=c; charset=UTF-8');
      expect(Object.getPrototypeOf(params)).toBe(Object.prototype);
      expect(Object.getOwnPropertyNames(params)).toEqual(['__proto__', 'constructor', 'charset']);
      expect(Object.getOwnPropertyDescriptor(params, '__proto__')?.value).toBe('{"polluted":1}');
      expect(params.charset).toBe('utf-8');
      expectPrototypesUntouched();
    });
  });
});
