// http.request(method, ...): any method token, with the three shapes of the verbs, on every backend.
import { expect, it } from '@jest/globals';
import { ConfigError } from '../../lib/index.js';
import { conformance } from './kit.js';

const TEXT = { 'Content-Type': 'text/plain' };

conformance('http.request(method, ...)', (kit) => {
  it('QUERY with a JSON body, typed; PROPFIND with a block; a bare request(method)', async () => {
    kit.server.expect({
      method: 'QUERY',
      path: '/contacts',
      body: '{"name":"Ada"}',
      respond: { headers: { 'Content-Type': 'application/json' }, body: '[{"id":1}]' },
    });
    kit.server.expect({ method: 'PROPFIND', path: '/files', respond: { status: 207, headers: { 'Content-Type': 'application/xml' }, body: '<multistatus/>' } });
    kit.server.expect({ method: 'PURGE', path: '/', respond: { headers: TEXT, body: 'purged' } });
    const client = kit.client();
    const found = await client.request('QUERY', Object, (c) => {
      c.request.uri.path = '/contacts';
      c.request.contentType = 'application/json';
      c.request.body = { name: 'Ada' };
    });
    expect(found).toEqual([{ id: 1 }]);
    const listing = await client.request('propfind', String, (c) => {
      c.request.uri.path = '/files';
      c.request.headers['Depth'] = '1';
    });
    expect(listing).toBe('<multistatus/>');
    expect(await client.request('PURGE')).toBe('purged');
    expect(kit.server.requests.map((r) => r.method)).toEqual(['QUERY', 'PROPFIND', 'PURGE']);
  });

  it('QUERY is retried as an idempotent request', async () => {
    let tries = 0;
    kit.server.expect({ method: 'QUERY', path: '/q', respond: (_req, res) => void (res.writeHead(++tries < 2 ? 503 : 200, TEXT), res.end('answer')) });
    const client = kit.client((c) => void (c.execution.retry = { limit: 2, backoff: () => 1 }));
    expect(await client.request('QUERY', (c) => void (c.request.uri.path = '/q'))).toBe('answer');
    expect(tries).toBe(2);
  });

  it('a method that is not a token, CONNECT, or no method is a ConfigError before anything is sent', async () => {
    const client = kit.client();
    await expect(client.request('BAD METHOD')).rejects.toThrow(/the method 'BAD METHOD' is not a valid HTTP method token/);
    await expect(client.request('connect')).rejects.toThrow(/the method CONNECT is not supported/);
    await expect(client.request(undefined as never)).rejects.toBeInstanceOf(ConfigError);
    expect(kit.server.requests).toHaveLength(0);
  });
});
