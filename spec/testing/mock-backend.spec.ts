// The mock backend of httpbuilder-ts/testing: its matching, replies, failures and bookkeeping,
// with the real pipeline above it.
import { describe, expect, it } from '@jest/globals';
import { gzipSync } from 'node:zlib';
import { ConfigError, HttpBuilder, HttpException, NetworkError, TimeoutError, type ConfigBlock } from '../../lib/index.js';
import { MockBackend, MockUnmatchedError } from '../../lib/testing.js';
import { closedPort } from '../support/closed-port.js';

const ORIGIN = 'https://api.example.com';

function clientOf(mock: MockBackend, block?: ConfigBlock): HttpBuilder {
  return HttpBuilder.configure((c) => {
    c.request.uri = ORIGIN;
    c.client.backend = mock;
    if (block) void block.call(c, c);
  });
}

const path = (p: string) => (c: Parameters<ConfigBlock>[0]) => void (c.request.uri.path = p);

describe('MockBackend: matching', () => {
  it('an absolute URL matches exactly, query included; a path matches any origin; a RegExp tests the full URL', async () => {
    const mock = new MockBackend();
    mock.on('GET', `${ORIGIN}/users/42?full=1`).reply(200, { id: 42 });
    mock.on('get', '/users/7').reply(200, { id: 7 });
    mock.on('GET', /\/teams\/\d+$/).reply(200, { team: true });
    const http = clientOf(mock);
    expect(await http.get((c) => Object.assign(c.request.uri, { path: '/users/42', query: { full: '1' } }))).toEqual({ id: 42 });
    expect(await http.get((c) => void (c.request.uri = 'http://elsewhere.test/users/7'))).toEqual({ id: 7 });
    expect(await http.get(path('/teams/12'))).toEqual({ team: true });
    mock.assertDone();
  });

  it('withHeaders and withBody narrow it; expectations match in the order registered', async () => {
    const mock = new MockBackend();
    mock.on('POST', '/users').withHeaders({ 'X-Team': 'core' }).withBody({ name: 'Ada' }).reply(201, { id: 1 });
    mock
      .on('POST', '/users')
      .withBody((body) => (body as { name?: string }).name === 'Grace')
      .reply(201, { id: 2 });
    mock
      .on('POST', '/users')
      .withHeaders({ 'content-type': /^text\/plain/ })
      .withBody('plain words')
      .reply(201, 'text');
    mock.on('POST', '/users').reply(400, { error: 'no match above' });
    const http = clientOf(mock, (c) => void (c.request.uri.path = '/users'));
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      http.post((c) => {
        c.request.contentType = 'application/json';
        c.request.body = body;
        Object.assign(c.request.headers, headers);
      });
    expect(await post({ name: 'Ada' }, { 'x-team': 'core' })).toEqual({ id: 1 });
    expect(await post({ name: 'Grace' })).toEqual({ id: 2 });
    expect(await http.post((c) => Object.assign(c.request, { contentType: 'text/plain', body: 'plain words' }))).toBe('text');
    await expect(post({ name: 'Ada' })).rejects.toMatchObject({ statusCode: 400 }); // no X-Team: the catch-all
  });

  it('times(n) answers n requests, persist() any number; assertDone names what is unmet', async () => {
    const mock = new MockBackend();
    mock.on('GET', '/twice').times(2).reply(200, 'again');
    mock.on('GET', '/always').persist().reply(204);
    mock.on('DELETE', '/never').reply(204);
    const http = clientOf(mock);
    for (let i = 0; i < 3; i++) expect(await http.get(path('/always'))).toBeNull();
    expect(await http.get(path('/twice'))).toBe('again');
    expect(() => mock.assertDone()).toThrow(/2 expectation\(s\) not met:\n {2}GET \/twice \(answered 1 of 2\)\n {2}DELETE \/never \(answered 0 of 1\)/);
    expect(await http.get(path('/twice'))).toBe('again');
    await expect(http.get(path('/twice'))).rejects.toThrow(/answered all the requests it expects/);
  });

  it('a request nothing matches rejects with ERR_MOCK_UNMATCHED naming it and the closest expectation, with what differed', async () => {
    const mock = new MockBackend();
    mock.on('POST', '/orders').reply(201);
    mock.on('GET', '/users/42').withHeaders({ accept: 'application/json' }).reply(200, {});
    const error = await clientOf(mock)
      .get((c) => void (c.request.uri = 'https://ada:secret@api.example.com/users/43'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MockUnmatchedError);
    expect(error).toMatchObject({ code: 'ERR_MOCK_UNMATCHED' });
    const message = (error as Error).message;
    expect(message).toContain('no expectation for GET https://api.example.com/users/43');
    expect(message).toContain('the closest is GET /users/42 (answered 0 of 1): url /users/43, not /users/42; header accept');
    expect(message).not.toContain('secret');
    expect(mock.calls).toHaveLength(1); // recorded all the same
  });

  it('an unmatched request with none registered says how to register one', async () => {
    await expect(clientOf(new MockBackend()).get()).rejects.toThrow(/none registered: mock.on\(method, url\).reply/);
  });

  it('bad arguments are ConfigErrors naming them', () => {
    const mock = new MockBackend();
    expect(() => mock.on('GET', 'users')).toThrow(ConfigError);
    expect(() => mock.on('G T', '/x')).toThrow(/method must be a word/);
    expect(() => mock.on('GET', '/x').times(0)).toThrow(/times: n must be a whole number/);
    expect(() => mock.on('GET', '/x').delay(-1)).toThrow(/delay: ms/);
    expect(() => mock.on('GET', '/x').fail('gone' as never)).toThrow(/one of refused, dns, reset, tls, other/);
  });
});

describe('MockBackend: replies', () => {
  it('a value goes as JSON, a string as text, bytes as they are; replies carry the standard reason phrase', async () => {
    const mock = new MockBackend();
    mock.on('GET', '/json').reply(200, [1, 2]);
    mock.on('GET', '/text').reply(200, 'hello');
    mock.on('GET', '/bytes').reply(200, Buffer.from([1, 2, 3]));
    mock.on('GET', '/gone').reply(404, { error: 'gone' });
    const http = clientOf(mock);
    expect(await http.get(path('/json'))).toEqual([1, 2]);
    expect(await http.get(path('/text'))).toBe('hello');
    expect(await http.get(path('/bytes'))).toEqual(Buffer.from([1, 2, 3]));
    const error = await http.get(path('/gone')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpException);
    expect(error).toMatchObject({ statusCode: 404, message: 'Not Found', body: { error: 'gone' } });
  });

  it('a reply function sees the request (body bytes, lower-case headers) and answers [status, body, headers]', async () => {
    const mock = new MockBackend();
    mock.on('PUT', /\/users\/\d+$/).reply(async (request) => {
      await Promise.resolve();
      const sent = JSON.parse(request.body.toString()) as { name: string };
      return [200, `${request.method} ${request.target} ${sent.name} ${request.headers['content-type']}`, { 'x-seen': 'yes' }];
    });
    const seen = await clientOf(mock).put((c) => {
      c.request.uri.path = '/users/9';
      c.request.contentType = 'application/json';
      c.request.body = { name: 'Ada' };
      c.response.success((fromServer, body) => `${String(body)} ${fromServer.headers.get('x-seen')}`);
    });
    expect(seen).toBe('PUT /users/9 Ada application/json yes');
  });

  it('a gzip reply is decoded, a Set-Cookie goes to the jar, a redirect is followed, a 401 is answered', async () => {
    const mock = new MockBackend();
    mock.on('GET', '/old').reply(301, undefined, { location: '/new' });
    mock.on('GET', '/new').reply(200, gzipSync('squeezed'), { 'content-type': 'text/plain', 'content-encoding': 'gzip', 'set-cookie': 'session=abc; Path=/' });
    mock
      .on('GET', '/private')
      .withHeaders({ cookie: 'session=abc', authorization: /^Basic / })
      .reply(200, 'in');
    mock.on('GET', '/private').reply(401, undefined, { 'www-authenticate': 'Basic realm="api"' });
    const http = clientOf(mock, (c) => {
      c.client.cookies = true;
      c.request.auth.basic('ada', 'pw');
    });
    expect(await http.get(path('/old'))).toBe('squeezed');
    expect(await http.get(path('/private'))).toBe('in');
    // Basic is not sent up front: the 401 is answered with it
    expect(mock.calls.map((call) => call.target)).toEqual(['/old', '/new', '/private', '/private']);
    expect(mock.calls[3].headers.authorization).toMatch(/^Basic /);
  });

  it('HEAD gets the headers and no body', async () => {
    const mock = new MockBackend();
    mock.on('HEAD', '/doc').reply(200, 'body text');
    const length = await clientOf(mock).head((c) => {
      c.request.uri.path = '/doc';
      c.response.success((fromServer) => fromServer.headers.get('content-length'));
    });
    expect(length).toBe('9');
  });
});

describe('MockBackend: failures, delays, retries', () => {
  it.each(['refused', 'dns', 'reset', 'tls', 'other'] as const)("fail('%s') is a NetworkError with that reason", async (reason) => {
    const mock = new MockBackend();
    mock.on('POST', '/down').fail(reason);
    const error = await clientOf(mock)
      .post(path('/down'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).toMatchObject({ reason });
    expect(mock.calls).toHaveLength(1);
  });

  it("fail('reset') on a GET is final: no silent resend (the mock's connections are never reused ones)", async () => {
    const mock = new MockBackend();
    mock.on('GET', '/reset').persist().fail('reset');
    await expect(clientOf(mock).get(path('/reset'))).rejects.toMatchObject({ name: 'NetworkError', reason: 'reset' });
    expect(mock.calls).toHaveLength(1);
  });

  it('a retry policy sends again after a 503 and after a network failure', async () => {
    const mock = new MockBackend();
    mock.on('GET', '/flaky').reply(503, 'busy', { 'retry-after': '0' });
    mock.on('GET', '/flaky').fail('refused');
    mock.on('GET', '/flaky').reply(200, 'ok');
    const http = clientOf(mock, (c) => void (c.execution.retry = { limit: 2, backoff: () => 1 }));
    expect(await http.get(path('/flaky'))).toBe('ok');
    mock.assertDone();
  });

  it('delay(ms) holds the reply; a shorter response timeout ends the call with TimeoutError, a signal with AbortError', async () => {
    const mock = new MockBackend();
    mock.on('GET', '/slow').persist().delay(200).reply(200, 'late');
    const http = clientOf(mock, path('/slow'));
    const started = Date.now();
    expect(await http.get()).toBe('late');
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    await expect(http.get((c) => void (c.execution.timeout = { response: 50 }))).rejects.toBeInstanceOf(TimeoutError);
    await expect(http.get((c) => void (c.execution.signal = AbortSignal.timeout(30)))).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('progress listeners see the upload and the download', async () => {
    const mock = new MockBackend();
    mock.on('POST', '/echo').reply((request) => [200, request.body, { 'content-type': 'application/octet-stream' }]);
    const sent: number[] = [];
    const received: number[] = [];
    await clientOf(mock).post((c) => {
      c.request.uri.path = '/echo';
      c.request.body = Buffer.alloc(1000, 1);
      c.execution.onUploadProgress = ({ transferred }) => void sent.push(transferred);
      c.execution.onDownloadProgress = ({ transferred }) => void received.push(transferred);
    });
    expect(sent.at(-1)).toBe(1000);
    expect(received.at(-1)).toBe(1000);
  });
});

describe('MockBackend: calls', () => {
  it('records method, url, target, headers (read in any case) and body bytes of every request', async () => {
    const mock = new MockBackend();
    mock.on('PUT', '/notes/1').reply(204);
    await clientOf(mock)
      .put((c) => {
        c.request.uri.path = '/notes/1';
        c.request.uri.query = { draft: 'yes' };
        c.request.headers['X-Trace'] = 't-1';
        c.request.body = 'remember';
      })
      .catch(() => undefined); // unmatched (the query): recorded all the same
    const [call] = mock.calls;
    expect([call.method, call.url, call.target]).toEqual(['PUT', `${ORIGIN}/notes/1?draft=yes`, '/notes/1?draft=yes']);
    expect([call.headers['x-trace'], call.headers['X-Trace'], 'X-TRACE' in call.headers]).toEqual(['t-1', 't-1', true]);
    expect(call.headers).toMatchObject({ 'content-type': 'text/plain', 'content-length': '8' });
    expect(call.body).toEqual(Buffer.from('remember'));
  });
});

describe('MockBackend: a client with a proxy', () => {
  /** A service that sets its proxy itself, as docs/testing.md's advice meets it: only the backend comes from outside. */
  const service = (backend: MockBackend, proxy: string, noProxy: string[] = []) =>
    HttpBuilder.configure((c) => {
      c.request.uri = ORIGIN;
      c.client.proxy = { url: proxy, noProxy };
      c.client.backend = backend;
    });

  it('is accepted: each call records the proxy, credentials as ***, and the proxy is never contacted', async () => {
    const port = await closedPort(); // a proxy contacted there would refuse the connection
    const mock = new MockBackend();
    mock.on('GET', `${ORIGIN}/users/42`).reply(200, { id: 42 });
    mock.on('GET', 'http://plain.example/ping').reply(200, 'pong');
    mock.on('GET', 'https://internal.example/health').reply(200, 'ok');
    const http = service(mock, `http://pu:proxy-s3cret@127.0.0.1:${port}`, ['internal.example']);
    expect(await http.get(path('/users/42'))).toEqual({ id: 42 });
    expect(await http.get((c) => void (c.request.uri = 'http://plain.example/ping'))).toBe('pong');
    expect(await http.get((c) => void (c.request.uri = 'https://internal.example/health'))).toBe('ok');
    mock.assertDone();
    expect(mock.calls.map((call) => call.proxy)).toEqual([`http://***@127.0.0.1:${port}`, `http://***@127.0.0.1:${port}`, undefined]);
    expect('proxy' in mock.calls[2]).toBe(false); // a direct call is as it always was
    expect(mock.calls.map((call) => call.proxy ?? '').join()).not.toContain('proxy-s3cret');
  });

  it("follows the environment's proxy as a real backend would; no_proxy exempts", async () => {
    const saved = { https_proxy: process.env.https_proxy, no_proxy: process.env.no_proxy };
    Object.assign(process.env, { https_proxy: 'http://127.0.0.1:3128', no_proxy: 'internal.example' });
    try {
      const mock = new MockBackend();
      mock.on('GET', /./).persist().reply(200, 'ok');
      const http = clientOf(mock);
      await http.get(path('/a'));
      await http.get((c) => void (c.request.uri = 'https://internal.example/b'));
      expect(mock.calls.map((call) => call.proxy)).toEqual(['http://127.0.0.1:3128', undefined]);
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });
});
