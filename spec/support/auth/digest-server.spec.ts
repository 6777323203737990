import { describe, expect, it } from '@jest/globals';
import { useTestServer } from '../use-test-server.js';
import { parseChallenges, parseCredentials } from './auth-params.js';
import { responseDigest, type DigestAlgorithm } from './digest-math.js';
import { digestRoute, type DigestRouteOptions } from './digest-route.js';
import { handBuiltDigest, type HandBuiltDigestOptions } from './hand-built-digest.js';
import { rawSend, type RawReply } from './raw-send.js';
import type { AuthRouteHandle } from './route-stats.js';

const USER = 'Mufasa';
const PASSWORD = 'Circle of Life';

// The parameters of an Authentication-Info value (a bare #auth-param list: give it a scheme to parse it).
function infoOf(res: RawReply): Record<string, string> {
  const value = res.headers['authentication-info'];
  if (typeof value !== 'string') throw new Error('no Authentication-Info');
  return parseCredentials(`Info ${value}`).params;
}

function challengeParams(line: string): Record<string, string> {
  return parseChallenges(line)[0].params;
}

describe('digestRoute (RFC 7616)', () => {
  const holder = useTestServer();

  // Registers a route and returns helpers bound to it.
  function setup(options: Partial<DigestRouteOptions> = {}) {
    const server = holder.server;
    const route = digestRoute(server, { user: USER, password: PASSWORD, ...options });
    const path = options.path ?? '/digest';
    /** A request without credentials: returns the 401 and its first WWW-Authenticate line. */
    const challenge = async (target = path, method = 'GET') => {
      const res = await rawSend(server, { method, target });
      expect(res.status).toBe(401);
      return { res, line: res.lines('www-authenticate')[0] };
    };
    /** Answers `line` with a hand-built Authorization header and sends it. */
    const answer = async (line: string, knobs: Partial<HandBuiltDigestOptions> & { target?: string; sendBody?: string; secure?: boolean } = {}) => {
      const target = knobs.target ?? path;
      const method = knobs.method ?? 'GET';
      const built = handBuiltDigest({ challenge: line, user: USER, password: PASSWORD, method, uri: target, ...knobs });
      const body = knobs.sendBody ?? (typeof knobs.body === 'string' ? knobs.body : undefined);
      const res = await rawSend(server, { method, target, body, secure: knobs.secure, headers: { Authorization: built.header } });
      return { res, ...built };
    };
    return { route, challenge, answer };
  }

  function expectRejected(res: RawReply, route: AuthRouteHandle, reason: string): void {
    expect(res.status).toBe(401);
    expect(res.body).toBe('Unauthorized');
    expect(route.rejections.at(-1)).toContain(reason);
    expect(challengeParams(res.lines('www-authenticate')[0]).stale).toBeUndefined();
  }

  describe('the challenge', () => {
    it('has exactly the RFC 7616 §3.3 form, with a fresh CSPRNG nonce each time and one opaque per route', async () => {
      const { route, challenge } = setup();
      const first = await challenge();
      const second = await challenge('/digest?q=1', 'DELETE');
      const form = /^Digest realm="digest-realm", domain="\/digest", nonce="([A-Za-z0-9+/]{44})", opaque="([0-9a-f]{32})", algorithm=MD5, qop="auth"$/;
      const [, nonce1, opaque1] = form.exec(first.line) ?? [];
      const [, nonce2, opaque2] = form.exec(second.line) ?? [];
      expect(nonce1).toBeDefined();
      expect(nonce2).toBeDefined();
      expect(nonce1).not.toBe(nonce2);
      expect(opaque1).toBe(opaque2);
      expect(first.res.lines('www-authenticate')).toHaveLength(1);
      expect([first.res.headers['content-type'], first.res.body]).toEqual(['text/plain; charset=utf-8', 'Unauthorized']);
      expect([route.challenges, route.rejected, route.authorized]).toEqual([2, 0, 0]);
      expect(route.issuedNonces).toEqual([nonce1, nonce2]);
    });

    it('carries the options: realm, domain, algorithm, qop, userhash, no opaque', async () => {
      const { challenge } = setup({
        path: '/d',
        realm: 'r "x"',
        domain: '/d /e',
        algorithm: 'SHA-512-256-sess',
        qop: 'auth,auth-int',
        userhash: true,
        opaque: false,
      });
      const { line } = await challenge();
      expect(line).toMatch(/^Digest realm="r \\"x\\"", domain="\/d \/e", nonce="[^"]+", algorithm=SHA-512-256-sess, qop="auth,auth-int", userhash=true$/);
    });
  });

  describe('a right answer', () => {
    it.each<DigestAlgorithm>(['MD5', 'MD5-sess', 'SHA-256', 'SHA-256-sess', 'SHA-512-256', 'SHA-512-256-sess'])(
      '%s: 200 ok-text with Authentication-Info (RFC 7616 §3.5)',
      async (algorithm) => {
        const { route, challenge, answer } = setup({ algorithm });
        const { line } = await challenge();
        expect(challengeParams(line).algorithm).toBe(algorithm);
        const { res, input } = await answer(line, { cnonce: 'c/n+"once' });
        expect([res.status, res.headers['content-type'], res.body]).toEqual([200, 'text/plain; charset=utf-8', 'ok-text']);
        const raw = res.headers['authentication-info'];
        expect(raw).toMatch(/^nextnonce="[A-Za-z0-9+/]{44}", qop="auth", rspauth="[0-9a-f]+", cnonce="c\/n\+\\"once", nc=00000001$/);
        const info = infoOf(res);
        expect(info.rspauth).toBe(responseDigest({ ...input, body: 'ok-text' }));
        expect(info.cnonce).toBe('c/n+"once');
        expect([route.authorized, route.challenges, route.rejected]).toEqual([1, 1, 0]);
        expect(route.issuedNonces).toEqual([input.nonce, info.nextnonce]);
      },
    );

    it('works for every default method over HTTPS, and answers HEAD without a body', async () => {
      const { route, challenge, answer } = setup();
      const { line } = await challenge();
      let nc = 0;
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD']) {
        const { res } = await answer(line, { method, secure: true, nc: (++nc).toString(16).padStart(8, '0') });
        expect([method, res.status, res.body]).toEqual([method, 200, method === 'HEAD' ? '' : 'ok-text']);
        expect(infoOf(res).nc).toBe(nc.toString(16).padStart(8, '0'));
      }
      expect(route.requests.every((r, i) => i === 0 || r.secure)).toBe(true);
    });

    it('records the parsed parameters of the last Authorization, and the nonce/nc pairs seen', async () => {
      const { route, challenge, answer } = setup();
      const { line } = await challenge();
      const { input } = await answer(line, { cnonce: 'abc' });
      expect(route.lastAuthorization).toEqual({
        username: USER,
        realm: 'digest-realm',
        nonce: input.nonce,
        uri: '/digest',
        algorithm: 'MD5',
        qop: 'auth',
        nc: '00000001',
        cnonce: 'abc',
        response: expect.stringMatching(/^[0-9a-f]{32}$/),
        opaque: challengeParams(line).opaque,
      });
      expect(route.ncSeen).toEqual([{ nonce: input.nonce, nc: '00000001' }]);
    });

    it('accepts a missing algorithm parameter as MD5 (RFC 7616 §3.4)', async () => {
      const { challenge, answer } = setup();
      const { line } = await challenge();
      expect((await answer(line, { override: { algorithm: null } })).res.status).toBe(200);
    });
  });

  describe('uri', () => {
    it('must be the request-target exactly as received, query included', async () => {
      const { route, challenge, answer } = setup();
      const target = '/digest?a=1&b=%20x&a=2';
      const { line } = await challenge(target);
      expect((await answer(line, { target })).res.status).toBe(200);
      expectRejected((await answer(line, { target, uri: '/digest', nc: '00000002' })).res, route, 'uri is not the request-target');
      expectRejected((await answer(line, { target, uri: '/digest?a=1&b=+x&a=2', nc: '00000003' })).res, route, 'uri');
      const absolute = `${holder.server.httpUrl}${target}`;
      expectRejected((await answer(line, { target, uri: absolute, nc: '00000004' })).res, route, 'uri');
    });
  });

  describe('nc (RFC 7616 §3.4)', () => {
    it('accepts each new nc per nonce, in any order, and rejects a replay', async () => {
      const { route, challenge, answer } = setup();
      const { line } = await challenge();
      expect((await answer(line, { nc: '00000001' })).res.status).toBe(200);
      expect((await answer(line, { nc: '00000005' })).res.status).toBe(200);
      expect((await answer(line, { nc: '00000003' })).res.status).toBe(200);
      expectRejected((await answer(line, { nc: '00000005' })).res, route, 'nc 00000005 was already used with this nonce');
      const nonce = challengeParams(line).nonce;
      expect(route.ncSeen).toEqual(['00000001', '00000005', '00000003', '00000005'].map((nc) => ({ nonce, nc })));
      expect([route.authorized, route.rejected, route.challenges]).toEqual([3, 1, 2]);
    });

    it('tracks nc per nonce: a nextnonce starts its own count, the old nonce stays valid', async () => {
      const { challenge, answer } = setup();
      const { line } = await challenge();
      const first = await answer(line);
      const next = infoOf(first.res).nextnonce;
      expect(next).not.toBe(first.input.nonce);
      const second = await answer(line, { nonce: next });
      expect([second.res.status, infoOf(second.res).nc]).toEqual([200, '00000001']);
      expect((await answer(line, { nc: '00000002' })).res.status).toBe(200);
      expect((await answer(line, { nonce: next, nc: '00000002' })).res.status).toBe(200);
    });

    it('accepts concurrent requests arriving out of order', async () => {
      const { route, challenge, answer } = setup();
      const { line } = await challenge();
      const ncs = ['00000004', '00000001', '0000000a', '00000002', '00000003'];
      const results = await Promise.all(ncs.map((nc) => answer(line, { nc })));
      expect(results.map((r) => r.res.status)).toEqual([200, 200, 200, 200, 200]);
      expect(route.ncSeen.map((s) => s.nc).sort()).toEqual([...ncs].sort());
    });

    it.each([
      ['00000000', 'above 0'],
      ['0000000A', 'lower-case hex'],
      ['0000001', '8 lower-case hex digits'],
      ['000000001', '8 lower-case hex digits'],
    ])('rejects nc=%s', async (nc, reason) => {
      const { route, challenge, answer } = setup();
      const { line } = await challenge();
      expectRejected((await answer(line, { nc })).res, route, reason);
    });
  });

  describe('wrong credentials', () => {
    it('a wrong password gets a fresh challenge without stale, and no secret in the reason', async () => {
      const { route, challenge } = setup();
      const { line } = await challenge();
      const built = handBuiltDigest({ challenge: line, user: USER, password: 'Hakuna Matata', method: 'GET', uri: '/digest' });
      const res = await rawSend(holder.server, { target: '/digest', headers: { Authorization: built.header } });
      expectRejected(res, route, 'response digest does not match');
      expect(challengeParams(res.lines('www-authenticate')[0]).nonce).not.toBe(challengeParams(line).nonce);
      expect([route.challenges, route.rejected, route.authorized]).toEqual([2, 1, 0]);
      const response = parseCredentials(built.header).params.response;
      expect(route.rejections.join()).not.toMatch(new RegExp(`${PASSWORD}|Hakuna|${response}`));
    });

    it('a wrong user is rejected', async () => {
      const { route, challenge } = setup();
      const { line } = await challenge();
      const built = handBuiltDigest({ challenge: line, user: 'Simba', password: PASSWORD, method: 'GET', uri: '/digest' });
      expectRejected(await rawSend(holder.server, { target: '/digest', headers: { Authorization: built.header } }), route, 'unknown user');
    });

    it.each<[string, Record<string, string | null>, string]>([
      ['a nonce never issued', { nonce: '"made-up"' }, 'never issued'],
      ['another realm', { realm: '"other"' }, 'realm differs'],
      ['no opaque', { opaque: null }, 'opaque not echoed'],
      ['a changed opaque', { opaque: '"00"' }, 'opaque not echoed'],
      ['another algorithm', { algorithm: 'SHA-256' }, 'algorithm differs'],
      ['a quoted algorithm', { algorithm: '"MD5"' }, 'algorithm must not be a quoted-string'],
      ['a quoted qop', { qop: '"auth"' }, 'qop must not be a quoted-string'],
      ['a quoted nc', { nc: '"00000001"' }, 'nc must not be a quoted-string'],
      ['an unquoted username', { username: USER }, 'username must be a quoted-string'],
      ['a qop not offered', { qop: 'auth-int' }, 'qop was not offered'],
      ['no qop', { qop: null }, 'qop is missing'],
      ['no cnonce', { cnonce: null }, 'cnonce is missing'],
      ['no response', { response: null }, 'missing'],
      ['no username', { username: null }, 'username is missing'],
      ['both username and username*', { 'username*': "UTF-8''Mufasa" }, 'both username and username*'],
      ['an unasked userhash', { userhash: 'true' }, 'did not offer it'],
      ['a bad userhash flag', { userhash: 'yes' }, 'neither true nor false'],
    ])('%s is rejected', async (_, override, reason) => {
      const { route, challenge, answer } = setup();
      const { line } = await challenge();
      expectRejected((await answer(line, { override })).res, route, reason);
    });

    it('rejects another scheme, bad syntax and two Authorization headers', async () => {
      const { route, challenge, answer } = setup();
      const { line } = await challenge();
      const good = handBuiltDigest({ challenge: line, user: USER, password: PASSWORD, method: 'GET', uri: '/digest' }).header;
      const send = (authorization: string | string[]) => rawSend(holder.server, { target: '/digest', headers: { Authorization: authorization } });
      expectRejected(await send(`Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`), route, 'scheme Basic, not Digest');
      expectRejected(await send('Digest username="x'), route, 'Authorization syntax');
      expectRejected(await send('Digest abc=='), route, 'without parameters');
      expectRejected(await send([good, good]), route, '2 Authorization headers');
      expect((await answer(line, { nc: '00000002' })).res.status).toBe(200);
    });
  });

  describe('qop=auth-int (RFC 7616 §3.4.3)', () => {
    it('hashes the raw request body; rspauth hashes the response body', async () => {
      const { route, challenge, answer } = setup({ qop: 'auth-int' });
      const { line } = await challenge('/digest', 'POST');
      expect(challengeParams(line).qop).toBe('auth-int');
      const body = '{"name":"Jäsøn"}\r\n';
      const ok = await answer(line, { method: 'POST', body });
      expect(ok.res.status).toBe(200);
      expect(infoOf(ok.res)).toMatchObject({ qop: 'auth-int', rspauth: responseDigest({ ...ok.input, body: 'ok-text' }) });
      const empty = await answer(line, { method: 'PUT', nc: '00000002' });
      expect(empty.res.status).toBe(200);
      const tampered = await answer(line, { method: 'POST', body, sendBody: body.replace('J', 'j'), nc: '00000003' });
      expectRejected(tampered.res, route, 'response digest does not match');
    });

    it('with qop="auth,auth-int" either may be chosen', async () => {
      const { challenge, answer } = setup({ qop: 'auth,auth-int' });
      const { line } = await challenge();
      expect(challengeParams(line).qop).toBe('auth,auth-int');
      const auth = await answer(line, { qop: 'auth', method: 'POST', body: 'x' });
      const int = await answer(line, { qop: 'auth-int', method: 'POST', body: 'x', nc: '00000002' });
      expect([auth.res.status, int.res.status]).toEqual([200, 200]);
      expect([infoOf(auth.res).qop, infoOf(int.res).qop]).toEqual(['auth', 'auth-int']);
    });
  });

  describe('user names (RFC 7616 §3.4.4, RFC 8187)', () => {
    it('userhash=true: accepts H(user:realm), and the plain name too', async () => {
      const { route, challenge, answer } = setup({ userhash: true, algorithm: 'SHA-512-256' });
      const { line } = await challenge();
      expect(line).toMatch(/, userhash=true$/);
      const hashed = await answer(line, { username: 'userhash' });
      expect(hashed.res.status).toBe(200);
      expect(route.lastAuthorization).toMatchObject({ userhash: 'true', username: expect.stringMatching(/^[0-9a-f]{64}$/) });
      expect((await answer(line, { nc: '00000002' })).res.status).toBe(200);
      const other = handBuiltDigest({ challenge: line, user: 'Simba', password: PASSWORD, method: 'GET', uri: '/digest', username: 'userhash' });
      expectRejected(await rawSend(holder.server, { target: '/digest', headers: { Authorization: other.header } }), route, 'unknown user (userhash)');
    });

    it('username* carries a non-ASCII name', async () => {
      const server = holder.server;
      const route = digestRoute(server, { user: 'Jäsøn Doe', password: 'Secret, or not?', algorithm: 'SHA-256', realm: 'api@example.org' });
      const line = (await rawSend(server, { target: '/digest' })).lines('www-authenticate')[0];
      const answerAs = (username: HandBuiltDigestOptions['username'], nc: string) => {
        const user = 'Jäsøn Doe';
        const built = handBuiltDigest({ challenge: line, user, password: 'Secret, or not?', method: 'GET', uri: '/digest', username, nc });
        return rawSend(server, { target: '/digest', headers: { Authorization: built.header } });
      };
      expect((await answerAs('extended', '00000001')).status).toBe(200);
      expect(route.lastAuthorization?.['username*']).toBe("UTF-8''J%C3%A4s%C3%B8n%20Doe");
      expect((await answerAs('userhash', '00000002')).status).toBe(401); // not offered by this route
      expect(route.rejections).toEqual(['userhash=true but the challenge did not offer it']);
    });

    it('rejects a malformed username*', async () => {
      const { route, challenge, answer } = setup();
      const { line } = await challenge();
      expectRejected((await answer(line, { override: { username: null, 'username*': "UTF-8''%FF" } })).res, route, 'not a valid RFC 8187 ext-value');
    });
  });

  describe('stale (RFC 7616 §3.3)', () => {
    it("stale: 'once' expires the first nonce after its first right answer; the fresh nonce works", async () => {
      const { route, challenge, answer } = setup({ stale: 'once' });
      const { line } = await challenge();
      // a wrong password on the first nonce is a plain rejection, not the stale signal
      const wrong = handBuiltDigest({ challenge: line, user: USER, password: 'nope', method: 'GET', uri: '/digest' });
      expectRejected(await rawSend(holder.server, { target: '/digest', headers: { Authorization: wrong.header } }), route, 'response digest');
      const stale = await answer(line, { nc: '00000002' });
      expect(stale.res.status).toBe(401);
      const renewed = stale.res.lines('www-authenticate')[0];
      expect(renewed).toMatch(/, qop="auth", stale=true$/);
      expect(challengeParams(renewed).nonce).not.toBe(stale.input.nonce);
      expect(route.rejections.at(-1)).toContain('stale once');
      expect((await answer(renewed)).res.status).toBe(200);
      expect((await answer(renewed, { nc: '00000002' })).res.status).toBe(200);
      // the first nonce stays expired: a right digest on it gets stale=true again
      const again = await answer(line, { nc: '00000003' });
      expect(challengeParams(again.res.lines('www-authenticate')[0]).stale).toBe('true');
      expect(route.rejections.at(-1)).toBe('nonce is stale');
      expect([route.challenges, route.rejected, route.authorized]).toEqual([4, 3, 2]);
    });

    it("stale: 'always' answers every right digest with stale=true and a fresh nonce, never 200", async () => {
      const { route, challenge, answer } = setup({ stale: 'always' });
      let { line } = await challenge();
      for (let i = 0; i < 3; i++) {
        const { res, input } = await answer(line);
        expect(res.status).toBe(401);
        line = res.lines('www-authenticate')[0];
        expect(challengeParams(line).stale).toBe('true');
        expect(challengeParams(line).nonce).not.toBe(input.nonce);
        expect(route.rejections.at(-1)).toContain('stale always');
      }
      // a wrong password is still a plain rejection
      const wrong = handBuiltDigest({ challenge: line, user: USER, password: 'nope', method: 'GET', uri: '/digest' });
      expectRejected(await rawSend(holder.server, { target: '/digest', headers: { Authorization: wrong.header } }), route, 'response digest');
      expect([route.challenges, route.rejected, route.authorized]).toEqual([5, 4, 0]);
    });
  });

  describe('Authentication-Info options', () => {
    it('badRspauth sends a wrong rspauth of the right shape', async () => {
      const { challenge, answer } = setup({ badRspauth: true, algorithm: 'SHA-256' });
      const { line } = await challenge();
      const { res, input } = await answer(line);
      expect(res.status).toBe(200);
      const right = responseDigest({ ...input, body: 'ok-text' });
      expect(infoOf(res).rspauth).toMatch(/^[0-9a-f]{64}$/);
      expect(infoOf(res).rspauth).not.toBe(right);
    });

    it('nextnonce: false leaves nextnonce out', async () => {
      const { route, challenge, answer } = setup({ nextnonce: false });
      const { line } = await challenge();
      const { res } = await answer(line);
      expect(res.headers['authentication-info']).toMatch(/^qop="auth", rspauth="[0-9a-f]{32}", cnonce="[^"]+", nc=00000001$/);
      expect(route.issuedNonces).toHaveLength(1);
    });

    it('opaque: false sends none and rejects one', async () => {
      const { route, challenge, answer } = setup({ opaque: false });
      const { line } = await challenge();
      expect(challengeParams(line).opaque).toBeUndefined();
      expect((await answer(line)).res.status).toBe(200);
      expectRejected((await answer(line, { nc: '00000002', override: { opaque: '"x"' } })).res, route, 'opaque sent but none was issued');
    });
  });

  describe('extra challenges', () => {
    const sha = 'Digest realm="digest-realm", nonce="fixed-sha-256-nonce", algorithm=SHA-256, qop="auth", opaque="op"';
    const legacy = 'Digest realm="legacy", nonce="fixed-legacy-nonce"';

    it('are sent as further field lines, and their nonces are accepted with their own parameters', async () => {
      const { route, challenge, answer } = setup({ challenges: [sha, `Basic realm="b", ${legacy}`] });
      const { res, line } = await challenge();
      expect(res.lines('www-authenticate')).toEqual([line, sha, `Basic realm="b", ${legacy}`]);
      const ok = await answer(sha);
      expect(ok.res.status).toBe(200);
      expect(ok.input.algorithm).toBe('SHA-256');
      expect(infoOf(ok.res).rspauth).toBe(responseDigest({ ...ok.input, body: 'ok-text' }));
      // the nextnonce inherits SHA-256: an MD5 answer with it fails, a SHA-256 one works
      const next = infoOf(ok.res).nextnonce;
      expectRejected((await answer(line, { nonce: next })).res, route, 'opaque not echoed');
      expectRejected((await answer(sha, { nonce: next, override: { algorithm: 'MD5' } })).res, route, 'algorithm differs');
      expect((await answer(sha, { nonce: next })).res.status).toBe(200);
      // the MD5 main challenge still works alongside
      expect((await answer(line)).res.status).toBe(200);
    });

    it('a challenge without qop is answered in the RFC 2069 compatible form', async () => {
      const { route, answer } = setup({ challenges: [legacy] });
      const ok = await answer(legacy);
      expect(parseCredentials(ok.header).params.qop).toBeUndefined();
      expect(ok.res.status).toBe(200);
      expect(ok.res.headers['authentication-info']).toMatch(/^nextnonce="[^"]+"$/);
      expectRejected((await answer(legacy, { override: { qop: 'auth', nc: '00000001', cnonce: '"c"' } })).res, route, 'offered no qop');
    });
  });
});
