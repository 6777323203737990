import { describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import { authorization } from '../../lib/auth/auth-stage.js';
import type { WireCall } from '../../lib/pipeline/plan.js';
import { bufferedText, type WireRequest, type WireResponse } from '../../lib/model/backend.js';
import { parseChallenges } from '../../lib/auth/challenges.js';
import { digestAuthorization, pickDigest } from '../../lib/auth/digest.js';
import { digestResponse, type DigestInput } from '../../lib/auth/digest-math.js';

// RFC 7616 §3.9.1
const RFC7616: Omit<DigestInput, 'algorithm'> = {
  username: 'Mufasa',
  realm: 'http-auth@example.org',
  password: 'Circle of Life',
  method: 'GET',
  uri: '/dir/index.html',
  nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
  nc: '00000001',
  cnonce: 'f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ',
  qop: 'auth',
};

describe("Digest response hashes: the RFCs' published examples", () => {
  it('RFC 7616 §3.9.1, MD5', () => {
    expect(digestResponse({ ...RFC7616, algorithm: 'MD5' })).toBe('8ca523f5e9506fed4657c9700eebdbec');
  });

  it('RFC 7616 §3.9.1, SHA-256', () => {
    expect(digestResponse({ ...RFC7616, algorithm: 'SHA-256' })).toBe('753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1');
  });

  it('RFC 2617 §3.5', () => {
    const response = digestResponse({
      algorithm: 'MD5',
      username: 'Mufasa',
      realm: 'testrealm@host.com',
      password: 'Circle Of Life',
      method: 'GET',
      uri: '/dir/index.html',
      nonce: 'dcd98b7102dd2f0e8b11d0f600bfb0c093',
      nc: '00000001',
      cnonce: '0a4f113b',
      qop: 'auth',
    });
    expect(response).toBe('6629fae49393a05397450978507c4ef1');
  });
});

describe('challenges', () => {
  it('parses several challenges in one header and across headers, with escaped quotes and commas', () => {
    const challenges = parseChallenges([
      'Basic realm="a, \\"quoted\\" realm", Digest realm="x", nonce="n", qop="auth,auth-int", algorithm=SHA-256',
      'Digest realm="x", nonce="m", algorithm=MD5, stale=TRUE',
    ]);
    expect(challenges).toEqual([
      { scheme: 'basic', params: { realm: 'a, "quoted" realm' } },
      { scheme: 'digest', params: { realm: 'x', nonce: 'n', qop: 'auth,auth-int', algorithm: 'SHA-256' } },
      { scheme: 'digest', params: { realm: 'x', nonce: 'm', algorithm: 'MD5', stale: 'TRUE' } },
    ]);
  });

  it('picks the strongest Digest algorithm offered, and auth-int only when it is the only qop', () => {
    const picked = pickDigest(
      parseChallenges([
        'Digest realm="r", nonce="1", algorithm=MD5, qop="auth"',
        'Digest realm="r", nonce="2", algorithm=SHA-512-256, qop="auth-int"',
        'Digest realm="r", nonce="3", algorithm=SHA-256-sess, qop="auth"',
      ]),
    );
    expect([picked?.algorithm, picked?.qop, picked?.nonce]).toEqual(['SHA-512-256', 'auth-int', '2']);
    expect(pickDigest(parseChallenges(['Digest realm="r", nonce="1", algorithm=UNKNOWN']))).toBeUndefined();
  });
});

describe('Authorization: Digest', () => {
  const challenge = pickDigest(parseChallenges(['Digest realm="r@x", nonce="abc", opaque="op\\"q", algorithm=SHA-256, qop="auth"']))!;

  it('carries every parameter, with the uri as the request-target and nc as 8 hex digits', () => {
    const { header } = digestAuthorization(challenge, { user: 'alice', password: 'pw', method: 'GET', uri: '/a?b=1&c', nc: 26, body: undefined });
    const params = parseChallenges([header])[0].params;
    expect(params).toMatchObject({
      username: 'alice',
      realm: 'r@x',
      nonce: 'abc',
      uri: '/a?b=1&c',
      algorithm: 'SHA-256',
      qop: 'auth',
      nc: '0000001a',
      opaque: 'op"q',
    });
    expect(params.cnonce).toMatch(/^[0-9a-f]{32}$/);
    const expected = digestResponse({
      algorithm: 'SHA-256',
      username: 'alice',
      realm: 'r@x',
      password: 'pw',
      method: 'GET',
      uri: '/a?b=1&c',
      nonce: 'abc',
      nc: '0000001a',
      cnonce: params.cnonce,
      qop: 'auth',
    });
    expect(params.response).toBe(expected);
  });

  it('uses a fresh cnonce every time', () => {
    const answer = { user: 'alice', password: 'pw', method: 'GET', uri: '/', nc: 1, body: undefined };
    expect(digestAuthorization(challenge, answer).header).not.toBe(digestAuthorization(challenge, answer).header);
  });

  it('sends a non-ASCII user name as username* (RFC 8187)', () => {
    const { header } = digestAuthorization(challenge, { user: 'Jäsøn Doe', password: 'pw', method: 'GET', uri: '/', nc: 1, body: undefined });
    expect(header).toContain("username*=UTF-8''J%C3%A4s%C3%B8n%20Doe");
    expect(header).not.toContain('username="');
  });
});

describe('nc per nonce', () => {
  it('keeps counting when the same nonce is challenged again or sent back as nextnonce', async () => {
    const { AuthCache } = await import('../../lib/auth/auth-cache.js');
    const cache = new AuthCache();
    const counts = [
      cache.nextNonceCount('https://h', 'N'),
      cache.nextNonceCount('https://h', 'N'),
      cache.nextNonceCount('https://h', 'M'),
      cache.nextNonceCount('https://h', 'N'),
    ];
    expect(counts).toEqual([1, 2, 1, 3]);
    expect(cache.nextNonceCount('https://other', 'N')).toBe(1);
  });
});

describe('protection spaces', () => {
  it('are capped: past MAX_SPACES the oldest is dropped first', async () => {
    const { AuthCache, MAX_SPACES } = await import('../../lib/auth/auth-cache.js');
    const cache = new AuthCache();
    const url = (i: number) => new URL(`https://h/p${i}/x`);
    const remember = (i: number) =>
      cache.remember(url(i), { scheme: 'digest', challenge: pickDigest(parseChallenges([`Digest realm="r", nonce="n${i}", qop="auth", domain="/p${i}/"`]))! });
    for (let i = 0; i < MAX_SPACES; i++) remember(i);
    remember(2); // challenged again: updated where it is
    for (let i = MAX_SPACES; i < MAX_SPACES + 2; i++) remember(i); // a hostile server's new domains
    const nonceFound = (i: number) => {
      const state = cache.find(url(i))?.state;
      return state?.scheme === 'digest' ? state.challenge.nonce : undefined;
    };
    expect([0, 1, 2, 3, MAX_SPACES + 1].map(nonceFound)).toEqual([undefined, undefined, 'n2', 'n3', `n${MAX_SPACES + 1}`]);
    expect(cache.find(new URL('https://h/elsewhere'))).toBeUndefined();
  });
});

describe('the auth stage and a text body', () => {
  const challenge = (qop: string): WireResponse => ({
    statusCode: 401,
    message: 'Unauthorized',
    headers: [['www-authenticate', `Digest realm="r", nonce="abc", qop="${qop}", algorithm=MD5`]],
    body: Readable.from([]),
    decoded: true,
    discard: () => {},
  });
  const ok: WireResponse = { statusCode: 200, message: 'OK', headers: [], body: Readable.from([]), decoded: true, discard: () => {} };

  /** Sends a POST of a text body through a Digest challenge with `qop`; how often its bytes were made. */
  async function encodingsThrough(qop: string): Promise<number> {
    let encodings = 0;
    const body = bufferedText('{"a":1}', 7, (text) => {
      encodings++;
      return Buffer.from(text, 'utf8');
    });
    const wire: WireRequest = { method: 'POST', url: 'http://127.0.0.1:1/x', secure: false, hostname: '127.0.0.1', port: 1, target: '/x', headers: {}, body };
    const answers = [challenge(qop), ok];
    const sent: WireRequest[] = [];
    const plan = {
      credentials: { scheme: 'digest', user: 'u', password: 'p', preemptive: false },
      target: { secure: false, hostname: '127.0.0.1', port: 1 },
      pool: { auth: {} },
    };
    const call = { plan, control: undefined, last: undefined } as unknown as WireCall;
    const send = authorization((request) => (sent.push(request), Promise.resolve(answers.shift()!)));
    const response = await send(wire, call);
    expect(response.statusCode).toBe(200);
    expect(sent.map((request) => request.body)).toEqual([body, body]);
    return encodings;
  }

  // only auth-int hashes the body: with qop=auth a cached space answers every request up front,
  // and asking for the bytes would encode every text body the fetch backend sends as text
  it('makes the bytes of the body only for qop=auth-int', async () => {
    expect(await encodingsThrough('auth')).toBe(0);
    expect(await encodingsThrough('auth-int')).toBe(1);
  });
});
