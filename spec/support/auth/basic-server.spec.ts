import { describe, expect, it } from '@jest/globals';
import { useTestServer } from '../use-test-server.js';
import { basicRoute } from './basic-route.js';
import { rawSend } from './raw-send.js';

const basic = (userPass: string): string => `Basic ${Buffer.from(userPass, 'utf8').toString('base64')}`;

describe('basicRoute (RFC 7617)', () => {
  const holder = useTestServer();

  it('challenges a request without credentials', async () => {
    const route = basicRoute(holder.server, { user: 'alice', password: 'secret' });
    const res = await rawSend(holder.server, { target: '/basic' });
    expect(res.status).toBe(401);
    expect(res.lines('www-authenticate')).toEqual(['Basic realm="basic-realm"']);
    expect(res.body).toBe('Unauthorized');
    expect([route.challenges, route.rejected, route.authorized, route.requests.length]).toEqual([1, 0, 0, 1]);
    expect(route.lastAuthorization).toBeUndefined();
  });

  it('answers the right credentials with ok-text on every default method, over HTTP and HTTPS', async () => {
    const route = basicRoute(holder.server, { user: 'alice', password: 'secret' });
    for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
      for (const secure of [false, true]) {
        const res = await rawSend(holder.server, { method, secure, target: '/basic?x=1', headers: { Authorization: basic('alice:secret') } });
        expect([method, res.status, res.headers['content-type'], res.body]).toEqual([method, 200, 'text/plain; charset=utf-8', 'ok-text']);
      }
    }
    const head = await rawSend(holder.server, { method: 'HEAD', target: '/basic', headers: { Authorization: basic('alice:secret') } });
    expect([head.status, head.body]).toEqual([200, '']);
    expect([route.authorized, route.challenges]).toEqual([13, 0]);
  });

  it('decodes UTF-8 and splits at the first colon only', async () => {
    basicRoute(holder.server, { path: '/u', realm: 'Ünïcode "realm"', user: 'Jäsøn', password: 'p:a:ss wörd' });
    const ok = await rawSend(holder.server, { target: '/u', headers: { Authorization: basic('Jäsøn:p:a:ss wörd') } });
    expect(ok.status).toBe(200);
    const challenge = await rawSend(holder.server, { target: '/u' });
    // the realm is sent as UTF-8 bytes in a quoted-string, its quotes escaped
    expect(Buffer.from(challenge.lines('www-authenticate')[0], 'latin1').toString('utf8')).toBe('Basic realm="Ünïcode \\"realm\\""');
  });

  it('accepts the scheme name in any case (RFC 7235 §2.1)', async () => {
    basicRoute(holder.server, { user: 'a', password: 'b' });
    const res = await rawSend(holder.server, { target: '/basic', headers: { Authorization: `bAsIc ${Buffer.from('a:b').toString('base64')}` } });
    expect(res.status).toBe(200);
  });

  it.each([
    ['a wrong password', basic('alice:wrong'), 'wrong password'],
    ['a wrong user', basic('bob:secret'), 'unknown user'],
    ['no colon', basic('alicesecret'), 'no ":"'],
    ['Latin-1 instead of UTF-8', `Basic ${Buffer.from('alice:sécret', 'latin1').toString('base64')}`, 'not UTF-8'],
    ['unpadded base64', basic('alice:secret1').replace(/=+$/, ''), 'not padded base64'],
    ['another scheme', 'Bearer abc', 'scheme Bearer'],
    ['parameters instead of token68', 'Basic user="alice"', 'not padded base64'],
    ['a bare scheme', 'Basic', 'not padded base64'],
  ])('rejects %s with a new challenge', async (_, authorization, reason) => {
    const route = basicRoute(holder.server, { user: 'alice', password: 'secret' });
    const res = await rawSend(holder.server, { target: '/basic', headers: { Authorization: authorization } });
    expect(res.status).toBe(401);
    expect(res.lines('www-authenticate')).toEqual(['Basic realm="basic-realm"']);
    expect([route.challenges, route.rejected, route.authorized]).toEqual([1, 1, 0]);
    expect(route.rejections[0]).toContain(reason);
    expect(route.rejections[0]).not.toContain('secret');
  });

  it('rejects two Authorization headers even if one is right', async () => {
    const route = basicRoute(holder.server, { user: 'alice', password: 'secret' });
    const res = await rawSend(holder.server, { target: '/basic', headers: { Authorization: [basic('alice:secret'), basic('alice:secret')] } });
    expect(res.status).toBe(401);
    expect(route.rejections).toEqual(['2 Authorization headers']);
  });

  it('serves only the listed methods, on its own path and realm', async () => {
    const route = basicRoute(holder.server, { path: '/p', realm: 'r', user: 'u', password: 'p', methods: ['GET'] });
    expect((await rawSend(holder.server, { target: '/p' })).lines('www-authenticate')).toEqual(['Basic realm="r"']);
    expect((await rawSend(holder.server, { method: 'POST', target: '/p' })).status).toBe(404);
    expect((await rawSend(holder.server, { target: '/basic' })).status).toBe(404);
    expect(route.requests.map((r) => r.method)).toEqual(['GET']);
  });
});
