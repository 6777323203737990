// nock 14 and the five backends. nock 14 is built on @mswjs/interceptors: it patches node's
// http/https `request`/`get` and `ClientRequest` (and the global `fetch`). The native, axios and
// got backends send through node:http/https, so nock answers them; the fetch and undici backends
// send through their own undici Agents (undici's fetch, undici's Dispatcher), which nock never
// sees: there MockBackend (httpbuilder-ts/testing) is the backend to test with. No test contacts
// the internet: every connection that nock lets through goes to 127.0.0.1 (a port nothing listens
// on), through a `client.connection.lookup` that also records which requests really connected.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { gzipSync } from 'node:zlib';
import { fetch as undiciFetch, getGlobalDispatcher, MockAgent, request as undiciRequest, setGlobalDispatcher } from 'undici';
import { ConfigError, HttpBuilder, NetworkError, TimeoutError, withResponse, type BackendChoice, type HttpConfig } from '../../lib/index.js';
import { MockBackend } from '../../lib/testing.js';
import { closedPort } from '../support/closed-port.js';

const HOST = 'api.example.test';
const SCHEMES = ['http', 'https'] as const;
/** The backends nock answers: they send through node's http/https. */
const INTERCEPTED = ['native', 'axios', 'got'] as const;
/** The backends nock never sees: they send through undici Agents of their own. */
const NOT_INTERCEPTED = ['fetch', 'undici'] as const;
/** nock sends a string reply without a Content-Type (our pipeline then gives bytes): named where the text matters. */
const TEXT = { 'Content-Type': 'text/plain' };

/** The hostnames our clients really resolved (so really connected to): empty when nock answered. */
const resolved: string[] = [];
/** Every name resolves to 127.0.0.1: a request nock lets through never leaves the machine. */
function loopback(hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void): void {
  resolved.push(hostname);
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
}

const open: HttpBuilder[] = [];
function clientOf(backend: BackendChoice, origin: string, block?: (c: HttpConfig) => void): HttpBuilder {
  const http = HttpBuilder.configure((c) => {
    c.request.uri = origin;
    c.client.backend = backend;
    c.client.connection = { lookup: loopback };
    block?.(c);
  });
  open.push(http);
  return http;
}

const path = (p: string) => (c: HttpConfig) => void (c.request.uri.path = p);
const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );
/** A connection reset as nock 14 must be given it: an Error (a plain object never reaches the client, see below). */
const reset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });

let port: number;

beforeAll(async () => {
  // nock activates itself on import; activate() throws when it is active already
  if (!nock.isActive()) nock.activate();
  nock.disableNetConnect();
  port = await closedPort();
});

afterEach(async () => {
  await Promise.all(open.splice(0).map((http) => http.close()));
  nock.abortPendingRequests(); // delayed replies' timers
  nock.cleanAll();
  nock.disableNetConnect();
  resolved.length = 0;
});

afterAll(() => {
  // leave node's http/https as they were for the next test file in this worker
  nock.cleanAll();
  nock.enableNetConnect();
  nock.restore();
  expect(nock.isActive()).toBe(false);
});

describe.each(INTERCEPTED)('nock intercepts the %s backend', (backend) => {
  describe.each(SCHEMES)('%s', (scheme) => {
    const origin = `${scheme}://${HOST}`;

    it('a GET gets the JSON reply; matchHeader sees our headers, in any case', async () => {
      const scope = nock(origin)
        .get('/users/1')
        .matchHeader('user-agent', /^httpbuilder-ts\//)
        .matchHeader('accept', '*/*')
        .matchHeader('X-API-KEY', 'k-1') // nock compares header names in any case
        .reply(200, { id: 1, name: 'Ada' });
      const user = await clientOf(backend, origin).get((c) => {
        c.request.uri.path = '/users/1';
        c.request.headers['X-Api-Key'] = 'k-1';
      });
      expect(user).toEqual({ id: 1, name: 'Ada' });
      expect(scope.isDone()).toBe(true);
      expect(resolved).toEqual([]); // nothing resolved, nothing connected
    });

    it("a POST's JSON body is matched by nock's body matcher", async () => {
      const scope = nock(origin)
        .post('/users', { name: 'Grace', tags: ['navy'] })
        .matchHeader('content-type', /^application\/json/)
        .reply(201, (_uri, body) => ({ id: 2, received: body }));
      const created = await clientOf(backend, origin).post((c) => {
        c.request.uri.path = '/users';
        c.request.contentType = 'application/json';
        c.request.body = { name: 'Grace', tags: ['navy'] };
      });
      expect(created).toEqual({ id: 2, received: { name: 'Grace', tags: ['navy'] } });
      expect(scope.isDone()).toBe(true);
    });

    it("reply headers: a gzip body is decoded by our pipeline, a Set-Cookie goes to the jar and back, header names keep nock's case", async () => {
      const scope = nock(origin)
        .get('/login')
        .reply(200, gzipSync('signed in'), {
          'Content-Type': 'text/plain',
          'Content-Encoding': 'gzip',
          'Set-Cookie': 'session=abc; Path=/',
          'X-Request-Id': 'r-1',
        })
        .get('/me')
        .matchHeader('cookie', 'session=abc')
        .reply(200, { me: 'ada' });
      const http = clientOf(backend, origin, (c) => void (c.client.cookies = true));
      const login = await http.get(withResponse(), path('/login'));
      expect(login.body).toBe('signed in');
      expect(login.headers.get('set-cookie')).toBe('session=abc; Path=/');
      expect(login.headers.get('x-request-id')).toBe('r-1'); // looked up in any case
      expect([...login.headers].map(([name]) => name)).toContain('X-Request-Id'); // listed as nock gave it
      expect(await http.get(path('/me'))).toEqual({ me: 'ada' });
      expect(scope.isDone()).toBe(true);
    });

    it("replyWithError(an Error with code 'ECONNRESET') is our NetworkError 'reset'", async () => {
      const scope = nock(origin).post('/orders').replyWithError(reset());
      const error = await failure(clientOf(backend, origin).post(path('/orders')));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ reason: 'reset', cause: { code: 'ECONNRESET' } });
      expect(scope.isDone()).toBe(true);
    });

    it('a GET that is reset is not sent again unless execution.retry says so: then register one interceptor per attempt', async () => {
      const scope = nock(origin).get('/flaky').replyWithError(reset()).get('/flaky').reply(200, { ok: true });
      await expect(clientOf(backend, origin).get(path('/flaky'))).rejects.toMatchObject({ name: 'NetworkError', reason: 'reset' });
      expect(scope.pendingMocks()).toEqual([`GET ${origin}:${scheme === 'https' ? 443 : 80}/flaky`]); // the 200 is left over
      nock.cleanAll();

      const retried = nock(origin).get('/flaky').replyWithError(reset()).get('/flaky').reply(200, { ok: true });
      const http = clientOf(backend, origin, (c) => void (c.execution.retry = { limit: 1, backoff: () => 0 }));
      expect(await http.get(path('/flaky'))).toEqual({ ok: true });
      expect(retried.isDone()).toBe(true);
    });

    it("replyWithError({ code: 'ECONNRESET' }) (a plain object, as nock's README shows) never reaches the client: the request hangs until our response timeout", async () => {
      const scope = nock(origin).post('/orders').replyWithError({ code: 'ECONNRESET', message: 'socket hang up' });
      const error = await failure(clientOf(backend, origin, (c) => void (c.execution.timeout = { response: 150 })).post(path('/orders')));
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error).toMatchObject({ phase: 'response' });
      expect(scope.isDone()).toBe(true);
    });

    it('.delay() longer than execution.timeout.response is our TimeoutError', async () => {
      const scope = nock(origin).get('/slow').delay(1_000).reply(200, 'late');
      const started = Date.now();
      const error = await failure(clientOf(backend, origin, (c) => void (c.execution.timeout = { response: 100 })).get(path('/slow')));
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error).toMatchObject({ phase: 'response' });
      expect(Date.now() - started).toBeLessThan(900);
      expect(scope.isDone()).toBe(true);
    });

    it('a 302 is followed by our pipeline (the library under the backend does not follow it)', async () => {
      const scope = nock(origin).get('/old').reply(302, '', { Location: '/new' }).get('/new').reply(200, { moved: true });
      expect(await clientOf(backend, origin).get(path('/old'))).toEqual({ moved: true });
      expect(scope.isDone()).toBe(true);

      // redirects off: the 302 is the answer, /new is never asked for
      const unfollowed = nock(origin).get('/old').reply(302, '', { Location: '/new' }).get('/new').reply(200, { moved: true });
      const response = await clientOf(backend, origin, (c) => void (c.execution.redirects = { follow: false })).get(withResponse(), path('/old'));
      expect(response).toMatchObject({ statusCode: 302 });
      expect(response.headers.get('location')).toBe('/new');
      expect(unfollowed.isDone()).toBe(false);
      expect(unfollowed.pendingMocks()).toEqual([`GET ${origin}:${scheme === 'https' ? 443 : 80}/new`]);
    });

    it("a request nock has no match for is a NetworkError 'other' (cause: nock's error); with no scope for the host at all, nock's NetConnectNotAllowedError", async () => {
      nock(origin).get('/users/1').reply(200, {});
      const unmatched = await failure(clientOf(backend, origin).get(path('/users/2')));
      expect(unmatched).toBeInstanceOf(NetworkError);
      expect(unmatched).toMatchObject({ reason: 'other', cause: { code: 'ERR_NOCK_NO_MATCH' } });
      expect((unmatched as Error).message).toMatch(/^Nock: No match for request/);

      const elsewhere = await failure(clientOf(backend, `${scheme}://other.example.test`).get(path('/x')));
      expect(elsewhere).toBeInstanceOf(NetworkError);
      expect(elsewhere).toMatchObject({ reason: 'other', cause: { code: 'ENETUNREACH' } });
      expect((elsewhere as Error).message).toMatch(/^Nock: Disallowed net connect for "other\.example\.test:(80|443)\/x"/);
      expect(resolved).toEqual([]);
    });
  });
});

describe.each(NOT_INTERCEPTED)('nock does not intercept the %s backend', (backend) => {
  it.each(SCHEMES)(
    '%s: with a scope for that very origin and net connect disabled, the request goes to the network (refused by the closed port)',
    async (scheme) => {
      const origin = `${scheme}://${HOST}:${port}`;
      const scope = nock(origin).get('/users/1').reply(200, { id: 1 });
      const error = await failure(clientOf(backend, origin).get(path('/users/1')));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ reason: 'refused', cause: { code: 'ECONNREFUSED' } });
      expect(resolved).toEqual([HOST]); // it really resolved the name and connected
      expect(scope.isDone()).toBe(false);
      expect(nock.pendingMocks()).toEqual([`GET ${origin}/users/1`]);

      // the same scope answers the native backend: it was not the scope that failed to match
      resolved.length = 0;
      expect(await clientOf('native', origin).get(path('/users/1'))).toEqual({ id: 1 });
      expect(resolved).toEqual([]);
      expect(scope.isDone()).toBe(true);
    },
  );
});

describe("nock 14 and fetch: it patches the global fetch, not the undici package's", () => {
  it('globalThis.fetch is answered by nock; the fetch exported by undici (what the fetch backend calls) is not', async () => {
    const origin = `http://127.0.0.1:${port}`;
    const scope = nock(origin).get('/hello').times(2).reply(200, 'from nock');
    const global = await globalThis.fetch(`${origin}/hello`);
    expect(await global.text()).toBe('from nock');
    await expect(undiciFetch(`${origin}/hello`)).rejects.toMatchObject({ message: 'fetch failed', cause: { code: 'ECONNREFUSED' } });
    expect(scope.pendingMocks()).toEqual([`GET ${origin}/hello`]); // one of the two used
  });
});

describe('what to use for the fetch and undici backends', () => {
  it("MockBackend in place of 'fetch' or 'undici': the same scenarios over http and https, the pipeline above it for real, nothing connected", async () => {
    // the application's client factory takes its backend as a parameter: production keeps its choice, a test passes a MockBackend
    const makeClient = (backend: BackendChoice = 'undici') =>
      HttpBuilder.configure((c) => {
        c.request.uri = `https://${HOST}`;
        c.client.backend = backend;
        c.client.cookies = true;
        c.client.connection = { lookup: loopback };
      });
    const mock = new MockBackend();
    mock.on('GET', `https://${HOST}/users/1`).reply(200, { id: 1 });
    mock
      .on('POST', '/users')
      .withHeaders({ 'content-type': /^application\/json/ })
      .withBody({ name: 'Grace' })
      .reply(201, { id: 2 });
    mock.on('GET', '/old').reply(302, undefined, { location: `http://${HOST}/login` });
    mock.on('GET', `http://${HOST}/login`).reply(200, gzipSync('signed in'), { ...TEXT, 'content-encoding': 'gzip', 'set-cookie': 'session=abc; Path=/' });
    mock.on('GET', `http://${HOST}/me`).withHeaders({ cookie: 'session=abc' }).reply(200, { me: 'ada' });
    mock.on('POST', '/orders').fail('reset');
    mock.on('GET', '/slow').delay(1_000).reply(200, 'late');
    const http = makeClient(mock);
    open.push(http);

    expect(await http.get(path('/users/1'))).toEqual({ id: 1 });
    const created = await http.post((c) => {
      c.request.uri.path = '/users';
      c.request.contentType = 'application/json';
      c.request.body = { name: 'Grace' };
    });
    expect(created).toEqual({ id: 2 });
    expect(await http.get(path('/old'))).toBe('signed in'); // https -> http redirect, gzip decoded, cookie stored
    expect(await http.get((c) => void (c.request.uri = `http://${HOST}/me`))).toEqual({ me: 'ada' });
    await expect(http.post(path('/orders'))).rejects.toMatchObject({ name: 'NetworkError', reason: 'reset' });
    const slow = http.get((c) => {
      c.request.uri.path = '/slow';
      c.execution.timeout = { response: 50 };
    });
    await expect(slow).rejects.toMatchObject({ name: 'TimeoutError', phase: 'response' });
    mock.assertDone();
    expect(mock.calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      `GET https://${HOST}/users/1`,
      `POST https://${HOST}/users`,
      `GET https://${HOST}/old`,
      `GET http://${HOST}/login`,
      `GET http://${HOST}/me`,
      `POST https://${HOST}/orders`,
      `GET https://${HOST}/slow`,
    ]);
    expect(resolved).toEqual([]); // it is the backend: nothing resolved, nothing connected (nock saw nothing either)
  });

  it("undici's MockAgent as the global dispatcher does not reach the fetch and undici backends (each client has its own Agents); undici's own fetch and request it does answer", async () => {
    const origin = `http://${HOST}:${port}`;
    const previous = getGlobalDispatcher();
    const mockAgent = new MockAgent();
    mockAgent.disableNetConnect();
    mockAgent.get(origin).intercept({ path: '/users/1', method: 'GET' }).reply(200, { id: 1 }).persist();
    setGlobalDispatcher(mockAgent);
    try {
      // the control: undici's own API on the global dispatcher is answered
      expect(await (await undiciFetch(`${origin}/users/1`)).json()).toEqual({ id: 1 });
      expect(await (await undiciRequest(`${origin}/users/1`)).body.json()).toEqual({ id: 1 });
      for (const backend of NOT_INTERCEPTED) {
        resolved.length = 0;
        const error = await failure(clientOf(backend, origin).get(path('/users/1')));
        expect(error).toBeInstanceOf(NetworkError);
        expect(error).toMatchObject({ reason: 'refused' }); // to the network, past MockAgent's disableNetConnect
        expect(resolved).toEqual([HOST]);
      }
    } finally {
      setGlobalDispatcher(previous);
      await mockAgent.close();
    }
  });
});

describe('surprises', () => {
  it.each(['native', 'got'] as const)(
    'client.http2 with the %s backend: https goes to the network (ALPN on a TLS socket nock never sees); http stays HTTP/1.1 and is intercepted',
    async (backend) => {
      const secure = `https://${HOST}:${port}`;
      const plain = `http://${HOST}:${port}`;
      const scope = nock(secure).get('/x').reply(200, 'h2?');
      nock(plain).get('/x').reply(200, 'plain', TEXT);
      const http2 = (origin: string) => clientOf(backend, origin, (c) => void (c.client.http2 = true));
      const error = await failure(http2(secure).get(path('/x')));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ reason: 'refused' });
      expect(resolved).toEqual([HOST]);
      expect(scope.isDone()).toBe(false);
      resolved.length = 0;
      expect(await http2(plain).get(path('/x'))).toBe('plain');
      expect(resolved).toEqual([]);
    },
  );

  it('client.http2 with the axios backend is a ConfigError, nock or not', () => {
    expect(() => clientOf('axios', `https://${HOST}`, (c) => void (c.client.http2 = true))).toThrow(ConfigError);
  });

  describe.each(INTERCEPTED)('client.proxy with the %s backend', (backend) => {
    it('an https target: nock answers for the target as if there were no proxy (the proxy, a closed port, is never contacted)', async () => {
      const target = nock(`https://${HOST}`).get('/x').reply(200, 'from the target scope', TEXT);
      const proxyScope = nock(`http://127.0.0.1:${port}`).get(/.*/).reply(200, 'from the proxy scope', TEXT);
      const http = clientOf(backend, `https://${HOST}`, (c) => void (c.client.proxy = `http://127.0.0.1:${port}`));
      expect(await http.get(path('/x'))).toBe('from the target scope');
      expect(target.isDone()).toBe(true);
      expect(proxyScope.isDone()).toBe(false);
      expect(resolved).toEqual([]);
    });

    it("an http target (absolute form to the proxy): fails before any matching, NetworkError 'other' from the interceptor's 'Invalid URL'", async () => {
      const target = nock(`http://${HOST}`).get('/x').reply(200, 'from the target scope', TEXT);
      const proxyScope = nock(`http://127.0.0.1:${port}`).get(/.*/).reply(200, 'from the proxy scope', TEXT);
      const http = clientOf(backend, `http://${HOST}`, (c) => void (c.client.proxy = `http://127.0.0.1:${port}`));
      const error = await failure(http.get(path('/x')));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ reason: 'other', cause: { message: 'Invalid URL' } });
      expect(target.isDone()).toBe(false);
      expect(proxyScope.isDone()).toBe(false);
    });
  });

  describe.each(NOT_INTERCEPTED)('client.proxy with the %s backend', (backend) => {
    it('an http target: not intercepted, sent to the proxy (refused)', async () => {
      nock(`http://${HOST}`).get('/x').reply(200, 'from the target scope', TEXT);
      const http = clientOf(backend, `http://${HOST}`, (c) => void (c.client.proxy = `http://127.0.0.1:${port}`));
      await expect(http.get(path('/x'))).rejects.toMatchObject({ name: 'NetworkError', reason: 'refused' });
    });

    it("an https target: the CONNECT tunnel is opened with node:http, which nock does patch: it breaks with 'Invalid URL' instead of reaching the proxy", async () => {
      const target = nock(`https://${HOST}`).get('/x').reply(200, 'from the target scope', TEXT);
      const http = clientOf(backend, `https://${HOST}`, (c) => void (c.client.proxy = `http://127.0.0.1:${port}`));
      const error = await failure(http.get(path('/x')));
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as Error).message).toMatch(/Invalid URL/);
      expect(target.isDone()).toBe(false);

      // without nock, the same request reaches the proxy (refused)
      nock.restore();
      try {
        const direct = await failure(clientOf(backend, `https://${HOST}`, (c) => void (c.client.proxy = `http://127.0.0.1:${port}`)).get(path('/x')));
        expect(direct).toMatchObject({ name: 'NetworkError', reason: 'refused' });
      } finally {
        nock.activate();
      }
    });
  });
});
