import { expect, it } from '@jest/globals';
import { conformance } from './kit.js';

const TEXT = { headers: { 'Content-Type': 'text/plain' }, body: 'ok-text' };
const JSON_VALUE = { headers: { 'Content-Type': 'application/json' }, body: '{"value":"ok-json"}' };

conformance('/alpha: every verb with text and JSON responses', (kit) => {
  for (const verb of ['get', 'post', 'put', 'delete'] as const) {
    const method = verb.toUpperCase();

    it(`${method} /alpha with no query returns ok-text`, async () => {
      const handle = kit.server.expect({ method, path: '/alpha', query: {}, respond: TEXT });
      const result = await kit.client()[verb]((c) => {
        c.request.uri.path = '/alpha';
      });
      expect(result).toBe('ok-text');
      expect(handle.calls).toBe(1);
    });

    it(`${method} /alpha returns a parsed JSON object`, async () => {
      kit.server.expect({ method, path: '/alpha', respond: JSON_VALUE });
      const result = await kit.client()[verb](function () {
        this.request.uri.path = '/alpha';
      });
      expect(result).toEqual({ value: 'ok-json' });
    });
  }

  for (const verb of ['post', 'put'] as const) {
    const method = verb.toUpperCase();

    it(`${method} /alpha with JSON body {} sends exactly {}`, async () => {
      kit.server.expect({ method, path: '/alpha', body: '{}', headers: { 'content-type': 'application/json' }, respond: TEXT });
      const result = await kit.client()[verb]((c) => {
        c.request.uri.path = '/alpha';
        c.request.contentType = 'application/json';
        c.request.body = {};
      });
      expect(result).toBe('ok-text');
      expect(kit.server.requests[0].headers['content-length']).toBe('2');
    });

    it(`${method} /alpha with no body sends no body and Content-Length: 0`, async () => {
      kit.server.expect({ method, path: '/alpha', body: '', respond: JSON_VALUE });
      const result = await kit.client()[verb]((c) => {
        c.request.uri.path = '/alpha';
        c.request.contentType = 'application/json';
        c.request.body = null;
      });
      expect(result).toEqual({ value: 'ok-json' });
      const [request] = kit.server.requests;
      expect(request.body.length).toBe(0);
      expect(request.headers['content-length']).toBe('0');
      expect(request.chunked).toBe(false);
    });
  }

  it('HEAD /alpha resolves to null and handlers see a custom response header', async () => {
    kit.server.expect({ method: 'HEAD', path: '/alpha', respond: { headers: { 'Content-Type': 'text/plain', 'X-Custom': 'head-value' } } });
    let seen: string | null = null;
    const result = await kit.client().head((c) => {
      c.request.uri.path = '/alpha';
      c.response.success((fromServer, body) => {
        seen = fromServer.headers.get('x-custom');
        return body;
      });
    });
    expect(result).toBeNull();
    expect(seen).toBe('head-value');
  });

  it('PATCH and OPTIONS reach the server with their methods', async () => {
    kit.server.expect({ method: 'PATCH', path: '/alpha', respond: TEXT });
    kit.server.expect({ method: 'OPTIONS', path: '/alpha', respond: { headers: { Allow: 'GET, PATCH' } } });
    const client = kit.client((c) => {
      c.request.uri.path = '/alpha';
    });
    expect(await client.patch()).toBe('ok-text');
    let allow: string | null = null;
    await client.options((c) => {
      c.response.success((fromServer) => (allow = fromServer.headers.get('allow')));
    });
    expect(allow).toBe('GET, PATCH');
  });
});
