import { expect, it } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { EncodeError, type ConfigBlock, type HttpConfig } from '../../lib/index.js';
import type { RecordedRequest } from '../support/test-server.js';
import { conformance, VERBS } from './kit.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const OK = { headers: { 'Content-Type': 'text/plain' }, body: 'ok' };
// Host and Connection are HTTP/1.1's own; every other header must be one the caller asked for
const TRANSPORT = ['host', 'connection'];

function headerNames(request: RecordedRequest, forced: readonly string[]): string[] {
  return request.rawHeaders
    .map(([name]) => name.toLowerCase())
    .filter((name) => !TRANSPORT.includes(name) && !forced.includes(name))
    .sort();
}

conformance('what goes on the wire', (kit) => {
  for (const [verb, method] of VERBS) {
    const framing = ['POST', 'PUT', 'PATCH'].includes(method) ? ['content-length'] : [];
    it(`${method} without body sends only the default headers${framing.length ? ' and Content-Length: 0' : ''}`, async () => {
      kit.server.expect({ method, path: '/wire', respond: OK });
      await kit.client()[verb]((c) => void (c.request.uri.path = '/wire'));
      const [request] = kit.server.requests;
      expect(headerNames(request, kit.traits.forcedHeaders)).toEqual(['accept', 'accept-encoding', ...framing, 'user-agent'].sort());
      expect(request.headers['user-agent']).toBe(`httpbuilder-ts/${version}`);
      expect(request.headers.accept).toBe('*/*');
      if (framing.length) expect(request.headers['content-length']).toBe('0');
      expect(request.chunked).toBe(false);
    });
  }

  it('the caller replaces User-Agent and Accept (any case), and null removes an inherited header', async () => {
    kit.server.expect({ method: 'GET', path: '/wire', respond: OK });
    const client = kit.client((c) => {
      c.request.headers = { 'user-agent': 'mine/1', 'X-Team': 'core', 'X-Drop': 'me' };
    });
    await client.get((c) => {
      c.request.uri.path = '/wire';
      c.request.accept = ['application/json', 'text/plain'];
      c.request.headers = { 'X-TEAM': 'edge', 'x-drop': null };
    });
    const [request] = kit.server.requests;
    expect(request.headers['user-agent']).toBe('mine/1');
    expect(request.headers.accept).toBe('application/json, text/plain');
    expect(request.headers['x-team']).toBe('edge');
    expect(request.headers['x-drop']).toBeUndefined();
    expect(request.rawHeaders.filter(([name]) => name.toLowerCase() === 'x-team')).toEqual([[kit.asSent('X-TEAM'), 'edge']]);
  });

  it('a string body without content type goes as text/plain with Content-Length', async () => {
    kit.server.expect({ method: 'POST', path: '/wire', headers: { 'Content-Type': 'text/plain' }, body: 'hello', respond: OK });
    await kit.client().post((c) => {
      c.request.uri.path = '/wire';
      c.request.body = 'hello';
    });
    expect(kit.server.requests[0].headers['content-length']).toBe('5');
  });

  it('charset is appended to Content-Type only when set, and encodes the text', async () => {
    kit.server.expect({
      method: 'POST',
      path: '/utf8',
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      body: Buffer.from('café', 'utf8'),
      respond: OK,
    });
    kit.server.expect({
      method: 'POST',
      path: '/latin1',
      headers: { 'Content-Type': 'text/plain; charset=iso-8859-1' },
      body: Buffer.from('café', 'latin1'),
      respond: OK,
    });
    kit.server.expect({
      method: 'POST',
      path: '/utf16',
      headers: { 'Content-Type': 'application/json; charset=utf-16le' },
      body: Buffer.from('{"a":"é"}', 'utf16le'),
      respond: OK,
    });
    const client = kit.client();
    const send = (path: string, contentType: string, charset: string, body: unknown) =>
      client.post((c) => {
        c.request.uri.path = path;
        Object.assign(c.request, { contentType, charset, body });
      });
    await send('/utf8', 'text/plain', 'utf-8', 'café');
    await send('/latin1', 'text/plain', 'iso-8859-1', 'café');
    await send('/utf16', 'application/json', 'utf-16le', { a: 'é' });
    expect(kit.server.requests.map((r) => r.matched)).toEqual([true, true, true]);
  });

  it('an unsupported request charset rejects with EncodeError naming it, before sending', async () => {
    const error = await kit
      .client()
      .post((c) => Object.assign(c.request, { contentType: 'text/plain', charset: 'koi8-r', body: 'x' }))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EncodeError);
    expect((error as Error).message).toContain('koi8-r');
    expect(kit.server.requests).toHaveLength(0);
  });

  const uploads: Array<[string, () => unknown, boolean]> = [
    ['Buffer', () => Buffer.from('raw-bytes'), false],
    ['Uint8Array', () => new TextEncoder().encode('raw-bytes'), false],
    ['Blob', () => new Blob(['raw-', 'bytes']), false],
    ['Readable', () => Readable.from([Buffer.from('raw-'), Buffer.from('bytes')]), true],
    ['web ReadableStream', () => ReadableStream.from([new TextEncoder().encode('raw-'), new TextEncoder().encode('bytes')]), true],
  ];
  for (const [kind, make, chunked] of uploads) {
    it(`a ${kind} upload is sent as is (${chunked ? 'chunked' : 'Content-Length'}), as application/octet-stream by default`, async () => {
      kit.server.expect({ method: 'PUT', path: '/upload', headers: { 'Content-Type': 'application/octet-stream' }, body: 'raw-bytes', respond: OK });
      await kit.client().put((c) => {
        c.request.uri.path = '/upload';
        c.request.body = make();
      });
      const [request] = kit.server.requests;
      expect(request.matched).toBe(true);
      expect(request.chunked).toBe(chunked);
      expect(request.headers['content-length']).toBe(chunked ? undefined : '9');
    });
  }

  it('a raw upload keeps its bytes even when the content type is JSON', async () => {
    kit.server.expect({ method: 'POST', path: '/upload', headers: { 'Content-Type': 'application/json' }, body: '{"pre":"encoded"}', respond: OK });
    await kit.client().post((c) => {
      c.request.uri.path = '/upload';
      c.request.contentType = 'application/json';
      c.request.body = Buffer.from('{"pre":"encoded"}');
    });
    expect(kit.server.requests[0].matched).toBe(true);
  });

  it('a GET with a streamed body sends it chunked (or, where the transport refuses, rejects before sending)', async () => {
    kit.server.expect({ method: 'GET', path: '/get-body', body: 'streamed', respond: OK });
    const sent = kit.client().get((c) => {
      c.request.uri.path = '/get-body';
      c.request.body = Readable.from([Buffer.from('streamed')]);
    });
    if (!kit.traits.bodyOnGetAndHead) {
      await expect(sent).rejects.toThrow(/cannot send a body with GET/);
      expect(kit.server.requests).toHaveLength(0);
      return;
    }
    await sent;
    expect(kit.server.requests[0].chunked).toBe(true);
    expect(kit.server.requests[0].matched).toBe(true);
  });

  it('the headers a transport forces are exactly the documented ones', async () => {
    kit.server.expect({ method: 'GET', path: '/forced', respond: OK });
    await kit.client().get((c) => void (c.request.uri.path = '/forced'));
    const names = kit.server.requests[0].rawHeaders.map(([name]) => name.toLowerCase());
    const extra = names.filter((name) => ![...TRANSPORT, 'accept', 'accept-encoding', 'user-agent'].includes(name));
    expect(extra.sort()).toEqual([...kit.traits.forcedHeaders].sort());
  });

  it('the default headers, removed, are left out (fetch fills in its own: documented)', async () => {
    kit.server.expect({ method: 'GET', path: '/no-defaults', respond: OK });
    await kit.client().get((c) => {
      c.request.uri.path = '/no-defaults';
      Object.assign(c.request.headers, { 'User-Agent': null, Accept: null, 'Accept-Encoding': null });
    });
    const { headers } = kit.server.requests[0];
    const sent = Object.fromEntries(['user-agent', 'accept', 'accept-encoding'].filter((name) => name in headers).map((name) => [name, headers[name]]));
    expect(sent).toEqual(kit.traits.defaultsWhenRemoved(kit.secure));
  });

  it(`a path with '..' segments ${kit.traits.refusesDotSegments ? 'is refused before sending (fetch would resolve them: documented)' : 'goes out as written'}`, async () => {
    kit.server.expect({ method: 'GET', path: '/a/../b', respond: OK });
    const sent = kit.client().get((c) => {
      c.request.uri.path = '/a/../b';
      c.request.uri.query = { token: 'S3CRET' };
    });
    if (kit.traits.refusesDotSegments) {
      // the paths only: the query (a token, here) stays out of the message
      await expect(sent).rejects.toThrow(/^the request path '\/a\/\.\.\/b' \(uri.path or request.raw\) would be sent as '\/b' by fetch, which/);
      expect(kit.server.requests).toHaveLength(0);
    } else {
      await sent;
      expect(kit.server.requests[0].target).toBe('/a/../b?token=S3CRET');
    }
  });

  it('a content type that names the same charset as request.charset goes out once, as given', async () => {
    kit.server.expect({
      method: 'POST',
      path: '/same-charset',
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      body: Buffer.from('café', 'utf8'),
      respond: OK,
    });
    await kit.client().post((c) =>
      Object.assign(c.request, {
        uri: kit.server.url(kit.secure) + '/same-charset',
        contentType: 'text/plain; charset=utf-8',
        charset: 'UTF-8',
        body: 'café',
      }),
    );
    expect(kit.server.requests[0].matched).toBe(true);
  });

  it('Connection: close and keep-alive, and number, boolean and bigint header and cookie values, go out on every backend', async () => {
    kit.server.expect({ method: 'GET', path: '/values', respond: OK });
    for (const connection of ['close', 'keep-alive']) {
      await kit.client().get((c) => {
        c.request.uri.path = '/values';
        Object.assign(c.request.headers, { Connection: connection, 'X-Num': 42, 'X-Bool': true, 'X-Big': 10n });
        c.request.cookies = { n: 7, b: false };
      });
    }
    for (const { headers } of kit.server.requests) {
      expect([headers['x-num'], headers['x-bool'], headers['x-big'], headers.cookie]).toEqual(['42', 'true', '10', 'n=7; b=false']);
    }
    expect(kit.server.requests).toHaveLength(2);
  });

  it("a POST's own headers, Connection: close among them, go out beside its framing on every backend", async () => {
    kit.server.expect({ method: 'POST', path: '/posted-values', respond: OK });
    await kit.client().post((c) => {
      c.request.uri.path = '/posted-values';
      Object.assign(c.request.headers, { Connection: 'close', 'X-Num': 42 });
      c.request.contentType = 'text/plain';
      c.request.body = 'hello';
    });
    const { headers } = kit.server.requests[0];
    // HTTP/2 has no Connection header (RFC 9113 §8.2.2): the connection is the session's, so it is left out
    expect([headers.connection, headers['x-num'], headers['content-type'], headers['content-length'], headers['transfer-encoding']]).toEqual([
      kit.http2 ? undefined : 'close',
      '42',
      'text/plain',
      '5',
      undefined,
    ]);
  });

  const HOP_HEADERS: Array<[string, string]> = [
    ['Host', 'virtual.example'],
    ['Expect', '100-continue'],
    ['Keep-Alive', 'timeout=5'],
    ['Upgrade', 'h2c'],
    ['Connection', 'upgrade'],
  ];
  // Host over TLS would also name the server (SNI), and Upgrade asks the server to switch protocols: of those a backend
  // does not refuse, only Expect and Keep-Alive are sent
  const refused = kit.traits.refusedHopHeaders;
  for (const [name, value] of HOP_HEADERS.filter(([hop]) => refused.includes(hop) || hop === 'Expect' || hop === 'Keep-Alive')) {
    it(`a '${name}' header ${refused.includes(name) ? 'is refused before sending (fetch, undici: documented)' : 'goes out as set'}`, async () => {
      kit.server.expect({ method: 'GET', path: '/hop', respond: OK });
      const sent = kit.client().get((c) => {
        c.request.uri.path = '/hop';
        c.request.headers[name] = value;
      });
      if (refused.includes(name)) {
        await expect(sent).rejects.toThrow(new RegExp(`the ${kit.backend} backend cannot send header '${name}`));
        expect(kit.server.requests).toHaveLength(0);
      } else {
        await sent;
        // Keep-Alive is about an HTTP/1.1 connection: HTTP/2 forbids it, and it is left out there
        expect(kit.server.requests[0].headers[name.toLowerCase()]).toBe(kit.http2 && name === 'Keep-Alive' ? undefined : value);
      }
    });
  }

  // a client's own headers are one shared object for all its requests (the fetch backend hands fetch a Headers made from it once)
  it("a client's headers go out on every request, names as written, and a request's own header goes with them", async () => {
    for (let i = 0; i < 3; i++) kit.server.expect({ method: 'GET', path: '/shared', respond: OK });
    const client = kit.client((c) => {
      c.request.headers['X-Client-Id'] = 'c-1';
    });
    await client.get((c) => void (c.request.uri.path = '/shared'));
    await client.get((c) => {
      c.request.uri.path = '/shared';
      c.request.headers['X-Request-Id'] = 'r-2';
    });
    await client.get((c) => void (c.request.uri.path = '/shared'));
    const sent = kit.server.requests.map((request) => request.rawHeaders.filter(([name]) => name.toLowerCase().startsWith('x-')));
    const client1 = [kit.asSent('X-Client-Id'), 'c-1'];
    expect(sent).toEqual([[client1], [client1, [kit.asSent('X-Request-Id'), 'r-2']], [client1]]);
  });

  it("a client's header with CR LF in its value is refused on every request, with and without a body", async () => {
    const client = kit.client((c) => {
      c.request.headers['X-Bad'] = 'a\r\nInjected: yes';
    });
    for (let i = 0; i < 2; i++) {
      await expect(client.get((c) => void (c.request.uri.path = '/bad'))).rejects.toThrow(/header 'X-Bad' has a character not allowed/);
      await expect(client.post((c) => Object.assign(c.request, { contentType: 'text/plain', body: 'x' }))).rejects.toThrow(
        /header 'X-Bad' has a character not allowed/,
      );
    }
    expect(kit.server.requests).toHaveLength(0);
  });

  if (kit.traits.refusedHopHeaders.includes('Upgrade')) {
    it("a client's 'Upgrade' header is refused on every request, not only the first (fetch, undici: documented)", async () => {
      const client = kit.client((c) => {
        c.request.headers.Upgrade = 'h2c';
      });
      for (let i = 0; i < 2; i++)
        await expect(client.get((c) => void (c.request.uri.path = '/hop'))).rejects.toThrow(
          new RegExp(`the ${kit.backend} backend cannot send header 'Upgrade'`),
        );
      expect(kit.server.requests).toHaveLength(0);
    });
  }

  it('a form body is urlencoded, lists repeating the name', async () => {
    kit.server.expect({ method: 'POST', path: '/form', body: 'username=bobvila&password=old+house&tag=a&tag=b', respond: OK });
    await kit.client().post((c) => {
      c.request.uri.path = '/form';
      c.request.contentType = 'application/x-www-form-urlencoded';
      c.request.body = { username: 'bobvila', password: 'old house', tag: ['a', 'b'] };
    });
    expect(kit.server.requests[0].matched).toBe(true);
  });

  it('a custom encoder registered for a content type is used', async () => {
    kit.server.expect({ method: 'POST', path: '/yaml', headers: { 'Content-Type': 'text/yaml' }, body: 'a: 1\n', respond: OK });
    const client = kit.client((c) => {
      c.request.encoder('text/yaml', (body) =>
        Object.entries(body as object)
          .map(([k, v]) => `${k}: ${String(v)}\n`)
          .join(''),
      );
    });
    await client.post((c) => {
      c.request.uri.path = '/yaml';
      c.request.contentType = 'text/yaml';
      c.request.body = { a: 1 };
    });
    expect(kit.server.requests[0].matched).toBe(true);
  });

  it("a client's encoder stays as configured when the block's kept config is changed afterwards; a request's own wins for that request only", async () => {
    for (let i = 0; i < 3; i++) kit.server.expect({ method: 'POST', path: '/yaml', respond: OK });
    let kept: HttpConfig | undefined;
    const client = kit.client((c) => {
      c.request.encoder('text/yaml', () => 'client');
      kept = c;
    });
    kept!.request.encoder('text/yaml', () => 'changed afterwards');
    const post = (block?: ConfigBlock) =>
      client.post((c) => {
        c.request.uri.path = '/yaml';
        c.request.contentType = 'text/yaml';
        c.request.body = { a: 1 };
        block?.call(c, c);
      });
    await post();
    await post((c) => c.request.encoder('text/yaml', () => 'request'));
    await post();
    expect(kit.server.requests.map((request) => request.body.toString())).toEqual(['client', 'request', 'client']);
  });

  it("a caller's Content-Length on a stream is sent instead of chunked, and held to its word", async () => {
    kit.server.expect({ method: 'PUT', path: '/sized', body: 'abc', respond: OK });
    const client = kit.client((c) => void (c.request.uri.path = '/sized'));
    const sized = (length: string, ...chunks: string[]) =>
      client.put((c) => {
        c.request.headers['Content-Length'] = length;
        c.request.body = Readable.from(chunks.map((chunk) => Buffer.from(chunk)));
      });
    await sized('3', 'a', 'bc');
    expect([kit.server.requests[0].chunked, kit.server.requests[0].headers['content-length']]).toEqual([false, '3']);
    // a longer body would smuggle its excess in as a second request on the connection
    // an EncodeError on every backend (fetch hands it back as the cause of its own error)
    const longer = sized('3', 'abc', 'GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n');
    await expect(longer).rejects.toThrow(/longer than its Content-Length \(3 bytes\)/);
    await expect(longer).rejects.toBeInstanceOf(EncodeError);
    const shorter = sized('5', 'abc');
    await expect(shorter).rejects.toThrow(/3 bytes, shorter than its Content-Length \(5\)/);
    await expect(shorter).rejects.toBeInstanceOf(EncodeError);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(kit.server.requests.map((r) => r.target)).not.toContain('/smuggled');
  });

  it('keeps connections alive: requests in a row reuse the pooled connections', async () => {
    kit.server.expect({ method: 'GET', path: '/ka', respond: OK });
    const client = kit.client((c) => void (c.request.uri.path = '/ka'));
    for (let i = 0; i < 6; i++) await client.get();
    const ports = new Set(kit.server.requests.map((r) => r.remotePort));
    expect(ports.size).toBeLessThanOrEqual(kit.traits.sequentialSockets);
  });
});
