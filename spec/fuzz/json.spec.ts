import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { defaultParser } from '../../lib/content/parsers.js';
import { ParseError } from '../../lib/core/errors.js';
import { HttpBuilder, type ConfigBlock } from '../../lib/index.js';
import type { RequestRecord } from '../../lib/model/request-record.js';
import { useTestServer } from '../support/use-test-server.js';
import { PROTO_KEYS, expectPrototypesUntouched, hostileText, own, response, runs } from './fuzz-kit.js';
import { expectLinear, pathological, pumped, type Shape } from './linear-time.js';

const JSON_TYPE = 'application/json';
const FRAGMENTS = ['{', '}', '[', ']', ':', '"__proto__"', '"constructor"', '"prototype"', 'true', 'null', '-0', '1e999', '\\u0000', '\\ud800', '"'];
const RECORD: RequestRecord = {
  method: 'GET',
  url: 'http://127.0.0.1/fuzz',
  headers: {},
  body: undefined,
  contentType: undefined,
  charset: undefined,
  context: () => undefined,
};

/** The built-in JSON parser on a response with this body. */
function parseJson(body: string, type = JSON_TYPE): Promise<unknown> {
  return Promise.resolve(defaultParser(type)(response(type, body), RECORD));
}

/** `[[[...]]]`: `size` brackets, nested half as deep. */
function nested(size: number): string {
  return `${'['.repeat(size / 2)}${']'.repeat(size / 2)}`;
}

/** A JSON tree whose object keys are often the ones that break naive code: as text, and as the value it must parse to. */
type Tree = { text: string; value: unknown };
const KEY = fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS, 'polluted') }, { weight: 1, arbitrary: fc.string({ maxLength: 6 }) });
const { tree: TREE } = fc.letrec<{ tree: Tree; object: Tree; array: Tree }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 0 }).map((value) => ({ text: JSON.stringify(value), value })),
    tie('object'),
    tie('array'),
  ),
  object: fc.uniqueArray(fc.tuple(KEY, tie('tree')), { selector: ([key]) => key, maxLength: 5 }).map((entries) => ({
    text: `{${entries.map(([key, child]) => `${JSON.stringify(key)}:${child.text}`).join(',')}}`,
    value: own(entries.map(([key, child]) => [key, child.value])),
  })),
  array: fc
    .array(tie('tree'), { maxLength: 4 })
    .map((items) => ({ text: `[${items.map((item) => item.text).join(',')}]`, value: items.map((item) => item.value) })),
}));

/** Every object in the parsed value is a plain object whose keys are all own (no replaced prototype). */
function expectPlainOwn(value: unknown): void {
  if (Array.isArray(value)) value.forEach(expectPlainOwn);
  else if (typeof value === 'object' && value !== null) {
    if (Object.getPrototypeOf(value) !== Object.prototype) throw new Error('a parsed object has another prototype');
    for (const key of Object.keys(value)) expectPlainOwn(Object.getOwnPropertyDescriptor(value, key)?.value);
  }
}

describe('JSON parser (lib/content/parsers.ts) under hostile input', () => {
  it('any body gives a value, null when blank, or rejects with ParseError; no prototype changes', async () => {
    await fc.assert(
      fc.asyncProperty(hostileText(FRAGMENTS), async (body) => {
        try {
          const value = await parseJson(body);
          if (body.trim() === '' && value !== null) throw new Error('a blank body must parse to null');
          expectPlainOwn(value);
        } catch (error) {
          expect(error).toBeInstanceOf(ParseError);
          expect(error).toMatchObject({ statusCode: 200, contentType: JSON_TYPE });
        }
        expectPrototypesUntouched();
      }),
      runs(300),
    );
  });

  it('gives back any JSON value (suffix types too); __proto__, constructor and prototype keys stay own data, at any depth', async () => {
    await fc.assert(
      fc.asyncProperty(TREE, fc.constantFrom(JSON_TYPE, 'application/vnd.acme+json'), async ({ text, value }, type) => {
        const parsed = await parseJson(text, type);
        expect(parsed).toEqual(value);
        expectPlainOwn(parsed);
        expectPrototypesUntouched();
      }),
      runs(500),
    );
  });

  it('parses pumped and deeply nested inputs in linear time', async () => {
    const shapes: Shape[] = [
      ...fc.sample(pumped(FRAGMENTS), { seed: 1, numRuns: 20 }),
      ...pathological([
        ['', '[', ''],
        ['', '{"__proto__":', ''],
        ['[', '"\\\\",', '0]'],
        ['"', '\\u0000', '"'],
        ['', ' ', '1'],
      ]),
      nested,
    ];
    const parse = (body: string) =>
      parseJson(body).catch((error: unknown) => {
        if (!(error instanceof ParseError)) throw error;
      });
    for (const shape of shapes) await expectLinear(parse, shape);
    await parse(nested(50_000)); // 25,000 levels deep: a value or a ParseError, never a stack overflow
    expectPrototypesUntouched();
  });
});

describe('JSON with hostile keys through the public API', () => {
  const holder = useTestServer();
  const BODY = '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"prototype":1,"list":[{"__proto__":{"polluted":true}}]}';

  const getters: Array<[string, (http: HttpBuilder, block: ConfigBlock) => Promise<unknown>]> = [
    ['http.get()', (http, block) => http.get(block)],
    ['http.get(Object)', (http, block) => http.get(Object, block)],
  ];
  for (const [title, get] of getters) {
    it(`${title}: the body's __proto__ keys stay own data (sent and received), Object.prototype is untouched`, async () => {
      const server = holder.server;
      server.expect({ method: 'POST', path: '/json', body: BODY, respond: { headers: { 'Content-Type': JSON_TYPE }, body: BODY } });
      server.expect({ method: 'GET', path: '/json', respond: { headers: { 'Content-Type': JSON_TYPE }, body: BODY } });
      const http = HttpBuilder.configure((c) => {
        c.request.uri = server.httpUrl;
      });
      try {
        const result = await get(http, (c) => {
          c.request.uri.path = '/json';
        });
        const echoed = await http.post((c) => {
          c.request.uri.path = '/json';
          c.request.contentType = JSON_TYPE;
          c.request.body = JSON.parse(BODY);
        });
        for (const value of [result, echoed]) {
          expectPlainOwn(value);
          expect(JSON.stringify(value)).toBe(BODY);
          expect((value as Record<string, unknown>).polluted).toBeUndefined();
        }
        expect(server.requests.map((request) => request.matched)).toEqual([true, true]);
        expectPrototypesUntouched();
      } finally {
        await http.close();
      }
    });
  }
});
