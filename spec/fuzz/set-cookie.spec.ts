import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { HttpBuilder } from '../../lib/index.js';
import { parseSetCookie, type ResponseCookie } from '../../lib/model/set-cookie.js';
import { BACKENDS } from '../conformance/backends.js';
import { useTestServer } from '../support/use-test-server.js';
import { expectPrototypesUntouched, hostileText, own, runs, token } from './fuzz-kit.js';
import { expectLinear, pathological, pumped } from './linear-time.js';

const FRAGMENTS = ['Path=/', 'Domain=', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT', 'Max-Age=', 'Secure', 'HttpOnly', 'SameSite=Lax', '; ', '=='];

// RFC 6265 cookie-octet: visible ASCII but space, DQUOTE, comma, semicolon and backslash
const COOKIE_OCTETS = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).filter((c) => !'",;\\'.includes(c));
// an attribute value: visible ASCII but ';' (spaces only inside, the parser trims the ends)
const AV_OCTETS = Array.from({ length: 0x7e - 0x21 + 1 }, (_, i) => String.fromCharCode(0x21 + i)).filter((c) => c !== ';');

const ATTRIBUTE_NAME = fc.oneof(fc.constantFrom('Path', 'Domain', 'Expires', 'Max-Age', 'Secure', 'HttpOnly', 'SameSite', 'Partitioned'), token());
const ATTRIBUTE_VALUE = fc.oneof(
  fc.constant(true as const),
  fc
    .tuple(fc.string({ unit: fc.constantFrom(...AV_OCTETS), maxLength: 12 }), fc.string({ unit: fc.constantFrom(...AV_OCTETS, ' '), maxLength: 8 }))
    .map(([a, b]) => `${a}${b}`.trim()),
);

const COOKIE = fc.record({
  name: token(),
  value: fc.string({ unit: fc.constantFrom(...COOKIE_OCTETS), maxLength: 16 }),
  attributes: fc.uniqueArray(fc.tuple(ATTRIBUTE_NAME, ATTRIBUTE_VALUE), { selector: ([name]) => name.toLowerCase(), maxLength: 6 }),
  spacing: fc.constantFrom('', ' ', '  ', '\t'),
});

describe('Set-Cookie parser (lib/model/set-cookie.ts) under hostile input', () => {
  it('never throws; name, value and attributes come back trimmed, as own properties, no ";" inside; no prototype changes', () => {
    fc.assert(
      fc.property(hostileText(FRAGMENTS), (header) => {
        const { name, value, attributes } = parseSetCookie(header);
        if (name !== name.trim() || value !== value.trim() || name.includes('=') || `${name}${value}`.includes(';'))
          throw new Error(`bad pair ${name}=${value}`);
        expect(Object.getPrototypeOf(attributes)).toBe(Object.prototype);
        for (const key of Object.keys(attributes)) {
          const attribute = attributes[key];
          if (key !== key.trim().toLowerCase() || key.includes(';')) throw new Error(`bad attribute name ${key}`);
          if (attribute !== true && (typeof attribute !== 'string' || attribute.includes(';') || attribute !== attribute.trim()))
            throw new Error(`bad attribute ${key}`);
        }
        expectPrototypesUntouched();
      }),
      runs(300),
    );
  });

  it('gives back the cookie it was given: name, value, attribute names lower case, flags true', () => {
    fc.assert(
      fc.property(COOKIE, ({ name, value, attributes, spacing }) => {
        const header = [`${name}=${value}`, ...attributes.map(([key, v]) => (v === true ? key : `${key}=${v}`))].join(`;${spacing}`);
        expect(parseSetCookie(header)).toEqual({ name, value, attributes: own(attributes.map(([key, v]) => [key.toLowerCase(), v])) });
        expectPrototypesUntouched();
      }),
      runs(500),
    );
  });

  it('parses pumped inputs in linear time (no ReDoS)', async () => {
    await fc.assert(
      fc.asyncProperty(pumped(FRAGMENTS), (shape) => expectLinear(parseSetCookie, shape)),
      runs(40),
    );
    for (const shape of pathological([
      ['a=', ';', ''],
      ['a=b', '; x', ''],
      ['', '=', ''],
      ['a=b;', ' ', 'x'],
      ['a=b', ';__proto__=1', ''],
    ])) {
      await expectLinear(parseSetCookie, shape);
    }
  });

  describe('regressions', () => {
    it('keeps an attribute named __proto__ (it used to be dropped), beside constructor and prototype', () => {
      const cookie = parseSetCookie('__proto__=p; Path=/; __proto__={"polluted":1}; Constructor; prototype=q');
      expect(Object.getPrototypeOf(cookie.attributes)).toBe(Object.prototype);
      expect(Object.getOwnPropertyNames(cookie.attributes)).toEqual(['path', '__proto__', 'constructor', 'prototype']);
      expect(Object.getOwnPropertyDescriptor(cookie.attributes, '__proto__')?.value).toBe('{"polluted":1}');
      expect(cookie).toMatchObject({ name: '__proto__', value: 'p', attributes: { path: '/', constructor: true, prototype: 'q' } });
      expectPrototypesUntouched();
    });
  });
});

describe('fromServer.cookies with hostile names, on every backend', () => {
  const holder = useTestServer();
  const SET_COOKIE = ['__proto__=p; Path=/; __proto__={"polluted":1}; Constructor', 'constructor=c; prototype=q; toString=t', 'prototype=x; HttpOnly'];
  const EXPECTED: ResponseCookie[] = [
    {
      name: '__proto__',
      value: 'p',
      attributes: own<string | true>([
        ['path', '/'],
        ['__proto__', '{"polluted":1}'],
        ['constructor', true],
      ]),
    },
    {
      name: 'constructor',
      value: 'c',
      attributes: own([
        ['prototype', 'q'],
        ['tostring', 't'],
      ]),
    },
    { name: 'prototype', value: 'x', attributes: { httponly: true } },
  ];

  for (const backend of BACKENDS) {
    it(`${backend.name}: every Set-Cookie comes back as sent, nothing leaks into Object.prototype`, async () => {
      const server = holder.server;
      server.expect({ method: 'GET', path: '/cookies', respond: { headers: { 'Content-Type': 'text/plain', 'Set-Cookie': SET_COOKIE }, body: 'ok' } });
      const http = HttpBuilder.configure((c) => {
        c.request.uri = server.httpUrl;
        c.client.backend = backend.choice;
      });
      try {
        const cookies = await http.get((c) => {
          c.request.uri.path = '/cookies';
          c.response.success((fromServer) => fromServer.cookies);
        });
        expect(cookies).toEqual(EXPECTED);
        expectPrototypesUntouched();
      } finally {
        await http.close();
      }
    });
  }
});
