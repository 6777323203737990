import { expect, it } from '@jest/globals';
import { HttpException, type FromServer } from '../../lib/index.js';
import { ORIGIN, pipeline } from './kit.js';

const text = (status: number) => [status, 'ok-text', { 'Content-Type': 'text/plain' }] as const;

pipeline('response handlers', (kit) => {
  for (const status of [200, 300, 400, 500]) {
    const expected = status < 400 ? `Success: ${status}, Text: ok-text` : `Failure: ${status}, Error: ok-text`;

    it(`success/failure as two-argument functions for ${status}`, async () => {
      kit.mock.on('GET', '/handlers').reply(...text(status));
      const result = await kit.client().get((c) => {
        c.request.uri.path = '/handlers';
        c.response.success((fromServer, body) => `Success: ${fromServer.statusCode}, Text: ${String(body)}`);
        c.response.failure((fromServer, body) => `Failure: ${fromServer.statusCode}, Error: ${String(body)}`);
      });
      expect(result).toBe(expected);
    });

    it(`success/failure in closure style (this = fromServer) for ${status}`, async () => {
      kit.mock.on('GET', '/handlers').reply(...text(status));
      const result = await kit.client().get(function () {
        this.request.uri.path = '/handlers';
        this.response.success(function (this: FromServer, _fs, body) {
          return `Success: ${this.statusCode}, Text: ${String(body)}`;
        });
        this.response.failure(function (this: FromServer, _fs, body) {
          return `Failure: ${this.statusCode}, Error: ${String(body)}`;
        });
      });
      expect(result).toBe(expected);
    });
  }

  for (const code of [205, '210', 211] as const) {
    it(`when(${JSON.stringify(code)}) runs for exactly that status, before success`, async () => {
      const status = Number(code);
      kit.mock.on('GET', '/when').reply(status, status === 205 ? undefined : 'ok-text', { 'Content-Type': 'text/plain' });
      const result = await kit.client().get((c) => {
        c.request.uri.path = '/when';
        c.response.success(() => 'success ran');
        c.response.when(code, (fromServer, body) => `when ${fromServer.statusCode}: ${String(body)}`);
      });
      expect(result).toBe(status === 205 ? 'when 205: null' : `when ${status}: ok-text`);
    });
  }

  it("when('success') and when('failure') are success and failure", async () => {
    kit.mock.on('GET', '/named').reply(...text(404));
    const result = await kit.client().get((c) => {
      c.request.uri.path = '/named';
      c.response.when('success', () => 'success');
      c.response.when('failure', (fromServer) => `failure ${fromServer.statusCode}`);
    });
    expect(result).toBe('failure 404');
  });

  it('request-level handlers win over client-level ones; client-level when() beats the default', async () => {
    kit.mock.on('GET', '/levels').reply(...text(404));
    kit.mock.on('GET', '/client-level').reply(...text(404));
    const client = kit.client((c) => {
      c.response.failure(() => 'client failure');
      c.response.when(404, () => 'client 404');
    });
    const requestLevel = await client.get((c) => {
      c.request.uri.path = '/levels';
      c.response.failure(() => 'request failure');
    });
    const clientLevel = await client.get((c) => {
      c.request.uri.path = '/client-level';
    });
    expect([requestLevel, clientLevel]).toEqual(['request failure', 'client 404']);
  });

  it('the default failure rejects with HttpException: reason phrase, status, headers and parsed body', async () => {
    kit.mock.on('GET', '/missing').reply(404, '{"error":"nope"}', { 'Content-Type': 'application/json', 'X-Request-Id': 'r-1' });
    const error = await kit
      .client()
      .get((c) => {
        c.request.uri.path = '/missing';
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpException);
    const http = error as HttpException;
    expect([http.name, http.code, http.message, http.statusCode]).toEqual(['HttpException', 'ERR_HTTP', 'Not Found', 404]);
    expect(http.headers.get('x-request-id')).toBe('r-1');
    expect(http.body).toEqual({ error: 'nope' });
  });

  it('401 rejects with message Unauthorized', async () => {
    kit.mock.on('GET', '/private').reply(401);
    await expect(kit.client().get((c) => void (c.request.uri.path = '/private'))).rejects.toMatchObject({ message: 'Unauthorized', statusCode: 401 });
  });

  it('exception() turns an HttpException into a result', async () => {
    kit.mock.on('GET', '/broken').reply(...text(500));
    const result = await kit.client().get((c) => {
      c.request.uri.path = '/broken';
      c.response.exception((error) => `recovered from ${(error as HttpException).statusCode}`);
    });
    expect(result).toBe('recovered from 500');
  });

  it('a handler that throws rejects the call with that error', async () => {
    kit.mock.on('GET', '/throws').reply(...text(200));
    await expect(
      kit.client().get((c) => {
        c.request.uri.path = '/throws';
        c.response.success(() => {
          throw new Error('handler failed');
        });
      }),
    ).rejects.toThrow('handler failed');
  });
});

pipeline('interceptors', (kit) => {
  it("interceptor('GET', ...) wraps the call and its return value is the result", async () => {
    kit.mock.on('GET', '/alpha').reply(...text(200));
    const client = kit.client((c) => {
      c.execution.interceptor('GET', async (request, next) => `Response: ${String(await next(request))}`);
    });
    expect(await client.get((c) => void (c.request.uri.path = '/alpha'))).toBe('Response: ok-text');
  });

  it('several interceptors compose, first registered outermost, and only for their verbs', async () => {
    kit.mock.on('POST', '/alpha').reply(...text(200));
    const client = kit.client((c) => {
      c.execution.interceptor(['post', 'PUT'], async (request, next) => `outer(${String(await next(request))})`);
      c.execution.interceptor('GET', () => 'never: GET only');
      c.execution.interceptor('POST', async (request, next) => `inner(${String(await next(request))})`);
    });
    expect(await client.post((c) => void (c.request.uri.path = '/alpha'))).toBe('outer(inner(ok-text))');
  });

  it('an interceptor changes the request by passing a modified copy to next()', async () => {
    kit.mock
      .on('GET', '/alpha')
      .withHeaders({ 'X-Trace': 't-1' })
      .reply(...text(200));
    const client = kit.client((c) => {
      c.execution.interceptor('GET', (request, next) => {
        expect(Object.isFrozen(request)).toBe(true);
        expect(request.method).toBe('GET');
        expect(request.url).toBe(`${ORIGIN}/alpha`);
        return next({ ...request, headers: { ...request.headers, 'X-Trace': 't-1' } });
      });
    });
    expect(await client.get((c) => void (c.request.uri.path = '/alpha'))).toBe('ok-text');
  });
});
