import { describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import { ConfigError, HttpException, type BearerRefresh, type BearerToken, type ConfigBlock, type HttpConfig } from '../../lib/index.js';
import { writeResponse } from '../support/response-writer.js';
import type { RecordedRequest, ResponseSpec } from '../support/test-server.js';
import { conformance } from './kit.js';

const OK = { headers: { 'Content-Type': 'text/plain' }, body: 'ok' };
const DENIED = { status: 401, headers: { 'Content-Type': 'text/plain', 'WWW-Authenticate': 'Bearer error="invalid_token"' }, body: 'expired' };

/** Answers `ok` to `Bearer <valid>`, 401 otherwise. */
function onlyFor(valid: string): (req: RecordedRequest) => ResponseSpec {
  return (req: RecordedRequest) => (req.headers.authorization === `Bearer ${valid}` ? OK : DENIED);
}

conformance('bearer tokens (auth.bearer)', (kit) => {
  const expectRoute = (method: string, path: string, respond: (req: RecordedRequest) => ResponseSpec) =>
    kit.server.expect({ method, path, respond: (req, res) => writeResponse(res, respond(req)) });
  const authorizations = () => kit.server.requests.map((r) => r.headers.authorization);

  it('a string token goes with every request, whatever the verb', async () => {
    expectRoute('GET', '/me', onlyFor('t-1'));
    expectRoute('POST', '/me', onlyFor('t-1'));
    const client = kit.client((c) => c.request.auth.bearer('t-1'));
    expect(await client.get((c) => void (c.request.uri.path = '/me'))).toBe('ok');
    expect(await client.post((c) => Object.assign(c.request, { body: 'x' }) && void (c.request.uri.path = '/me'))).toBe('ok');
    expect(authorizations()).toEqual(['Bearer t-1', 'Bearer t-1']);
  });

  it('a token function (sync or async) is asked once per request', async () => {
    expectRoute('GET', '/me', () => OK);
    let asked = 0;
    const client = kit.client((c) => c.request.auth.bearer(() => Promise.resolve(`t-${++asked}`)));
    for (let i = 0; i < 3; i++) await client.get((c) => void (c.request.uri.path = '/me'));
    expect(authorizations()).toEqual(['Bearer t-1', 'Bearer t-2', 'Bearer t-3']);
    await kit.client((c) => c.request.auth.bearer(() => 'sync')).get((c) => void (c.request.uri.path = '/me'));
    expect(authorizations().at(-1)).toBe('Bearer sync');
  });

  it('a 401 is answered once with the refreshed token, which later requests then use', async () => {
    expectRoute('GET', '/me', onlyFor('fresh'));
    let refreshes = 0;
    const client = kit.client((c) => c.request.auth.bearer('stale', { refresh: () => (refreshes++, 'fresh') }));
    expect(await client.get((c) => void (c.request.uri.path = '/me'))).toBe('ok');
    expect(await client.get((c) => void (c.request.uri.path = '/me'))).toBe('ok');
    expect(refreshes).toBe(1);
    expect(authorizations()).toEqual(['Bearer stale', 'Bearer fresh', 'Bearer fresh']);
  });

  it('8 concurrent requests that get a 401 share exactly one refresh', async () => {
    expectRoute('GET', '/me', onlyFor('fresh'));
    let refreshes = 0;
    const client = kit.client((c) =>
      c.request.auth.bearer('stale', {
        refresh: async () => {
          refreshes++;
          await new Promise((resolve) => setTimeout(resolve, 30)); // the other 401s arrive while it runs
          return 'fresh';
        },
      }),
    );
    const results = await Promise.all(Array.from({ length: 8 }, () => client.get((c) => void (c.request.uri.path = '/me'))));
    expect(results).toEqual(Array(8).fill('ok'));
    expect(refreshes).toBe(1);
    expect(authorizations().filter((a) => a === 'Bearer stale')).toHaveLength(8);
    expect(authorizations().filter((a) => a === 'Bearer fresh')).toHaveLength(8);
  });

  describe('two users on one client, sharing one refresh function', () => {
    /** Answers the name of the user a valid token belongs to; 401 to any other token. */
    function whoAmI(valid: Record<string, string>): (req: RecordedRequest) => ResponseSpec {
      return (req) => {
        const token = /^Bearer (\S+)$/.exec(String(req.headers.authorization))?.[1];
        return token !== undefined && Object.hasOwn(valid, token) ? { ...OK, body: valid[token] } : DENIED;
      };
    }
    const meAs = (token: BearerToken, refresh: BearerRefresh) => (c: HttpConfig) => {
      c.request.uri.path = '/me';
      c.request.auth.bearer(token, { refresh });
    };

    it("after A's token is refreshed, B's next request still goes out with B's own token", async () => {
      expectRoute('GET', '/me', whoAmI({ 'a-2': 'A', 'b-1': 'B' }));
      let refreshes = 0;
      const refresh = () => (refreshes++, 'a-2'); // only A's token has expired
      const client = kit.client((c) => c.request.auth.bearer('a-1', { refresh })); // the client's user is A
      const me = (c: HttpConfig) => void (c.request.uri.path = '/me');
      expect(await client.get(me)).toBe('A');
      expect(await client.get(meAs('b-1', refresh))).toBe('B');
      expect(await client.get(me)).toBe('A');
      expect(await client.get(meAs('b-1', refresh))).toBe('B');
      expect(refreshes).toBe(1);
      expect(authorizations()).toEqual(['Bearer a-1', 'Bearer a-2', 'Bearer b-1', 'Bearer a-2', 'Bearer b-1']);
    });

    it("token functions: each request's function gives its user's token, and a refresh replaces only the token it refreshed", async () => {
      expectRoute('GET', '/me', whoAmI({ 'a-2': 'A', 'b-1': 'B', 'b-2': 'B' }));
      const renewed: Record<string, string> = { 'a-1': 'a-2', 'b-1': 'b-2' };
      const refreshed: string[] = [];
      const refresh = (expired: string) => (refreshed.push(expired), renewed[expired]);
      const client = kit.client();
      expect(await client.get(meAs(() => 'a-1', refresh))).toBe('A');
      expect(await client.get(meAs(() => Promise.resolve('b-1'), refresh))).toBe('B');
      expect(await client.get(meAs(() => 'a-1', refresh))).toBe('A'); // A's token, refreshed: sent as a-2 at once
      expect(refreshed).toEqual(['a-1']); // the refresh is told which token expired
      expect(authorizations()).toEqual(['Bearer a-1', 'Bearer a-2', 'Bearer b-1', 'Bearer a-2']);
    });

    it('concurrent 401s share one refresh per expired token, and every request comes back as its own user', async () => {
      expectRoute('GET', '/me', whoAmI({ 'a-2': 'A', 'b-2': 'B' }));
      const refreshed: string[] = [];
      const refresh = async (expired: string) => {
        refreshed.push(expired);
        await new Promise((resolve) => setTimeout(resolve, 30)); // the other 401s arrive while it runs
        return expired === 'a-1' ? 'a-2' : 'b-2';
      };
      const client = kit.client();
      const users = ['a-1', 'b-1', 'a-1', 'b-1', 'a-1', 'b-1', 'a-1', 'b-1'];
      const answers = await Promise.all(users.map((token) => client.get(meAs(token, refresh))));
      expect(answers).toEqual(users.map((token) => (token === 'a-1' ? 'A' : 'B')));
      expect(refreshed.sort()).toEqual(['a-1', 'b-1']);
      expect(authorizations().sort()).toEqual([
        ...Array<string>(4).fill('Bearer a-1'),
        ...Array<string>(4).fill('Bearer a-2'),
        ...Array<string>(4).fill('Bearer b-1'),
        ...Array<string>(4).fill('Bearer b-2'),
      ]);
    });
    describe('a refresh written inline in each request block (a new function per call)', () => {
      const renewals = () => {
        const renewed: string[] = [];
        const sessions = {
          renew: async (expired: string) => {
            renewed.push(expired);
            await new Promise((resolve) => setTimeout(resolve, 30)); // the other 401s arrive while it runs
            return expired === 'a-1' ? 'a-2' : 'b-2';
          },
        };
        const asUser = (token: string) => (c: HttpConfig) => {
          c.request.uri.path = '/me';
          c.request.auth.bearer(token, { refresh: (expired) => sessions.renew(expired) });
        };
        return { renewed, asUser };
      };

      it('three calls one after another refresh the expired token once: the later ones send its replacement at once', async () => {
        expectRoute('GET', '/me', whoAmI({ 'a-2': 'A', 'b-1': 'B' }));
        const { renewed, asUser } = renewals();
        const client = kit.client();
        for (let i = 0; i < 3; i++) expect(await client.get(asUser('a-1'))).toBe('A');
        expect(await client.get(asUser('b-1'))).toBe('B');
        expect(renewed).toEqual(['a-1']);
        expect(authorizations()).toEqual(['Bearer a-1', 'Bearer a-2', 'Bearer a-2', 'Bearer a-2', 'Bearer b-1']);
      });

      it('8 concurrent 401s to one token share one refresh', async () => {
        expectRoute('GET', '/me', whoAmI({ 'a-2': 'A' }));
        const { renewed, asUser } = renewals();
        const client = kit.client();
        const answers = await Promise.all(Array.from({ length: 8 }, () => client.get(asUser('a-1'))));
        expect(answers).toEqual(Array(8).fill('A'));
        expect(renewed).toEqual(['a-1']);
      });
    });
  });

  it('never loops: a 401 to the refreshed token is the answer (HttpException 401), the token in no message', async () => {
    expectRoute('GET', '/me', onlyFor('never'));
    let refreshes = 0;
    const lines: string[] = [];
    const client = kit.client((c) => {
      c.request.auth.bearer('secret-one', { refresh: () => (refreshes++, 'secret-two') });
      c.execution.logger = (line) => void lines.push(line);
    });
    const error = await client.get((c) => void (c.request.uri.path = '/me')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpException);
    expect(error).toMatchObject({ statusCode: 401 });
    expect(kit.server.requests).toHaveLength(2);
    expect(refreshes).toBe(1);
    const shown = [String(error), (error as Error).stack ?? '', ...lines].join('\n');
    expect(shown).not.toMatch(/secret-one|secret-two/);
  });

  it("a streamed body's 401 goes to the handlers: it cannot be sent again", async () => {
    expectRoute('PUT', '/upload', onlyFor('fresh'));
    let refreshes = 0;
    const status = await kit
      .client((c) => c.request.auth.bearer('stale', { refresh: () => (refreshes++, 'fresh') }))
      .put((c) => {
        c.request.uri.path = '/upload';
        c.request.body = Readable.from([Buffer.from('streamed')]);
        c.response.failure((fromServer) => fromServer.statusCode);
      });
    expect([status, refreshes, kit.server.requests.length]).toEqual([401, 0, 1]);
  });

  it('a redirect to another origin drops the token; one on the same origin keeps it', async () => {
    const other = kit.server.url(!kit.secure); // the other listener: another origin
    kit.server.expect({ method: 'GET', path: '/same', respond: { status: 302, headers: { Location: '/me' } } });
    kit.server.expect({ method: 'GET', path: '/away', respond: { status: 302, headers: { Location: `${other}/me` } } });
    expectRoute('GET', '/me', () => OK);
    const client = kit.client((c) => c.request.auth.bearer('t-1'));
    await client.get((c) => void (c.request.uri.path = '/same'));
    await client.get((c) => void (c.request.uri.path = '/away'));
    expect(authorizations()).toEqual(['Bearer t-1', 'Bearer t-1', 'Bearer t-1', undefined]);
  });

  it('a bad token or option is a ConfigError naming it, before anything is sent; the token is never echoed', async () => {
    const configure = (block: ConfigBlock) => () => kit.client(block);
    expect(configure((c) => c.request.auth.bearer('has space'))).toThrow(/auth.bearer\(\): the token must be visible ASCII without spaces/);
    expect(configure((c) => c.request.auth.bearer(''))).toThrow(/it is empty/);
    expect(configure((c) => c.request.auth.bearer(42 as never))).toThrow(ConfigError);
    expect(configure((c) => c.request.auth.bearer('t', { refresh: 'later' as never }))).toThrow(/refresh must be a function/);
    expect(configure((c) => c.request.auth.bearer('t', { refesh: () => 'x' } as never))).toThrow(/unknown option 'refesh'/);
    const error = await kit
      .client((c) => c.request.auth.bearer(() => 'two words'))
      .get()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/the token auth.bearer\(\)'s function gave/);
    expect((error as Error).message).not.toContain('two words');
    expect(kit.server.requests).toHaveLength(0);
  });
});
