import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { DIGEST_ALGORITHMS, digestHash, ha1, requestDigest, responseDigest, toDigestAlgorithm, userhash, type DigestInput } from './digest-math.js';

// RFC 7616 §3.9.1: user Mufasa, password "Circle of Life", GET /dir/index.html.
const rfc7616: Omit<DigestInput, 'algorithm'> = {
  username: 'Mufasa',
  realm: 'http-auth@example.org',
  password: 'Circle of Life',
  nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
  cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
  nc: '00000001',
  qop: 'auth',
  uri: '/dir/index.html',
  method: 'GET',
};

// RFC 2617 §3.5: note "Circle Of Life" with a capital O there.
const rfc2617: DigestInput = {
  algorithm: 'MD5',
  username: 'Mufasa',
  realm: 'testrealm@host.com',
  password: 'Circle Of Life',
  nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093',
  cnonce: '0a4f113b',
  nc: '00000001',
  qop: 'auth',
  uri: '/dir/index.html',
  method: 'GET',
};

const md5 = (s: string): string => createHash('md5').update(s).digest('hex');

describe('digest-math: published vectors', () => {
  it('RFC 7616 §3.9.1 MD5', () => {
    expect(requestDigest({ ...rfc7616, algorithm: 'MD5' })).toBe('8ca523f5e9506fed4657c9700eebdbec');
  });

  it('RFC 7616 §3.9.1 SHA-256', () => {
    expect(requestDigest({ ...rfc7616, algorithm: 'SHA-256' })).toBe('753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1');
  });

  it('RFC 2617 §3.5 MD5 with qop=auth', () => {
    expect(requestDigest(rfc2617)).toBe('6629fae49393a05397450978507c4ef1');
  });

  it('SHA-512/256 is the FIPS 180-4 truncated hash (NIST example "abc"), not a cut SHA-512', () => {
    expect(digestHash('SHA-512-256', 'abc')).toBe('53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23');
    expect(digestHash('SHA-512-256-sess', 'abc')).toBe(digestHash('SHA-512-256', 'abc'));
    expect(digestHash('SHA-256', 'abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

// No RFC publishes vectors for these; each is checked against the RFC formula spelled out by
// hand with node:crypto, independently of the module's own composition.
describe('digest-math: formulas', () => {
  const base = { ...rfc2617 };
  const ha1Plain = md5('Mufasa:testrealm@host.com:Circle Of Life');

  it('-sess: A1 = H(user:realm:password):nonce:cnonce (RFC 7616 §3.4.2)', () => {
    const sess = { ...base, algorithm: 'MD5-sess' as const };
    expect(ha1(sess)).toBe(md5(`${ha1Plain}:${base.nonce}:${base.cnonce}`));
    const ha2 = md5('GET:/dir/index.html');
    expect(requestDigest(sess)).toBe(md5(`${ha1(sess)}:${base.nonce}:00000001:${base.cnonce}:auth:${ha2}`));
  });

  it('auth-int: A2 = method:uri:H(entity-body) over the raw bytes (RFC 7616 §3.4.3)', () => {
    const body = Buffer.from([0x00, 0xff, 0x41]);
    const ha2 = md5(`POST:/dir/index.html:${createHash('md5').update(body).digest('hex')}`);
    const input = { ...base, method: 'POST', qop: 'auth-int' as const, body };
    expect(requestDigest(input)).toBe(md5(`${ha1Plain}:${base.nonce}:00000001:${base.cnonce}:auth-int:${ha2}`));
    // an empty body still contributes H("")
    const empty = md5(`POST:/dir/index.html:${md5('')}`);
    expect(requestDigest({ ...input, body: undefined })).toBe(md5(`${ha1Plain}:${base.nonce}:00000001:${base.cnonce}:auth-int:${empty}`));
  });

  it('rspauth: A2 = ":" uri, and ":" uri ":" H(body) for auth-int (RFC 7616 §3.5)', () => {
    expect(responseDigest(base)).toBe(md5(`${ha1Plain}:${base.nonce}:00000001:${base.cnonce}:auth:${md5(':/dir/index.html')}`));
    const int = { ...base, qop: 'auth-int' as const, body: 'ok-text' };
    expect(responseDigest(int)).toBe(md5(`${ha1Plain}:${base.nonce}:00000001:${base.cnonce}:auth-int:${md5(`:/dir/index.html:${md5('ok-text')}`)}`));
  });

  it('without qop: response = H(H(A1):nonce:H(A2)) (RFC 2617 §3.2.2.1, RFC 2069)', () => {
    const legacy: DigestInput = { ...base, qop: undefined, nc: undefined };
    expect(requestDigest(legacy)).toBe(md5(`${ha1Plain}:${base.nonce}:${md5('GET:/dir/index.html')}`));
  });

  it('userhash = H(user:realm), strings hashed as UTF-8 (RFC 7616 §3.4.4)', () => {
    const expected = createHash('sha512-256').update(Buffer.from('Jäsøn Doe:api@example.org', 'utf8')).digest('hex');
    expect(userhash('SHA-512-256', 'Jäsøn Doe', 'api@example.org')).toBe(expected);
  });

  it('names algorithms case-insensitively; absent means MD5; unknown is undefined', () => {
    expect(toDigestAlgorithm(undefined)).toBe('MD5');
    expect(toDigestAlgorithm('sha-256-SESS')).toBe('SHA-256-sess');
    expect(toDigestAlgorithm('SHA-1')).toBeUndefined();
    expect(DIGEST_ALGORITHMS).toHaveLength(8);
  });

  it('refuses to compute what the RFC leaves undefined', () => {
    expect(() => ha1({ ...base, algorithm: 'SHA-256-sess', cnonce: undefined })).toThrow('cnonce');
    expect(() => requestDigest({ ...base, nc: undefined })).toThrow('nc and cnonce');
  });
});
