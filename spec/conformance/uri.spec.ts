import { expect, it } from '@jest/globals';
import { ConfigError, HttpBuilder, type ConfigBlock } from '../../lib/index.js';
import { useTestServer } from '../support/use-test-server.js';
import { conformance } from './kit.js';

const OK = { headers: { 'Content-Type': 'text/plain' }, body: 'ok' };

conformance('URIs: paths, queries, raw targets', (kit) => {
  it('a path without a leading / is joined to the client path; with one it replaces it', async () => {
    kit.server.expect({ method: 'GET', path: '/api/users', respond: OK });
    kit.server.expect({ method: 'GET', path: '/health', respond: OK });
    const client = kit.client((c) => void (c.request.uri.path = '/api'));
    await client.get((c) => void (c.request.uri.path = 'users'));
    await client.get((c) => void (c.request.uri.path = '/health'));
    expect(kit.server.requests.map((r) => r.target)).toEqual(['/api/users', '/health']);
  });

  it('a host whose last label is a number is read as URL parsers read it: 127.1 is 127.0.0.1 on every backend', async () => {
    kit.server.expect({ method: 'GET', path: '/short-ip', respond: { body: 'ok' } });
    await kit.client((c) => void (c.request.uri.host = '127.1')).get((c) => void (c.request.uri.path = '/short-ip'));
    expect(kit.server.requests[0].headers.host).toMatch(/^127\.0\.0\.1:\d+$/);
  });

  it('a derived client appends to its parent path', async () => {
    kit.server.expect({ method: 'GET', path: '/api/v2/items', respond: OK });
    const v2 = kit.client((c) => void (c.request.uri.path = '/api/')).configure((c) => void (c.request.uri.path = 'v2'));
    await v2.get((c) => void (c.request.uri.path = 'items'));
    expect(kit.server.requests[0].matched).toBe(true);
  });

  it('query names and values round-trip + & = @ # and spaces (sent as %20)', async () => {
    const tricky = { 'a+b': '1+1=2 & more', at: 'user@host', hash: '#frag', plain: 'x' };
    kit.server.expect({ method: 'GET', path: '/q', query: tricky, respond: OK });
    await kit.client().get((c) => {
      c.request.uri.path = '/q';
      c.request.uri.query = tricky;
    });
    const [request] = kit.server.requests;
    expect(request.matched).toBe(true);
    expect(request.target).toContain('1%2B1%3D2%20%26%20more');
  });

  it('request query parameters override client ones per name; null removes one', async () => {
    kit.server.expect({ method: 'GET', path: '/q', query: { keep: 'client', over: 'request', extra: ['1', '2'] }, respond: OK });
    const client = kit.client((c) => {
      c.request.uri.query = { keep: 'client', over: 'client', drop: 'client' };
    });
    await client.get((c) => {
      c.request.uri.path = '/q';
      c.request.uri.query = { over: 'request', drop: null, extra: [1, 2] };
    });
    expect(kit.server.requests[0].matched).toBe(true);
  });

  it('a query in the configured URI string is kept and merged', async () => {
    kit.server.expect({ method: 'GET', path: '/search', query: { q: 'a b', page: '2' }, respond: OK });
    await kit.client().get((c) => {
      c.request.uri = `${kit.server.url(kit.secure)}/search?q=a+b`;
      c.request.uri.query.page = 2;
    });
    expect(kit.server.requests[0].matched).toBe(true);
  });

  it('raw sends the path and query byte for byte', async () => {
    kit.server.expect({ method: 'GET', path: '/raw/%7Euser/a%2Fb', respond: OK });
    await kit.client().get((c) => {
      c.request.raw = '/raw/%7Euser/a%2Fb?x=a+b&y';
    });
    expect(kit.server.requests[0].target).toBe('/raw/%7Euser/a%2Fb?x=a+b&y');
  });

  it('characters not allowed in a path are percent-encoded, existing escapes kept', async () => {
    kit.server.expect({ method: 'GET', path: '/files/my%20file%3F.txt/caf%C3%A9/%41', respond: OK });
    await kit.client().get((c) => void (c.request.uri.path = '/files/my file%3F.txt/café/%41'));
    expect(kit.server.requests[0].matched).toBe(true);
  });

  it("a '?' or '#' in uri.path is a ConfigError pointing at uri.query / uri.fragment, before anything is sent", async () => {
    const client = kit.client();
    await expect(client.get((c) => void (c.request.uri.path = '/users?page=2'))).rejects.toThrow(/uri\.path '\/users\?page=2' contains '\?'.*uri\.query/);
    await expect(client.get((c) => void (c.request.uri.path = '/docs#intro'))).rejects.toThrow(/contains '#'.*uri\.fragment/);
    await expect(client.get((c) => void (c.request.uri.path = '/users?page=2'))).rejects.toBeInstanceOf(ConfigError);
    expect(kit.server.requests).toHaveLength(0);
  });

  it('the URI can be set as a URL object and by parts', async () => {
    kit.server.expect({ method: 'GET', path: '/parts', respond: OK });
    const origin = new URL(kit.server.url(kit.secure));
    const client = kit.client();
    await client.get((c) => {
      c.request.uri = new URL('/parts', origin);
    });
    await client.get((c) => {
      c.request.uri.scheme = origin.protocol.slice(0, -1);
      c.request.uri.host = origin.hostname;
      c.request.uri.port = Number(origin.port);
      c.request.uri.path = '/parts';
      c.request.uri.fragment = 'not-sent';
    });
    expect(kit.server.requests.map((r) => r.target)).toEqual(['/parts', '/parts']);
  });

  it('credentials in a URL are removed from it', async () => {
    kit.server.expect({ method: 'GET', path: '/creds', respond: OK });
    let seenUrl = '';
    const origin = new URL(kit.server.url(kit.secure));
    await kit.client().get((c) => {
      c.request.uri = `${origin.protocol}//user:secret@${origin.host}/creds`;
      c.execution.interceptor('GET', (request, next) => {
        seenUrl = request.url;
        return next(request);
      });
    });
    expect(seenUrl).toBe(`${origin.origin}/creds`);
    expect(kit.server.requests[0].matched).toBe(true);
  });
});

conformance('URIs: a whole URL may carry any path', (kit) => {
  it('a URL whose path starts with // keeps it (only uri.path may not change the origin)', async () => {
    kit.server.expect({ method: 'GET', path: '//double', respond: OK });
    await kit.client().get((c) => void (c.request.uri = `${kit.server.url(kit.secure)}//double`));
    expect(kit.server.requests[0].target).toBe('//double');
  });
});

// Another origin (same host and scheme, another port) that nothing may reach through a path.
const elsewhere = useTestServer();

conformance('base URL safety: only request.uri changes the origin', (kit) => {
  const otherAuthority = () => new URL(elsewhere.server.url(kit.secure)).host;
  const cases: Array<[string, RegExp, ConfigBlock]> = [
    ["uri.path '//host:port/x'", /uri.path '\/\/127\.0\.0\.1:\d+\/x' would change the origin/, (c) => void (c.request.uri.path = `//${otherAuthority()}/x`)],
    [
      'uri.path with a scheme',
      /uri.path 'https?:\/\/127\.0\.0\.1:\d+\/x' would change the origin/,
      (c) => void (c.request.uri.path = `${elsewhere.server.url(kit.secure)}/x`),
    ],
    [
      'uri.path with an upper-case scheme',
      /uri.path 'HTTPS?:\/\/.*' would change the origin/,
      (c) => void (c.request.uri.path = `${elsewhere.server.url(kit.secure).toUpperCase()}/x`),
    ],
    [
      'uri.path with a scheme and no slashes',
      /uri.path 'https?:127\.0\.0\.1:\d+\/x' would change the origin/,
      (c) => void (c.request.uri.path = `${kit.secure ? 'https' : 'http'}:${otherAuthority()}/x`),
    ],
    [
      "request.raw '//host:port/x'",
      /request.raw '\/\/127\.0\.0\.1:\d+\/x' must start with a single '\/'/,
      (c) => void (c.request.raw = `//${otherAuthority()}/x`),
    ],
    [
      'request.raw with a scheme',
      /request.raw 'https?:\/\/127\.0\.0\.1:\d+\/x' must start with a single '\/'/,
      (c) => void (c.request.raw = `${elsewhere.server.url(kit.secure)}/x`),
    ],
  ];
  for (const [what, culprit, block] of cases) {
    it(`${what} rejects with ConfigError, and nothing is sent anywhere`, async () => {
      elsewhere.server.expect({ method: 'GET', path: '/x', respond: OK });
      const error = await kit
        .client((c) => c.request.auth.basic('alice', 'secret', { preemptive: true }))
        .get(block)
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toMatch(culprit);
      expect([kit.server.requests.length, elsewhere.server.requests.length]).toEqual([0, 0]);
    });
  }

  it('a client block with such a path fails when the client is configured', () => {
    const origin = kit.server.url(kit.secure);
    expect(() => HttpBuilder.configure((c) => Object.assign(c.request, { uri: origin }) && void (c.request.uri.path = `//${otherAuthority()}/x`))).toThrow(
      ConfigError,
    );
    expect(() => kit.client().configure((c) => void (c.request.uri.path = 'https://other.example/x'))).toThrow(/would change the origin/);
  });

  it('backslashes, @ and a scheme-like word inside a path stay on the configured origin', async () => {
    const paths: Array<[string, string]> = [
      ['\\\\other.example/x', '/api/%5C%5Cother.example/x'],
      ['/\\other.example/x', '/%5Cother.example/x'],
      ['@other.example/x', '/api/@other.example/x'],
      ['javascript:alert(1)', '/api/javascript:alert(1)'],
    ];
    for (const [, target] of paths) kit.server.expect({ method: 'GET', path: target, respond: OK });
    const client = kit.client((c) => void (c.request.uri.path = '/api'));
    for (const [path] of paths) await client.get((c) => void (c.request.uri.path = path));
    expect(kit.server.requests.map((r) => [r.secure, r.target])).toEqual(paths.map(([, target]) => [kit.secure, target]));
    expect(elsewhere.server.requests).toHaveLength(0);
  });

  it('setting request.uri to a whole URL is what changes the origin (path and query included)', async () => {
    elsewhere.server.expect({ method: 'GET', path: '/x', query: { q: '1' }, respond: OK });
    const client = kit.client((c) => void (c.request.uri.path = '/api'));
    expect(await client.get((c) => void (c.request.uri = `${elsewhere.server.url(kit.secure)}/x?q=1`))).toBe('ok');
    expect([kit.server.requests.length, elsewhere.server.requests.length]).toEqual([0, 1]);
  });
});
