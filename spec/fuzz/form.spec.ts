import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { encodeBody } from '../../lib/content/encoders.js';
import { encodeForm, parseForm } from '../../lib/content/form.js';
import { HttpBuilder } from '../../lib/index.js';
import type { RequestRecord } from '../../lib/model/request-record.js';
import { useTestServer } from '../support/use-test-server.js';
import { PROTO_KEYS, expectPrototypesUntouched, expectTyped, hostileText, own, runs } from './fuzz-kit.js';
import { expectLinear, pathological, pumped } from './linear-time.js';

const FORM = 'application/x-www-form-urlencoded';
const FRAGMENTS = ['&', '=', '+', '%', '%2', '%20', '%zz', '%E2%82', '%C3%A9', '%00', '&&', '=='];

/** Well-formed text (no lone surrogate): what a form field name or value can round-trip. */
const TEXT = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.string({ unit: fc.constantFrom(...FRAGMENTS, ' ', '#', '?', 'a', 'é', '😀'), maxLength: 8 }),
);
const NAME = fc.oneof({ weight: 3, arbitrary: TEXT }, { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS) });
const PRIMITIVE = fc.oneof(TEXT, fc.integer(), fc.double({ noNaN: true }), fc.boolean());
const FIELD_VALUE = fc.oneof(PRIMITIVE, fc.array(PRIMITIVE, { maxLength: 4 }), fc.constantFrom(null, undefined));

/** A request record carrying `body` as a form, as the pipeline hands it to the encoder. */
function formRecord(body: unknown): RequestRecord {
  return { method: 'POST', url: 'http://127.0.0.1/form', headers: {}, body, contentType: FORM, charset: undefined, context: () => undefined };
}

describe('form encoder and parser (lib/content/form.ts) under hostile input', () => {
  it('parseForm never throws; every field is an own property holding what URLSearchParams decodes; no prototype changes', () => {
    fc.assert(
      fc.property(hostileText(FRAGMENTS), (text) => {
        const form = parseForm(text);
        expect(Object.getPrototypeOf(form)).toBe(Object.prototype);
        const reference = new URLSearchParams(text);
        const names = [...new Set(reference.keys())];
        expect(Object.keys(form).sort()).toEqual(names.sort()); // sorted: integer-like keys come first in any object
        for (const name of names) {
          // plain comparison, no expect(): hundreds of fields per input
          const values = reference.getAll(name);
          const actual: unknown = Object.getOwnPropertyDescriptor(form, name)?.value;
          if (JSON.stringify(actual) !== JSON.stringify(values.length === 1 ? values[0] : values))
            throw new Error(`field ${JSON.stringify(name)} is ${JSON.stringify(actual)}`);
        }
        expectPrototypesUntouched();
      }),
      runs(300),
    );
  });

  it('encodeForm → parseForm gives the fields back: values as text, a list repeats its name, null/undefined/[] fields are left out', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.tuple(NAME, FIELD_VALUE), { selector: ([name]) => name, maxLength: 8 }), (fields) => {
        const body = own(fields); // JSON.parse-like: a __proto__ field is an own property
        const expected = own<string | string[]>(
          fields.flatMap(([name, value]): Array<[string, string | string[]]> => {
            if (value === null || value === undefined) return [];
            const list = Array.isArray(value) ? value.map(String) : [String(value)];
            return list.length === 0 ? [] : [[name, list.length === 1 ? list[0] : list]];
          }),
        );
        const text = encodeForm(body);
        expect(text).not.toMatch(/[^A-Za-z0-9*\-._+%=&]/); // nothing left unescaped
        expect(parseForm(text)).toEqual(expected);
        expectPrototypesUntouched();
      }),
      runs(500),
    );
  });

  it('the form encoder, on any body, gives bytes or rejects with a typed error (EncodeError), never a TypeError', async () => {
    const anyBody = fc.oneof(
      fc.anything({
        withNullPrototype: true,
        withBigInt: true,
        withBoxedValues: true,
        withMap: true,
        withSet: true,
        withSparseArray: true,
        withObjectString: true,
        withDate: true,
        maxDepth: 3,
      }),
      fc.dictionary(fc.constantFrom(...PROTO_KEYS, 'a'), fc.anything({ withNullPrototype: true, maxDepth: 2 })),
    );
    await fc.assert(
      fc.asyncProperty(anyBody, async (body) => {
        try {
          const encoded = await encodeBody(formRecord(body), []);
          expect(encoded === undefined || encoded.contentType === FORM).toBe(true);
        } catch (error) {
          expectTyped(error);
        }
        expectPrototypesUntouched();
      }),
      runs(300),
    );
  });

  it('parses pumped inputs in linear time (no ReDoS)', async () => {
    await fc.assert(
      fc.asyncProperty(pumped(FRAGMENTS), (shape) => expectLinear(parseForm, shape)),
      runs(20),
    );
    for (const shape of pathological([
      ['', 'a=1&', ''],
      ['', '__proto__=1&', ''],
      ['', 'constructor=x&', ''],
      ['a=', '%', ''],
      ['', '&', '='],
    ])) {
      await expectLinear(parseForm, shape);
    }
    // many distinct fields, each repeated: a field map that rescans itself per field goes quadratic
    const wideForm = (size: number) => encodeForm(own(Array.from({ length: Math.ceil(size / 20) }, (_, i) => [`field${i}`, ['x', 'y']])));
    await expectLinear(parseForm, wideForm);
  });

  describe('regressions', () => {
    it('__proto__, constructor and toString are fields like any other (they used to replace the prototype or pick up Object.prototype members)', () => {
      const form = parseForm('__proto__=a&__proto__=b&constructor=c&toString=d&valueOf=e&valueOf=f');
      expect(Object.getPrototypeOf(form)).toBe(Object.prototype);
      expect(Object.entries(form)).toEqual([
        ['__proto__', ['a', 'b']],
        ['constructor', 'c'],
        ['toString', 'd'],
        ['valueOf', ['e', 'f']],
      ]);
      expectPrototypesUntouched();
    });
  });
});

describe('forms with hostile field names through the public API', () => {
  const holder = useTestServer();

  it('a JSON.parse-d body sends its __proto__, constructor and prototype fields; a form response keeps them as own fields', async () => {
    const server = holder.server;
    server.expect({
      method: 'POST',
      path: '/form',
      body: '__proto__=a&constructor=b&prototype=c',
      respond: { headers: { 'Content-Type': FORM }, body: '__proto__=x&__proto__=y&constructor=z&toString=t' },
    });
    const http = HttpBuilder.configure((c) => {
      c.request.uri = server.httpUrl;
    });
    try {
      const result = await http.post(Object, (c) => {
        c.request.uri.path = '/form';
        c.request.contentType = FORM;
        c.request.body = JSON.parse('{"__proto__":"a","constructor":"b","prototype":"c"}');
      });
      expect(server.requests[0].matched).toBe(true);
      expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
      expect(result).toEqual(
        own<string | string[]>([
          ['__proto__', ['x', 'y']],
          ['constructor', 'z'],
          ['toString', 't'],
        ]),
      );
      expectPrototypesUntouched();
    } finally {
      await http.close();
    }
  });
});
