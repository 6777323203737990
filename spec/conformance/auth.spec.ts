import { expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import { ConfigError, HttpBuilder, HttpException, NetworkError } from '../../lib/index.js';
import { TestServer } from '../support/test-server.js';
import { basicRoute, digestRoute, DIGEST_ALGORITHMS } from '../support/auth/index.js';
import { conformance, VERBS } from './kit.js';

const USER = { user: 'alice', password: 'wonderland' };

conformance('Basic authentication', (kit) => {
  for (const [verb, method] of VERBS) {
    it(`${method} /basic: right credentials after one challenge, wrong ones rejected after one try`, async () => {
      const route = basicRoute(kit.server, { ...USER, methods: [method] });
      const right = kit.client((c) => c.request.auth.basic('alice', 'wonderland'));
      expect(await right[verb]((c) => void (c.request.uri.path = '/basic'))).toBe(method === 'HEAD' ? null : 'ok-text');
      const wrong = kit.client((c) => c.request.auth.basic('alice', 'looking-glass'));
      const error = await wrong[verb]((c) => void (c.request.uri.path = '/basic')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpException);
      expect([(error as HttpException).message, (error as HttpException).statusCode]).toEqual(['Unauthorized', 401]);
      // right: challenge + answer; wrong: challenge + one rejected answer
      expect([route.authorized, route.challenges, route.rejected, route.requests.length]).toEqual([1, 3, 1, 4]);
    });
  }

  it('preemptive: the first request already carries the credentials', async () => {
    const route = basicRoute(kit.server, USER);
    await kit.client((c) => c.request.auth.basic('alice', 'wonderland', { preemptive: true })).get((c) => void (c.request.uri.path = '/basic'));
    expect([route.challenges, route.authorized]).toEqual([0, 1]);
  });

  it('once challenged, later requests into the space answer up front', async () => {
    const route = basicRoute(kit.server, USER);
    const client = kit.client((c) => c.request.auth.basic('alice', 'wonderland'));
    for (let i = 0; i < 3; i++) await client.get((c) => void (c.request.uri.path = '/basic'));
    expect([route.challenges, route.authorized]).toEqual([1, 3]);
  });

  it("credentials set in a request block apply to that request only, and replace the client's", async () => {
    const route = basicRoute(kit.server, USER);
    const client = kit.client((c) => c.request.auth.basic('alice', 'looking-glass'));
    expect(
      await client.get((c) => {
        c.request.uri.path = '/basic';
        c.request.auth.basic('alice', 'wonderland');
      }),
    ).toBe('ok-text');
    await expect(kit.client().get((c) => void (c.request.uri.path = '/basic'))).rejects.toMatchObject({ statusCode: 401 });
    expect([route.authorized, route.rejected]).toEqual([1, 0]);
  });

  it('preemptive Basic with a wrong password: exactly one try', async () => {
    const route = basicRoute(kit.server, USER);
    const error = await kit
      .client((c) => c.request.auth.basic('alice', 'WRONG', { preemptive: true }))
      .get((c) => void (c.request.uri.path = '/basic'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpException);
    expect([route.requests.length, route.rejected]).toEqual([1, 1]);
  });

  it('a space that asked for Basic never gets a Digest password as Basic', async () => {
    basicRoute(kit.server, USER);
    const route = digestRoute(kit.server, USER);
    const client = kit.client();
    await client.get((c) => {
      c.request.uri.path = '/basic';
      c.request.auth.basic('alice', 'wonderland');
    });
    expect(
      await client.get((c) => {
        c.request.uri.path = '/digest';
        c.request.auth.digest('alice', 'wonderland');
      }),
    ).toBe('ok-text');
    expect(route.requests.map((r) => String(r.headers.authorization ?? '').split(' ')[0])).toEqual(['', 'Digest']);
  });

  it('an interceptor that moves the request to another origin takes the credentials out of reach', async () => {
    const other = await TestServer.start();
    try {
      other.expect({ method: 'GET', path: '/elsewhere', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'moved' } });
      const target = `${other.url(kit.secure)}/elsewhere`;
      const client = HttpBuilder.configure((c) => {
        c.request.uri = kit.server.url(kit.secure);
        c.client.backend = kit.backend === 'native' ? 'native' : (kit.backend as 'axios' | 'got' | 'fetch');
        c.execution.tls = { ca: kit.server.ca };
        c.request.auth.basic('alice', 'wonderland', { preemptive: true });
        c.execution.interceptor('GET', (request, next) => next({ ...request, url: target }));
      });
      try {
        expect(await client.get()).toBe('moved');
      } finally {
        await client.close();
      }
      expect(other.requests[0].headers.authorization).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it("client credentials without a client URI go with each request's URL", async () => {
    const route = basicRoute(kit.server, USER);
    const client = HttpBuilder.configure((c) => {
      c.client.backend = kit.backend === 'native' ? 'native' : (kit.backend as 'axios' | 'got' | 'fetch');
      c.execution.tls = { ca: kit.server.ca };
      c.request.auth.basic('alice', 'wonderland', { preemptive: true });
    });
    try {
      expect(await client.get((c) => void (c.request.uri = `${kit.server.url(kit.secure)}/basic`))).toBe('ok-text');
    } finally {
      await client.close();
    }
    expect(route.challenges).toBe(0);
  });

  it('credentials in the URL are Basic credentials', async () => {
    const route = basicRoute(kit.server, USER);
    const origin = new URL(kit.server.url(kit.secure));
    expect(await kit.client().get((c) => void (c.request.uri = `${origin.protocol}//alice:wonderland@${origin.host}/basic`))).toBe('ok-text');
    expect(route.authorized).toBe(1);
  });

  it('a one-shot stream body cannot answer a challenge (ConfigError); preemptive sends it', async () => {
    basicRoute(kit.server, USER);
    const lazy = kit.client((c) => c.request.auth.basic('alice', 'wonderland'));
    const error = await lazy
      .post((c) => Object.assign(c.request, { uri: kit.server.url(kit.secure) + '/basic', body: Readable.from([Buffer.from('once')]) }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/stream that cannot be sent again.*preemptive/);
    const eager = kit.client((c) => c.request.auth.basic('alice', 'wonderland', { preemptive: true }));
    expect(await eager.post((c) => Object.assign(c.request, { uri: kit.server.url(kit.secure) + '/basic', body: Readable.from([Buffer.from('once')]) }))).toBe(
      'ok-text',
    );
  });
});

conformance('Digest authentication', (kit) => {
  const digest = (options: Partial<Parameters<typeof digestRoute>[1]> = {}) => digestRoute(kit.server, { ...USER, ...options });
  const client = (password = 'wonderland') => kit.client((c) => c.request.auth.digest('alice', password));

  for (const [verb, method] of VERBS) {
    it(`${method} /digest: right credentials after one challenge, wrong ones rejected after one try`, async () => {
      const route = digest({ methods: [method] });
      expect(await client()[verb]((c) => void (c.request.uri.path = '/digest'))).toBe(method === 'HEAD' ? null : 'ok-text');
      await expect(client('looking-glass')[verb]((c) => void (c.request.uri.path = '/digest'))).rejects.toMatchObject({
        message: 'Unauthorized',
        statusCode: 401,
      });
      expect([route.authorized, route.challenges, route.rejected, route.requests.length]).toEqual([1, 3, 1, 4]);
      expect(route.lastAuthorization).toMatchObject({ username: 'alice', uri: '/digest', qop: 'auth', nc: '00000001', algorithm: 'MD5' });
    });
  }

  for (const algorithm of DIGEST_ALGORITHMS) {
    it(`algorithm ${algorithm}`, async () => {
      const route = digest({ algorithm });
      expect(await client().get((c) => void (c.request.uri.path = '/digest'))).toBe('ok-text');
      expect(route.lastAuthorization?.algorithm).toBe(algorithm);
    });
  }

  it('ten requests in a row: one challenge, nc 00000001 to 0000000a on one nonce', async () => {
    const route = digest({ nextnonce: false });
    const http = client();
    for (let i = 0; i < 10; i++) await http.get((c) => void (c.request.uri.path = '/digest'));
    expect([route.challenges, route.authorized]).toEqual([1, 10]);
    expect(route.ncSeen.map((seen) => seen.nc)).toEqual(Array.from({ length: 10 }, (_, i) => (i + 1).toString(16).padStart(8, '0')));
  });

  it('concurrent requests on one nonce never share an nc', async () => {
    const route = digest({ nextnonce: false });
    const http = client();
    await http.get((c) => void (c.request.uri.path = '/digest'));
    await Promise.all(Array.from({ length: 8 }, () => http.get((c) => void (c.request.uri.path = '/digest'))));
    expect(new Set(route.ncSeen.map((seen) => `${seen.nonce}/${seen.nc}`)).size).toBe(9);
    expect([route.challenges, route.authorized]).toEqual([1, 9]);
  });

  it('Authentication-Info nextnonce is used for the next request', async () => {
    const route = digest();
    const http = client();
    for (let i = 0; i < 3; i++) await http.get((c) => void (c.request.uri.path = '/digest'));
    const used = route.ncSeen.map((seen) => seen.nonce);
    expect(used[1]).toBe(route.issuedNonces[1]); // the nextnonce of the first success
    expect(route.ncSeen.map((seen) => seen.nc)).toEqual(['00000001', '00000001', '00000001']);
    expect(route.challenges).toBe(1);
  });

  it('uri is the request-target with its query', async () => {
    const route = digest();
    await client().get((c) => {
      c.request.uri.path = '/digest';
      c.request.uri.query = { a: 'b c', d: ['1', '2'] };
    });
    expect(route.lastAuthorization?.uri).toBe('/digest?a=b%20c&d=1&d=2');
    expect(route.authorized).toBe(1);
  });

  it("a query with ' and a non-ASCII realm: what is signed is what is sent", async () => {
    const route = digestRoute(kit.server, { ...USER, realm: 'Café' });
    expect(
      await client().get((c) => {
        c.request.uri.path = '/digest';
        c.request.uri.query = { q: "it's" };
      }),
    ).toBe('ok-text');
    expect(route.lastAuthorization?.uri).toBe('/digest?q=it%27s');
  });

  it('a challenge whose algorithms are all unsupported: HttpException 401 whose cause names the algorithm', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/sha1',
      respond: {
        status: 401,
        headers: { 'WWW-Authenticate': 'Digest realm="r", nonce="n1", algorithm=SHA-1, qop="auth"', 'Content-Type': 'text/plain' },
        body: 'no',
      },
    });
    const error = await kit
      .client((c) => c.request.auth.digest('alice', 'wonderland'))
      .get((c) => void (c.request.uri.path = '/sha1'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpException);
    expect((error as HttpException).statusCode).toBe(401);
    expect(String((error as HttpException).cause)).toMatch(/algorithm SHA-1/);
    expect(kit.server.requests).toHaveLength(1);
  });

  it('the strongest of several Digest challenges is answered', async () => {
    const route = digest({ algorithm: 'MD5', challenges: ['Digest realm="digest-realm", nonce="sha256nonce", algorithm=SHA-256, qop="auth"'] });
    await client().get((c) => void (c.request.uri.path = '/digest'));
    expect(route.lastAuthorization?.algorithm).toBe('SHA-256');
  });

  it('qop auth-int, when it is the only one offered, hashes the body', async () => {
    const route = digest({ qop: 'auth-int', methods: ['POST'] });
    const result = await client().post((c) => {
      c.request.uri.path = '/digest';
      c.request.contentType = 'application/json';
      c.request.body = { alpha: 'bravo' };
    });
    expect(result).toBe('ok-text');
    expect(route.lastAuthorization?.qop).toBe('auth-int');
  });

  it('userhash, and username* for a non-ASCII user name', async () => {
    const hashed = digest({ userhash: true });
    await client().get((c) => void (c.request.uri.path = '/digest'));
    expect(hashed.lastAuthorization?.userhash).toBe('true');
    kit.server.reset();
    const route = digestRoute(kit.server, { user: 'Jäsøn', password: 'pw' });
    expect(await kit.client((c) => c.request.auth.digest('Jäsøn', 'pw')).get((c) => void (c.request.uri.path = '/digest'))).toBe('ok-text');
    expect(route.lastAuthorization?.['username*']).toBe("UTF-8''J%C3%A4s%C3%B8n");
  });

  it('stale=true is answered once with the new nonce, without a failure', async () => {
    const route = digest({ stale: 'once' });
    expect(await client().get((c) => void (c.request.uri.path = '/digest'))).toBe('ok-text');
    expect([route.challenges, route.authorized]).toEqual([2, 1]);
  });

  it('a server that always says stale=true: one try plus one stale retry, also once the space is known', async () => {
    const route = digest({ stale: 'always' });
    const http = client();
    const triesOf = async () => {
      const before = route.requests.length;
      await expect(http.get((c) => void (c.request.uri.path = '/digest'))).rejects.toMatchObject({ statusCode: 401 });
      return route.requests.slice(before).map((r) => (r.headers.authorization === undefined ? 'none' : 'digest'));
    };
    expect(await triesOf()).toEqual(['none', 'digest', 'digest']);
    // answered up front: that answer's 401 is the stale allowance, so one fresh answer follows
    expect(await triesOf()).toEqual(['digest', 'digest']);
    expect(route.authorized).toBe(0);
  });

  it('a wrong rspauth rejects: the answer did not come from a server that knows the password', async () => {
    digest({ badRspauth: true });
    const error = await client()
      .get((c) => void (c.request.uri.path = '/digest'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(/rspauth/);
  });

  it('a wrong rspauth is final: a retry policy does not hand the impostor more answers, nor repeat a POST', async () => {
    const route = digest({ badRspauth: true });
    const http = kit.client((c) => {
      c.request.auth.digest('alice', 'wonderland');
      c.execution.retry = { limit: 3, methods: ['GET', 'POST'], backoff: () => 1 };
    });
    for (const verb of ['get', 'post'] as const) {
      const error = await http[verb]((c) => void (c.request.uri.path = '/digest')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect([(error as NetworkError).reason, (error as Error).message]).toEqual(['other', expect.stringMatching(/rspauth mismatch/)]);
    }
    // GET: challenge + one answer; POST: its one answer up front
    expect([route.challenges, route.authorized, route.requests.map((r) => r.method)]).toEqual([1, 2, ['GET', 'GET', 'POST']]);
  });
});
