import { describe, expect, it } from '@jest/globals';
import { AuthSyntaxError, param, parseChallenges, parseCredentials, quoteString } from './auth-params.js';
import { decodeExtValue, encodeExtValue } from './ext-value.js';

describe('parseChallenges (RFC 7235 §4.1)', () => {
  it('reads quoted strings with escaped quotes, backslashes and commas inside quotes', () => {
    const [c] = parseChallenges(String.raw`Digest realm="a \"quoted\" realm, with, commas", nonce="x\\y", qop="auth,auth-int", algorithm=SHA-256`);
    expect(c.scheme).toBe('Digest');
    expect(c.params).toEqual({ realm: 'a "quoted" realm, with, commas', nonce: 'x\\y', qop: 'auth,auth-int', algorithm: 'SHA-256' });
    expect([...c.quoted].sort()).toEqual(['nonce', 'qop', 'realm']);
  });

  it('splits several challenges in one value, with token68 and parameter forms', () => {
    const all = parseChallenges('Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple", Negotiate abc+/9==, Bearer');
    expect(all.map((c) => c.scheme)).toEqual(['Newauth', 'Basic', 'Negotiate', 'Bearer']);
    expect(all[0].params).toEqual({ realm: 'apps', type: '1', title: 'Login to "apps"' });
    expect(all[1].params).toEqual({ realm: 'simple' });
    expect(all[2]).toMatchObject({ token68: 'abc+/9==', params: {} });
    expect(all[3]).toMatchObject({ params: {} });
    expect(all[3].token68).toBeUndefined();
  });

  it('lower-cases parameter names, allows whitespace around "=" and empty list elements', () => {
    const all = parseChallenges(' , Digest REALM = "r" ,, Nonce=abc ,  , Basic realm="b",');
    expect(all.map((c) => [c.scheme, c.params])).toEqual([
      ['Digest', { realm: 'r', nonce: 'abc' }],
      ['Basic', { realm: 'b' }],
    ]);
    expect(param(all[0], 'Realm')).toBe('r');
    expect(param(all[0], 'constructor')).toBeUndefined();
  });

  it('takes "a=" with nothing after as a token68, "a=b" as a parameter', () => {
    expect(parseCredentials('Basic YQ==').token68).toBe('YQ==');
    expect(parseCredentials('Basic YQ=').token68).toBe('YQ=');
    expect(parseCredentials('Basic a=b').params).toEqual({ a: 'b' });
  });

  it.each([
    ['', 'no challenge'],
    ['Digest realm="x', 'unterminated'],
    ['Digest realm="x" nonce="y"', 'expected ","'],
    ['Digest realm="a", REALM="b"', 'repeated'],
    ['Digest nonce="x", realm=', 'expected a token or quoted-string'],
    ['Digest realm=, nonce="x"', 'expected a space after the auth-scheme'],
    ['Digest realm="a\u0001"', 'control character'],
    ['Digest realm="x", =y', 'expected an auth-scheme'],
    ['"Digest"', 'expected an auth-scheme'],
  ])('rejects %j (%s)', (value, why) => {
    expect(() => parseChallenges(value)).toThrow(AuthSyntaxError);
    expect(() => parseChallenges(value)).toThrow(why);
  });

  it('parseCredentials wants exactly one', () => {
    expect(() => parseCredentials('Basic YQ==, Digest realm="x"')).toThrow('expected one credentials, found 2');
  });

  it('quoteString escapes so that the parser gives the value back', () => {
    const value = 'he said "hi", then \\ left';
    expect(quoteString(value)).toBe(String.raw`"he said \"hi\", then \\ left"`);
    expect(parseCredentials(`X v=${quoteString(value)}`).params.v).toBe(value);
  });
});

describe('ext-value (RFC 8187 §3.2)', () => {
  it('decodes the RFC 7616 §3.4.4 username* example and the RFC 8187 §3.2.3 examples', () => {
    expect(decodeExtValue("UTF-8''J%C3%A4s%C3%B8n%20Doe").value).toBe('Jäsøn Doe');
    expect(decodeExtValue("iso-8859-1'en'%A3%20rates")).toEqual({ charset: 'iso-8859-1', language: 'en', value: '£ rates' });
    expect(decodeExtValue("UTF-8''%c2%a3%20and%20%e2%82%ac%20rates").value).toBe('£ and € rates');
  });

  it('encodes as UTF-8 with every non attr-char percent-encoded', () => {
    expect(encodeExtValue('Jäsøn Doe')).toBe("UTF-8''J%C3%A4s%C3%B8n%20Doe");
    expect(encodeExtValue("a'b*c%d")).toBe("UTF-8''a%27b%2Ac%25d");
    expect(decodeExtValue(encodeExtValue('日本 "x"')).value).toBe('日本 "x"');
  });

  it.each([
    ["UTF-8''%FF", 'The encoded data was not valid'],
    ["UTF-8'%41", 'malformed'],
    ["UTF-8''a b", 'malformed'],
    ["UTF-8''%4", 'malformed'],
    ["Shift_JIS''a", 'unsupported ext-value charset'],
  ])('rejects %j', (text, why) => {
    expect(() => decodeExtValue(text)).toThrow(why);
  });
});
