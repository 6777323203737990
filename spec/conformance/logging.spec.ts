import { expect, it } from '@jest/globals';
import { digestRoute } from '../support/auth/index.js';
import { expectNoUnhandledRejections } from '../support/unhandled-rejections.js';
import { conformance, VERBS } from './kit.js';

const JSON_OK = { headers: { 'Content-Type': 'application/json' }, body: '{"id":42}' };

/** A client block collecting the lines `execution.logger` gets. */
function collecting(): { lines: string[]; logger: (line: string) => void } {
  const lines: string[] = [];
  return { lines, logger: (line) => void lines.push(line) };
}

expectNoUnhandledRejections();

conformance('debug logging (execution.logger)', (kit) => {
  for (const [verb, method] of VERBS) {
    it(`${method}: one line when the request goes out, one when the response arrives (method, URL, status, time, bytes)`, async () => {
      const { lines, logger } = collecting();
      const body = method === 'POST' || method === 'PUT' || method === 'PATCH' ? 'hello' : undefined;
      kit.server.expect({ method, path: '/logged', respond: JSON_OK });
      const client = kit.client((c) => void (c.execution.logger = logger));
      await client[verb]((c) => {
        c.request.uri.path = '/logged';
        c.request.uri.query = { page: '2' };
        if (body !== undefined) {
          c.request.contentType = 'text/plain';
          c.request.body = body;
        }
      });
      const url = `${kit.server.url(kit.secure)}/logged?page=2`;
      // the test server answers HEAD without Content-Length
      const size = method === 'HEAD' ? 'length unknown' : '9 B';
      expect(lines).toHaveLength(2);
      expect(lines[0]).toBe(`→ ${method} ${url}${body === undefined ? '' : ' (body 5 B)'}`);
      expect(lines[1]).toMatch(new RegExp(`^← 200 ${method} ${escapeRegExp(url)} \\d+\\.\\d ms ${size}$`));
    });
  }

  it('credentials and cookies never reach the log: URL user info, credential-like query values, Authorization and Cookie headers', async () => {
    const { lines, logger } = collecting();
    const route = digestRoute(kit.server, { user: 'alice', password: 'wonderland' });
    const origin = kit.server.url(kit.secure);
    const client = kit.client((c) => {
      c.execution.logger = logger;
      c.request.cookies.session = 'cookie-secret';
      c.request.headers['X-Api-Key'] = 'header-secret';
    });
    await client.get((c) => {
      c.request.uri = `${origin}/digest?access_token=token-secret&api_key=key-secret&page=1`;
      c.request.auth.digest('alice', 'wonderland');
    });
    expect(route.requests.length).toBe(2); // challenged, then answered: two exchanges, four lines
    kit.server.expect({ method: 'GET', path: '/plain', respond: JSON_OK });
    await client.get((c) => void (c.request.uri = `${origin.replace('://', '://bob:hunter2@')}/plain?password=pw-secret`));
    expect(lines).toHaveLength(6);
    const text = lines.join('\n');
    for (const secret of [
      'wonderland',
      'alice',
      'bob',
      'hunter2',
      'pw-secret',
      'token-secret',
      'key-secret',
      'cookie-secret',
      'header-secret',
      'Digest',
      'response=',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(lines[0]).toBe(`→ GET ${origin}/digest?access_token=***&api_key=***&page=1`);
    expect(lines[1]).toMatch(/^← 401 GET /);
    expect(lines[3]).toMatch(/^← 200 GET /);
    // URL credentials become the request's credentials: the URL on the wire, and in the log, has none
    expect(lines[4]).toBe(`→ GET ${origin}/plain?password=***`);
  });

  it('every redirect hop gets its pair of lines', async () => {
    const { lines, logger } = collecting();
    kit.server.expect({ method: 'GET', path: '/old', respond: { status: 302, headers: { Location: '/new' }, body: '' } });
    kit.server.expect({ method: 'GET', path: '/new', respond: JSON_OK });
    await kit.client((c) => void (c.execution.logger = logger)).get((c) => void (c.request.uri.path = '/old'));
    expect(lines.map((line) => line.split(' ').slice(0, 3).join(' '))).toEqual([
      `→ GET ${kit.server.url(kit.secure)}/old`,
      '← 302 GET',
      `→ GET ${kit.server.url(kit.secure)}/new`,
      '← 200 GET',
    ]);
  });

  it('a logger that throws or rejects never fails, retries or crashes the call', async () => {
    const loggers: Array<(line: string) => unknown> = [
      () => {
        throw Object.assign(new Error('EPIPE: broken pipe, write'), { code: 'EPIPE' }); // looks like a reset
      },
      () => Promise.reject(new Error('log transport down')),
    ];
    for (const logger of loggers) {
      kit.server.expect({ method: 'GET', path: '/throwing', respond: JSON_OK });
      const client = kit.client((c) => {
        c.execution.logger = logger;
        c.execution.retry = { limit: 3, backoff: () => 0 };
      });
      expect(await client.get((c) => void (c.request.uri.path = '/throwing'))).toEqual({ id: 42 });
    }
    await new Promise((resolve) => setTimeout(resolve, 20)); // a rejection would surface by now
    expect(kit.server.requests.map((r) => r.path)).toEqual(['/throwing', '/throwing']); // each sent once
  });

  it('an object with debug() works as a logger; false at request level silences a client logger', async () => {
    const seen: string[] = [];
    const client = kit.client((c) => void (c.execution.logger = { debug: (line: string) => void seen.push(line) }));
    kit.server.expect({ method: 'GET', path: '/one', respond: JSON_OK });
    kit.server.expect({ method: 'GET', path: '/two', respond: JSON_OK });
    await client.get((c) => void (c.request.uri.path = '/one'));
    await client.get((c) => {
      c.request.uri.path = '/two';
      c.execution.logger = false;
    });
    expect(seen).toHaveLength(2);
    expect(seen.every((line) => line.includes('/one'))).toBe(true);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
