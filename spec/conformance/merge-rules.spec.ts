import { expect, it } from '@jest/globals';
import { conformance } from './kit.js';

const TEXT = { headers: { 'Content-Type': 'text/plain' }, body: 'ok-text' };
const JSON_OK = { headers: { 'Content-Type': 'application/json' }, body: '{"a":1}' };

conformance('how levels merge', (kit) => {
  it("a derived client's failure handler beats its parent's when(404)", async () => {
    kit.server.expect({ method: 'GET', path: '/missing', respond: { status: 404 } });
    const parent = kit.client((c) => c.response.when(404, () => 'parent when'));
    const child = parent.configure((c) => c.response.failure(() => 'child failure'));
    expect(await child.get((c) => void (c.request.uri.path = '/missing'))).toBe('child failure');
    expect(await parent.get((c) => void (c.request.uri.path = '/missing'))).toBe('parent when');
  });

  it("a request's */* parser beats a client's application/json parser, which beats the default", async () => {
    kit.server.expect({ method: 'GET', path: '/json', respond: JSON_OK });
    const client = kit.client((c) => c.response.parser('application/json', () => 'client json parser'));
    expect(await client.get((c) => void (c.request.uri.path = '/json'))).toBe('client json parser');
    const result = await client.get((c) => {
      c.request.uri.path = '/json';
      c.response.parser('*/*', () => 'request any parser');
    });
    expect(result).toBe('request any parser');
  });

  it("a request's Content-Type and Accept headers beat the client's contentType and accept", async () => {
    kit.server.expect({ method: 'POST', path: '/types', respond: TEXT });
    const client = kit.client((c) => {
      c.request.contentType = 'application/json';
      c.request.accept = 'application/json';
    });
    await client.post((c) => {
      c.request.uri.path = '/types';
      c.request.headers = { 'content-type': 'text/plain', ACCEPT: 'text/html' };
      c.request.body = 'plain words';
    });
    const [request] = kit.server.requests;
    expect([request.headers['content-type'], request.headers.accept]).toEqual(['text/plain', 'text/html']);
    expect(request.body.toString()).toBe('plain words');
  });

  it('Content-Type: null in a request removes the inherited content type', async () => {
    kit.server.expect({ method: 'GET', path: '/no-type', respond: TEXT });
    const client = kit.client((c) => void (c.request.contentType = 'application/json'));
    await client.get((c) => {
      c.request.uri.path = '/no-type';
      c.request.headers['Content-Type'] = null;
    });
    expect(kit.server.requests[0].headers['content-type']).toBeUndefined();
  });

  it('a request body of null clears an inherited body', async () => {
    kit.server.expect({ method: 'POST', path: '/body', respond: TEXT });
    const client = kit.client((c) => void (c.request.body = 'client-body'));
    await client.post((c) => {
      c.request.uri.path = '/body';
      c.request.body = null;
    });
    await client.post((c) => void (c.request.uri.path = '/body'));
    expect(kit.server.requests.map((r) => r.body.toString())).toEqual(['', 'client-body']);
  });

  it("a URL's own query goes out verbatim (valueless flags, order, escapes) until a level changes it", async () => {
    kit.server.expect({ method: 'GET', path: '/s3', respond: TEXT });
    const origin = kit.server.url(kit.secure);
    const client = kit.client((c) => void (c.request.uri = `${origin}/s3?uploads&a=1&b=2&a=3&x=%2A`));
    await client.get();
    await client.get((c) => void (c.request.uri.query.b = 'changed'));
    expect(kit.server.requests.map((r) => r.target)).toEqual(['/s3?uploads&a=1&b=2&a=3&x=%2A', '/s3?uploads=&a=1&a=3&b=changed&x=*']);
  });

  it('query: null and {} add nothing and keep inherited parameters; a null value removes one', async () => {
    kit.server.expect({ method: 'GET', path: '/q', respond: TEXT });
    const client = kit.client((c) => {
      c.request.uri.path = '/q';
      c.request.uri.query = { token: 'abc', page: '1' };
    });
    await client.get((c) => void (c.request.uri.query = null));
    await client.get((c) => void (c.request.uri.query = {}));
    await client.get((c) => void (c.request.uri.query = { page: null }));
    expect(kit.server.requests.map((r) => r.target)).toEqual(['/q?token=abc&page=1', '/q?token=abc&page=1', '/q?token=abc']);
  });

  it('a relative path may contain a colon (users:batchGet); only URL-looking paths are refused', async () => {
    kit.server.expect({ method: 'POST', path: '/v1/users:batchGet', respond: TEXT });
    const client = kit.client((c) => void (c.request.uri.path = '/v1'));
    expect(await client.post((c) => void (c.request.uri.path = 'users:batchGet'))).toBe('ok-text');
    await expect(client.post((c) => void (c.request.uri.path = 'https:evil.example'))).rejects.toThrow(/would change the origin/);
  });

  it('an interceptor that changes the URL sends exactly what the URL means', async () => {
    kit.server.expect({ method: 'GET', path: '/moved', query: { a: 'b' }, respond: TEXT });
    const port = new URL(kit.server.url(kit.secure)).port;
    const scheme = kit.secure ? 'https' : 'http';
    const client = kit.client((c) => {
      // a single slash after the scheme: WHATWG URL still reads the host from it
      c.execution.interceptor('GET', (request, next) => next({ ...request, url: `${scheme}:/127.0.0.1:${port}/moved?a=b` }));
    });
    expect(await client.get()).toBe('ok-text');
    expect(kit.server.requests[0].target).toBe('/moved?a=b');
  });
});
