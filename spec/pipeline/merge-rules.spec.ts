import { expect, it } from '@jest/globals';
import type { Backend } from '../../lib/index.js';
import { anyQuery, ORIGIN, pipeline } from './kit.js';

const TEXT = ['ok-text', { 'Content-Type': 'text/plain' }] as const;
const JSON_OK = ['{"a":1}', { 'Content-Type': 'application/json' }] as const;

pipeline('how levels merge', (kit) => {
  it("a derived client's failure handler beats its parent's when(404)", async () => {
    kit.mock.on('GET', '/missing').persist().reply(404);
    const parent = kit.client((c) => c.response.when(404, () => 'parent when'));
    const child = parent.configure((c) => c.response.failure(() => 'child failure'));
    expect(await child.get((c) => void (c.request.uri.path = '/missing'))).toBe('child failure');
    expect(await parent.get((c) => void (c.request.uri.path = '/missing'))).toBe('parent when');
  });

  it("a request's */* parser beats a client's application/json parser, which beats the default", async () => {
    kit.mock
      .on('GET', '/json')
      .persist()
      .reply(200, ...JSON_OK);
    const client = kit.client((c) => c.response.parser('application/json', () => 'client json parser'));
    expect(await client.get((c) => void (c.request.uri.path = '/json'))).toBe('client json parser');
    const result = await client.get((c) => {
      c.request.uri.path = '/json';
      c.response.parser('*/*', () => 'request any parser');
    });
    expect(result).toBe('request any parser');
  });

  it("a request's Content-Type and Accept headers beat the client's contentType and accept", async () => {
    kit.mock.on('POST', '/types').reply(200, ...TEXT);
    // the header names as the backend gets them: the mock's calls key headers in lower case, so a
    // second `Content-Type` or `Accept` spelled otherwise would not show there
    const names: string[] = [];
    const spy: Backend = {
      name: 'spy',
      send: (request) => {
        names.push(...Object.keys(request.headers).map((name) => name.toLowerCase()));
        return kit.mock.send(request);
      },
      close: () => Promise.resolve(),
    };
    const client = kit.client((c) => {
      c.client.backend = spy;
      c.request.contentType = 'application/json';
      c.request.accept = 'application/json';
    });
    await client.post((c) => {
      c.request.uri.path = '/types';
      c.request.headers = { 'content-type': 'text/plain', ACCEPT: 'text/html' };
      c.request.body = 'plain words';
    });
    const [request] = kit.mock.calls;
    expect([request.headers['content-type'], request.headers.accept]).toEqual(['text/plain', 'text/html']);
    expect(names.filter((name) => name === 'content-type' || name === 'accept').sort()).toEqual(['accept', 'content-type']);
    expect(request.body.toString()).toBe('plain words');
  });

  it('Content-Type: null in a request removes the inherited content type', async () => {
    kit.mock.on('GET', '/no-type').reply(200, ...TEXT);
    const client = kit.client((c) => void (c.request.contentType = 'application/json'));
    await client.get((c) => {
      c.request.uri.path = '/no-type';
      c.request.headers['Content-Type'] = null;
    });
    expect(kit.mock.calls[0].headers['content-type']).toBeUndefined();
  });

  it('a request body of null clears an inherited body', async () => {
    kit.mock
      .on('POST', '/body')
      .persist()
      .reply(200, ...TEXT);
    const client = kit.client((c) => void (c.request.body = 'client-body'));
    await client.post((c) => {
      c.request.uri.path = '/body';
      c.request.body = null;
    });
    await client.post((c) => void (c.request.uri.path = '/body'));
    expect(kit.mock.calls.map((r) => r.body.toString())).toEqual(['', 'client-body']);
  });

  it("a URL's own query goes out verbatim (valueless flags, order, escapes) until a level changes it", async () => {
    kit.mock
      .on('GET', anyQuery('/s3'))
      .persist()
      .reply(200, ...TEXT);
    const client = kit.client((c) => void (c.request.uri = `${ORIGIN}/s3?uploads&a=1&b=2&a=3&x=%2A`));
    await client.get();
    await client.get((c) => void (c.request.uri.query.b = 'changed'));
    expect(kit.mock.calls.map((r) => r.target)).toEqual(['/s3?uploads&a=1&b=2&a=3&x=%2A', '/s3?uploads=&a=1&a=3&b=changed&x=*']);
  });

  it('query: null and {} add nothing and keep inherited parameters; a null value removes one', async () => {
    kit.mock
      .on('GET', anyQuery('/q'))
      .persist()
      .reply(200, ...TEXT);
    const client = kit.client((c) => {
      c.request.uri.path = '/q';
      c.request.uri.query = { token: 'abc', page: '1' };
    });
    await client.get((c) => void (c.request.uri.query = null));
    await client.get((c) => void (c.request.uri.query = {}));
    await client.get((c) => void (c.request.uri.query = { page: null }));
    expect(kit.mock.calls.map((r) => r.target)).toEqual(['/q?token=abc&page=1', '/q?token=abc&page=1', '/q?token=abc']);
  });

  it('a relative path may contain a colon (users:batchGet); only URL-looking paths are refused', async () => {
    kit.mock.on('POST', '/v1/users:batchGet').reply(200, ...TEXT);
    const client = kit.client((c) => void (c.request.uri.path = '/v1'));
    expect(await client.post((c) => void (c.request.uri.path = 'users:batchGet'))).toBe('ok-text');
    await expect(client.post((c) => void (c.request.uri.path = 'https:evil.example'))).rejects.toThrow(/would change the origin/);
  });

  it('an interceptor that changes the URL sends exactly what the URL means', async () => {
    for (const scheme of ['http', 'https']) {
      kit.mock.on('GET', `${scheme}://api.example.test/moved?a=b`).reply(200, ...TEXT);
      const client = kit.client((c) => {
        c.request.uri = `${scheme}://api.example.test`;
        // a single slash after the scheme: WHATWG URL still reads the host from it
        c.execution.interceptor('GET', (request, next) => next({ ...request, url: `${scheme}:/api.example.test/moved?a=b` }));
      });
      expect(await client.get()).toBe('ok-text');
      expect(kit.mock.calls.at(-1)?.target).toBe('/moved?a=b');
    }
  });
});
