import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import type { UriParts } from '../../lib/config/settings.js';
import { ConfigError } from '../../lib/core/errors.js';
import { HttpBuilder } from '../../lib/index.js';
import { buildTarget } from '../../lib/pipeline/build-url.js';
import { useTestServer } from '../support/use-test-server.js';
import { PROTO_KEYS, anyCodeUnit, expectPrototypesUntouched, fromJson, own, runs } from './fuzz-kit.js';
import { expectLinear, pathological, pumped } from './linear-time.js';

const FRAGMENTS = ['&', '=', '+', '#', '?', '@', '%', '%2', '%20', '/', '//', '..', "'", ' ', '\ud800', '\udc00', '😀', 'é', 'http://', ':', '[', ']'];

/** Query text: any code unit (lone surrogates too) or a fragment that means something in a URL. */
const QUERY_TEXT = fc.string({ unit: fc.oneof(anyCodeUnit, fc.constantFrom(...FRAGMENTS)), maxLength: 12 });
const QUERY_NAME = fc.oneof({ weight: 3, arbitrary: QUERY_TEXT }, { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS) });
const QUERY = fc.uniqueArray(fc.tuple(QUERY_NAME, fc.array(QUERY_TEXT, { maxLength: 3 })), { selector: ([name]) => name, maxLength: 6 });

const WELL_FORMED = /^(?:[^\ud800-\udfff]|[\ud800-\udbff][\udc00-\udfff])*$/;

function uri(parts: Partial<UriParts>): UriParts {
  return {
    scheme: 'http',
    host: '127.0.0.1',
    port: undefined,
    path: '/q',
    query: new Map(),
    rawQuery: undefined,
    fragment: undefined,
    raw: undefined,
    ...parts,
  };
}

/** Builds the target, or returns the ConfigError it rejects with; any other error fails the test. */
function build(parts: UriParts): ReturnType<typeof buildTarget> | ConfigError {
  try {
    return buildTarget(parts);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
}

describe('query encoder (lib/pipeline/build-url.ts) under hostile input', () => {
  it('URLSearchParams decodes exactly the pairs given, in order; only unreserved characters and escapes go out; lone surrogates are a ConfigError', () => {
    fc.assert(
      fc.property(QUERY, (query) => {
        const built = build(uri({ query: new Map(query) }));
        const wellFormed = query.every(([name, values]) => WELL_FORMED.test(name) && values.every((value) => WELL_FORMED.test(value)));
        if (!wellFormed) {
          expect(built).toBeInstanceOf(ConfigError);
          return;
        }
        if (built instanceof ConfigError) throw built;
        const pairs = query.flatMap(([name, values]) => values.map((value) => [name, value]));
        const q = built.target.indexOf('?');
        if (pairs.length === 0) {
          expect(q).toBe(-1); // no bare '?'
          return;
        }
        const search = built.target.slice(q + 1);
        expect(search).toMatch(/^[A-Za-z0-9\-_.!~*()%=&]*$/);
        expect([...new URLSearchParams(search)]).toEqual(pairs);
        expect([...new URL(built.url).searchParams]).toEqual(pairs);
        expectPrototypesUntouched();
      }),
      runs(500),
    );
  });

  it('hostile path, fragment and raw target: a ConfigError, or a URL whose origin is the configured one', () => {
    const part = fc.string({ unit: fc.oneof(anyCodeUnit, fc.constantFrom(...FRAGMENTS, 'a', '~', '!', '$')), maxLength: 40 });
    let accepted = 0;
    fc.assert(
      fc.property(
        part,
        fc.option(part, { freq: 2 }),
        fc.option(
          fc.oneof(
            part,
            part.map((text) => `/${text}`),
          ),
          { freq: 2 },
        ),
        (path, fragment, raw) => {
          const built = build(uri({ path, fragment: fragment ?? undefined, raw: raw ?? undefined }));
          if (built instanceof ConfigError) return;
          accepted++;
          const url = new URL(built.url);
          expect([url.protocol, url.hostname, url.port]).toEqual(['http:', '127.0.0.1', '']);
          expect(built.target).toMatch(/^\/[\x21-\x7e]*$/); // a leading '/', printable ASCII only
          // a raw target goes out byte for byte, and never as '//host...'
          if (raw !== null) expect([built.target, raw.startsWith('//')]).toEqual([raw, false]);
        },
      ),
      runs(500),
    );
    expect(accepted).toBeGreaterThan(150); // the generator must reach the success path often enough
  });

  it('encodes names, values, paths and fragments in linear time', async () => {
    const builds: Array<(text: string) => unknown> = [
      (text) => build(uri({ query: new Map([[text, [text]]]) })),
      (text) => build(uri({ path: text })),
      (text) => build(uri({ fragment: text })),
      (text) => build(uri({ raw: text })),
    ];
    await fc.assert(
      fc.asyncProperty(pumped(FRAGMENTS), async (shape) => {
        for (const encode of builds) await expectLinear(encode, shape);
      }),
      runs(8),
    );
    for (const shape of pathological([
      ['/', '%', ''],
      ['/', '%2', 'g'],
      ['', '/', ''],
      ['/a', '\ud800', ''],
      ['', ' ', ''],
    ])) {
      await expectLinear((text) => build(uri({ path: text, fragment: text, query: new Map([[text, [text, text]]]) })), shape);
    }
  });
});

describe('query parameters with hostile names through the public API', () => {
  const holder = useTestServer();

  it('a JSON.parse-d query sends __proto__, constructor and prototype as parameters', async () => {
    const server = holder.server;
    server.expect({ method: 'GET', path: '/q', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'ok' } });
    const http = HttpBuilder.configure((c) => {
      c.request.uri = server.httpUrl;
    });
    try {
      await http.get((c) => {
        c.request.uri.path = '/q';
        c.request.uri.query = fromJson<Record<string, string | string[]>>('{"__proto__":"a","constructor":["b","c"],"prototype":"d","toString":"e"}');
      });
      expect(server.requests[0].query).toEqual(
        own([
          ['__proto__', ['a']],
          ['constructor', ['b', 'c']],
          ['prototype', ['d']],
          ['toString', ['e']],
        ]),
      );
      expect(server.requests[0].target).toBe('/q?__proto__=a&constructor=b&constructor=c&prototype=d&toString=e');
      expectPrototypesUntouched();
    } finally {
      await http.close();
    }
  });
});
