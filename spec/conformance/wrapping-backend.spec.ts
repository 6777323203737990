import { afterEach, expect, it } from '@jest/globals';
import { bufferedBody, type Backend, type WireBody, type WireRequest } from '../../lib/index.js';
import { utf8TextOf } from '../../lib/model/backend.js';
import { backendFor } from '../../lib/backends/registry.js';
import { digestRoute } from '../support/auth/index.js';
import { conformance, type Kit } from './kit.js';

// A backend of the user's own that wraps the kit's one and copies what passes through with a
// spread, as wrappers commonly do: what the copy says must be what happens.
conformance('a backend wrapping another one', (kit) => {
  const inners: Backend[] = [];
  afterEach(async () => {
    await Promise.all(inners.splice(0).map((inner) => inner.close()));
  });

  /** The kit's backend, wrapped by `send`. */
  function wrapping(send: (inner: Backend, request: WireRequest) => ReturnType<Backend['send']>): Backend {
    const inner = innerBackend(kit);
    inners.push(inner);
    return { name: 'wrapping', send: (request) => send(inner, request), close: () => Promise.resolve() };
  }

  it('a request body copied with new bytes sends the new bytes', async () => {
    kit.server.expect({ method: 'POST', path: '/upper', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'ok' } });
    const upper = wrapping((inner, request) => inner.send({ ...request, body: request.body && withBytes(request.body, (text) => text.toUpperCase()) }));
    await kit
      .client((c) => (c.client.backend = upper))
      .post((c) => {
        c.request.uri.path = '/upper';
        c.request.body = 'hello';
      });
    expect(kit.server.requests[0].body.toString()).toBe('HELLO');
  });

  // the fetch backend sends a body that still has its text as that text (fetch encodes it as it
  // sends; bytes it would copy first), and the native one writes it so: every stage that sends a
  // body again must hand over the pipeline's own body, not a copy that lost it
  it('a JSON body reaches the backend as its text on every send: the first, a retry, a 307 hop, a Digest answer, with cookies, upload progress and a log', async () => {
    const json = '{"name":"Ada","tags":["x","y"]}';
    let busy = 1;
    kit.server.expect({
      method: 'POST',
      path: '/flaky',
      respond: (_req, res) => {
        // a cookie for the jar: every later send goes through the jar's copy of the request
        if (busy-- > 0) res.writeHead(503, { 'Set-Cookie': 's=1; Path=/' }).end('busy');
        else res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok');
      },
    });
    kit.server.expect({ method: 'POST', path: '/moved', respond: { status: 307, headers: { Location: '/landed' }, body: '' } });
    kit.server.expect({ method: 'POST', path: '/landed', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'ok' } });
    const digest = digestRoute(kit.server, { user: 'alice', password: 'wonderland', methods: ['POST'] });
    const texts: Array<string | undefined> = [];
    const cookies: Array<string | undefined> = [];
    const recording = wrapping((inner, request) => {
      texts.push(request.body && utf8TextOf(request.body));
      cookies.push(request.headers.Cookie);
      return inner.send(request);
    });
    let uploaded = 0;
    const logged: string[] = [];
    const client = kit.client((c) => {
      c.client.backend = recording;
      c.client.cookies = true;
      c.execution.retry = { limit: 1, methods: ['POST'], statusCodes: [503], backoff: () => 1 };
      c.execution.onUploadProgress = () => void uploaded++;
      c.execution.logger = (line) => void logged.push(line);
      c.request.auth.digest('alice', 'wonderland');
    });
    for (const path of ['/flaky', '/moved', '/digest']) {
      expect(
        await client.post(String, (c) => {
          c.request.uri.path = path;
          c.request.contentType = 'application/json';
          c.request.body = { name: 'Ada', tags: ['x', 'y'] };
        }),
      ).toBe(path === '/digest' ? 'ok-text' : 'ok');
    }
    expect(texts).toEqual(Array(6).fill(json));
    expect(cookies).toEqual([undefined, 's=1', 's=1', 's=1', 's=1', 's=1']);
    expect(uploaded).toBeGreaterThan(0);
    expect(logged.length).toBe(12); // a line out and a line back per send
    expect(kit.server.requests.map((request) => `${request.path} ${request.body.toString()}`)).toEqual(
      ['/flaky', '/flaky', '/moved', '/landed', '/digest', '/digest'].map((path) => `${path} ${json}`),
    );
    expect([digest.challenges, digest.authorized]).toEqual([1, 1]);
  });

  it('a response copied with a spread still reads and releases its body (HEAD, 204, and one left unread)', async () => {
    kit.server.expect({ method: 'HEAD', path: '/copied', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'ok' } });
    kit.server.expect({ method: 'GET', path: '/none', respond: { status: 204 } });
    kit.server.expect({ method: 'GET', path: '/copied', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'copied body' } });
    kit.server.expect({ method: 'GET', path: '/copied', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'copied body' } });
    const copying = wrapping((inner, request) => inner.send(request).then((response) => ({ ...response })));
    const client = kit.client((c) => (c.client.backend = copying));
    expect(await client.head((c) => void (c.request.uri.path = '/copied'))).toBeNull();
    expect(await client.get((c) => void (c.request.uri.path = '/none'))).toBeNull();
    expect(await client.get(String, (c) => void (c.request.uri.path = '/copied'))).toBe('copied body');
    // a handler that never reads the body: the connection is given back all the same
    expect(
      await client.get((c) => {
        c.request.uri.path = '/copied';
        c.response.success(() => 'not read');
      }),
    ).toBe('not read');
  });

  it("the headers handed over are the request's own: read-only, and a copy with more headers sends those", async () => {
    for (let i = 0; i < 3; i++) kit.server.expect({ method: 'GET', path: '/traced', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'ok' } });
    const seen: Array<Readonly<Record<string, string>>> = [];
    let traces = 0;
    const tracing = wrapping((inner, request) => {
      seen.push(request.headers);
      return inner.send({ ...request, headers: { ...request.headers, 'X-Trace': String(++traces) } });
    });
    const client = kit.client((c) => {
      c.client.backend = tracing;
      c.request.headers['X-Client'] = 'yes';
    });
    for (let i = 0; i < 3; i++) expect(await client.get(String, (c) => void (c.request.uri.path = '/traced'))).toBe('ok');
    expect(kit.server.requests.map((request) => [request.headers['x-trace'], request.headers['x-client']])).toEqual([
      ['1', 'yes'],
      ['2', 'yes'],
      ['3', 'yes'],
    ]);
    // the contract says Readonly: a backend that writes into them anyway fails loudly, never changing the next request
    for (const headers of seen) {
      expect(Object.isFrozen(headers)).toBe(true);
      expect(headers['X-Trace']).toBeUndefined();
    }
  });
});

function innerBackend(kit: Kit): Backend {
  return backendFor(kit.backend === 'native' ? 'native' : (kit.backend as 'axios' | 'got' | 'fetch'), { tls: { ca: kit.server.ca }, connection: undefined });
}

/** `body` copied as wrappers do, with its bytes (and everything derived from them) replaced. */
function withBytes(body: WireBody, change: (text: string) => string): WireBody {
  const bytes = new TextEncoder().encode(change(new TextDecoder().decode(body.bytes)));
  return { ...body, bytes, length: bytes.byteLength, [Symbol.asyncIterator]: () => bufferedBody(bytes)[Symbol.asyncIterator]() };
}
