import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError, HttpException, withResponse, type ResponseHeaders } from '../../lib/index.js';
import { Download } from '../../lib/download.js';
import { conformance } from './kit.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hb-papercuts-spec-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

class User {
  id = 0;
  name = '';
  greeting(): string {
    return `hi ${this.name}`;
  }
}

const USER = { headers: { 'Content-Type': 'application/json', ETag: '"v7"' }, body: '{"id":7,"name":"Ada"}' };

conformance('what a new user meets first', (kit) => {
  it('withResponse(Type) resolves to status, reason phrase, headers and the body converted to Type', async () => {
    kit.server.expect({ method: 'GET', path: '/users/7', respond: USER });
    const result = await kit.client().get(withResponse(User), (c) => void (c.request.uri.path = '/users/7'));
    expect(result.statusCode).toBe(200);
    expect(result.message).toBe('OK');
    expect(result.headers.get('etag')).toBe('"v7"');
    expect(result.body).toBeInstanceOf(User);
    expect(result.body.greeting()).toBe('hi Ada');
  });

  it('withResponse() without a type gives the parsed body; a Standard Schema validates it', async () => {
    kit.server.expect({ method: 'POST', path: '/users', respond: { ...USER, status: 201 } });
    const plain = await kit.client().post(withResponse(), (c) => void (c.request.uri.path = '/users'));
    expect([plain.statusCode, plain.message, plain.body]).toEqual([201, 'Created', { id: 7, name: 'Ada' }]);
    const schema = z.object({ id: z.number(), name: z.string() });
    const checked = await kit.client().post(withResponse(schema), (c) => void (c.request.uri.path = '/users'));
    expect(checked.body).toEqual({ id: 7, name: 'Ada' });
  });

  it('withResponse: handlers still run, and what a handler returns is the body', async () => {
    kit.server.expect({ method: 'GET', path: '/missing', respond: { status: 404, headers: { 'Content-Type': 'text/plain', 'X-Why': 'gone' }, body: 'no' } });
    const result = await kit.client().get(withResponse(String), (c) => {
      c.request.uri.path = '/missing';
      c.response.when(404, (_fromServer, body) => `handled: ${String(body)}`);
    });
    expect(result.statusCode).toBe(404);
    expect(result.headers.get('x-why')).toBe('gone');
    expect(result.body).toBe('handled: no');
  });

  it('withResponse on HEAD: the headers, and a null body', async () => {
    kit.server.expect({ method: 'HEAD', path: '/users/7', respond: USER });
    const result = await kit.client().head(withResponse(String), (c) => void (c.request.uri.path = '/users/7'));
    const headers: ResponseHeaders = result.headers;
    expect([result.statusCode, headers.get('etag'), result.body]).toEqual([200, '"v7"', null]);
    expect(await kit.client().head(String, (c) => void (c.request.uri.path = '/users/7'))).toBeNull();
  });

  it('an HttpException names the request it failed: method and URL, with credentials hidden', async () => {
    kit.server.expect({ method: 'DELETE', path: '/users/7', respond: { status: 404, headers: { 'Content-Type': 'text/plain' }, body: 'no such user' } });
    const error = await kit
      .client()
      .delete((c) => {
        c.request.uri.path = '/users/7';
        c.request.uri.query = { api_key: 's3cret' };
      })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(HttpException);
    const exception = error as HttpException;
    const url = `${kit.server.url(kit.secure)}/users/7?api_key=***`;
    expect([exception.message, exception.statusCode, exception.method, exception.url]).toEqual(['Not Found', 404, 'DELETE', url]);
    expect(String(exception)).toBe(`HttpException: Not Found (DELETE ${url})`);
    expect(exception.stack?.split('\n')[0]).toBe(`HttpException: Not Found (DELETE ${url})`);
  });

  it('a URL string as the first argument is refused before sending, pointing at c.request.uri.path', async () => {
    const http = kit.client();
    await expect(http.get('users/1' as never)).rejects.toThrow(ConfigError);
    await expect(http.post('/users' as never)).rejects.toThrow(/c\.request\.uri\.path/);
    expect(kit.server.requests).toHaveLength(0);
  });

  it('a Download with a result type other than the default is refused before sending', async () => {
    const file = join(dir, `refused-${kit.backend}-${kit.secure ? 's' : 'p'}.txt`);
    const error = await kit
      .client()
      .get(Buffer, (c) => {
        c.request.uri.path = '/download';
        Download.toFile(c, file);
      })
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/Download.*result type/);
    expect(kit.server.requests).toHaveLength(0);
    expect(() => statSync(file)).toThrow();
  });

  it('Download.toTempFile keeps its file in the shared temporary folder private (0600)', async () => {
    kit.server.expect({ method: 'GET', path: '/download', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'downloaded' } });
    const file = await kit.client().get((c) => {
      c.request.uri.path = '/download';
      Download.toTempFile(c);
    });
    try {
      expect(statSync(String(file)).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(String(file), { force: true });
    }
  });

  it('Download.toFile makes a new file as fs.writeFile would (0666 less the umask), not private', async () => {
    kit.server.expect({ method: 'GET', path: '/download', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'downloaded' } });
    const file = join(dir, `mode-${kit.backend}-${kit.secure ? 's' : 'p'}.txt`);
    const umask = process.umask();
    await kit.client().get((c) => {
      c.request.uri.path = '/download';
      Download.toFile(c, file);
    });
    expect(statSync(file).mode & 0o777).toBe(0o666 & ~umask);
  });
});
