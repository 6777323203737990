import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { HttpBuilder, type ConfigBlock } from '../../lib/index.js';
import { useTestServer } from '../support/use-test-server.js';
import { expectPrototypesUntouched, fromJson, own, runs } from './fuzz-kit.js';

/**
 * headers / query / cookies objects as a caller gets them from JSON.parse (so `__proto__` is an
 * own key), merged over three levels (client, derived client, request): every name is sent as
 * set, per name the nearest level wins, `null` removes an inherited one, and Object.prototype
 * never changes. Headers leave `__proto__` out: see the note at the end of this file.
 */
const HEADER_NAMES = ['constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'X-A', 'x-a', 'X-B'];
const PARAM_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', 'a', 'A'];
const VALUE = fc.constantFrom('v1', 'v2', 'v 3', 'v+4');

type Level<V> = Record<string, V | null> | undefined;

function level<V>(names: readonly string[], value: fc.Arbitrary<V>): fc.Arbitrary<Level<V>> {
  return fc.option(
    fc
      .uniqueArray(fc.tuple(fc.constantFrom(...names), fc.option(value, { freq: 4 })), { selector: ([name]) => name, maxLength: 5 })
      .map((entries) => own(entries)),
    { freq: 4 },
  );
}

const LEVELS = fc.record({
  headers: fc.tuple(level(HEADER_NAMES, VALUE), level(HEADER_NAMES, VALUE), level(HEADER_NAMES, VALUE)),
  query: fc.tuple(
    level(PARAM_NAMES, fc.oneof(VALUE, fc.array(VALUE, { minLength: 1, maxLength: 3 }))),
    level(PARAM_NAMES, VALUE),
    level(PARAM_NAMES, fc.array(VALUE, { minLength: 1, maxLength: 2 })),
  ),
  cookies: fc.tuple(
    level(PARAM_NAMES, fc.constantFrom('c1', 'c2')),
    level(PARAM_NAMES, fc.constantFrom('c3')),
    level(PARAM_NAMES, fc.constantFrom('c4', 'c5')),
  ),
});

/** The merge rule: a Map per level, keyed by `key(name)`, nearest level last; `null` deletes. */
function merged<V>(levels: ReadonlyArray<Level<V>>, key: (name: string) => string): Map<string, [string, V]> {
  const out = new Map<string, [string, V]>();
  for (const set of levels) {
    for (const [name, value] of Object.entries(set ?? {})) {
      if (value === null) out.delete(key(name));
      else out.set(key(name), [name, value]);
    }
  }
  return out;
}

/** The block that sets one level's objects (whole, as a caller assigns a JSON.parse result). */
function apply(levelIndex: number, levels: Generated): ConfigBlock {
  return (c) => {
    const headers = levels.headers[levelIndex];
    const query = levels.query[levelIndex];
    const cookies = levels.cookies[levelIndex];
    if (headers) c.request.headers = headers;
    if (query) c.request.uri.query = query;
    if (cookies) c.request.cookies = cookies;
  };
}

type Generated = {
  headers: ReadonlyArray<Level<string>>;
  query: ReadonlyArray<Level<string | string[]>>;
  cookies: ReadonlyArray<Level<string>>;
};

describe('config merging of JSON.parse-d headers, query and cookies with hostile names', () => {
  it('the request record carries every name as set, the nearest level winning per name, null removing it', async () => {
    await fc.assert(
      fc.asyncProperty(LEVELS, async (levels: Generated) => {
        const client = HttpBuilder.configure((c) => {
          c.request.uri = 'http://127.0.0.1:9/base';
          // answer from the record itself: nothing goes on the wire
          c.execution.interceptor('GET', (request) => Promise.resolve({ url: request.url, headers: request.headers }));
          apply(0, levels).call(c, c);
        });
        let seen: { url: string; headers: Record<string, string> };
        try {
          seen = (await client.configure(apply(1, levels)).get(apply(2, levels))) as typeof seen;
        } finally {
          await client.close();
        }

        const headers = merged(levels.headers, (name) => name.toLowerCase());
        const sent = Object.entries(seen.headers).filter(([name]) => !['user-agent', 'accept', 'accept-encoding', 'cookie'].includes(name.toLowerCase()));
        expect(new Map(sent.map(([name, value]) => [name.toLowerCase(), [name, value]]))).toEqual(headers);

        const query = [...merged(levels.query, (name) => name).values()].flatMap(([name, value]) =>
          (Array.isArray(value) ? value : [value]).map((item) => [name, item]),
        );
        expect([...new URL(seen.url).searchParams]).toEqual(query);

        const cookies = [...merged(levels.cookies, (name) => name).values()].map(([name, value]) => `${name}=${value}`).join('; ');
        expect(Object.entries(seen.headers).find(([name]) => name.toLowerCase() === 'cookie')?.[1]).toBe(cookies === '' ? undefined : cookies);
        expectPrototypesUntouched();
      }),
      runs(300),
    );
  });
});

describe('hostile names through HttpBuilder.configure and a real request', () => {
  const holder = useTestServer();

  it('client, derived client and request level: every constructor/prototype header, __proto__ parameter and __proto__ cookie arrives', async () => {
    const server = holder.server;
    server.expect({ method: 'GET', path: '/merge', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'ok' } });
    const client = HttpBuilder.configure((c) => {
      c.request.uri = server.httpUrl;
      c.request.headers = fromJson<Record<string, string | null>>('{"constructor":"client","prototype":"client","X-Gone":"client"}');
      c.request.uri.query = fromJson<Record<string, string | string[] | null>>('{"__proto__":"client","constructor":["c1","c2"],"gone":"client"}');
      c.request.cookies = fromJson<Record<string, string | null>>('{"__proto__":"client","constructor":"client","gone":"client"}');
    });
    try {
      const derived = client.configure((c) => {
        c.request.headers = fromJson<Record<string, string | null>>('{"Constructor":"derived","x-gone":null}');
        c.request.uri.query = fromJson<Record<string, string | string[] | null>>('{"prototype":"derived","gone":null}');
        c.request.cookies = fromJson<Record<string, string | null>>('{"constructor":"derived","gone":null}');
      });
      await derived.get((c) => {
        c.request.uri.path = '/merge';
        c.request.headers = fromJson<Record<string, string | null>>('{"toString":"request"}');
        c.request.uri.query = fromJson<Record<string, string | string[] | null>>('{"__proto__":"request"}');
        c.request.cookies = fromJson<Record<string, string | null>>('{"prototype":"request"}');
      });
      const [received] = server.requests;
      const headers = new Map(received.rawHeaders.map(([name, value]) => [name.toLowerCase(), value]));
      expect([headers.get('constructor'), headers.get('prototype'), headers.get('tostring'), headers.has('x-gone')]).toEqual([
        'derived',
        'client',
        'request',
        false,
      ]);
      expect(received.target).toBe('/merge?__proto__=request&constructor=c1&constructor=c2&prototype=derived');
      expect(headers.get('cookie')).toBe('__proto__=client; constructor=derived; prototype=request');
      expectPrototypesUntouched();
    } finally {
      await client.close();
    }
  });
});
