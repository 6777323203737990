import { afterEach, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import { inspect } from 'node:util';
import { HttpBuilder, HttpException, RedirectError, type Backend, type ConfigBlock, type WireRequest } from '../../lib/index.js';
import { backendFor } from '../../lib/backends/registry.js';
import { basicRoute, digestRoute } from '../support/auth/index.js';
import { headerValue, type RecordedRequest } from '../support/recorded-request.js';
import type { Expectation, ResponseSpec } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { conformance, type Kit } from './kit.js';
import { type BackendName } from '../../lib/config/client-config.js';

const OK = { headers: { 'Content-Type': 'text/plain' }, body: 'arrived' };
const USER = { user: 'alice', password: 'wonderland' };
// every byte value, so a body that is re-encoded or cut on the second hop cannot go unnoticed
const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, i) => i));

/** A 3xx with a Location and a small body (which must be discarded, not handed on). */
function redirect(status: number, location: string, headers: Record<string, string | string[]> = {}): ResponseSpec {
  return { status, headers: { Location: location, 'Content-Type': 'text/plain', ...headers }, body: `see ${location}` };
}

/** The request headers a hop carried, by lower-case name (absent = undefined). */
function header(request: RecordedRequest, name: string): string | undefined {
  return headerValue(request.rawHeaders, name);
}

// A second server, for hops to another port of the same host (and scheme); both share the kit's certificate.
const second = useTestServer();

/** The ways a hop's origin can differ from the current one. */
const KINDS = ['listener', 'scheme', 'port', 'host'] as const;
type Kind = (typeof KINDS)[number];

/** Another origin a hop can go to, and where its requests are recorded. */
interface Elsewhere {
  /** e.g. `scheme only (https → http, same host and port)` */
  readonly what: string;
  /** The origin, e.g. `http://127.0.0.1:4321`. */
  readonly origin: string;
  /** The requests that reached that origin. */
  requests(): RecordedRequest[];
  /** Registers an expectation there. */
  expect(expectation: Expectation): void;
  /** A client bound to the kit server (kit.secure) that can reach that origin; closed with the others. */
  client(block?: ConfigBlock): HttpBuilder;
}

/**
 * A transport that sends some URLs somewhere else on 127.0.0.1 (nothing goes anywhere else),
 * the way a DNS entry or a proxy would: the pipeline sees the URL, the socket goes to `route`'s
 * port. So `http://alias.test:<port>` is the kit server under another host name, and
 * `http://127.0.0.1:<https port>` its HTTP listener under the HTTPS listener's port: origins
 * that differ from the kit server's in the host only, or in the scheme only.
 */
function rerouting(inner: Backend, kit: Kit): Backend {
  const [httpPort, httpsPort] = [Number(new URL(kit.server.httpUrl).port), Number(new URL(kit.server.httpsUrl).port)];
  const route = (wire: WireRequest): WireRequest => {
    const url = new URL(wire.url);
    if (url.hostname === 'alias.test') url.hostname = '127.0.0.1';
    // the scheme's own listener, wherever the port points
    const port = wire.secure ? httpsPort : httpPort;
    if (wire.port === httpPort || wire.port === httpsPort) url.port = String(port);
    return { ...wire, url: url.href, hostname: url.hostname, port: Number(url.port) };
  };
  return { name: `${inner.name} (rerouted)`, send: (wire) => inner.send(route(wire)), close: () => inner.close() };
}

/** Where a hop of each kind goes (all on 127.0.0.1), seen from the kit server's `kit.secure` listener. */
function elsewhere(kind: Kind, kit: Kit, opened: HttpBuilder[]): Elsewhere {
  const here = new URL(kit.server.url(kit.secure));
  const otherScheme = kit.secure ? 'http' : 'https';
  const otherListener = (e: Expectation) => kit.server.expect({ ...e, secure: !kit.secure });
  const onOtherListener = () => kit.server.requests.filter((r) => r.secure !== kit.secure);
  const rerouted = (block?: ConfigBlock) => {
    const client = HttpBuilder.configure((c) => {
      c.request.uri = here.href;
      c.client.backend = rerouting(backendFor(kit.backend as BackendName, { tls: { ca: kit.server.ca }, connection: undefined }), kit);
    });
    opened.push(client);
    return block ? client.configure(block) : client;
  };
  switch (kind) {
    case 'listener':
      return {
        what: `scheme and port (${here.protocol.slice(0, -1)} → ${otherScheme}, the other listener)`,
        origin: kit.server.url(!kit.secure),
        requests: onOtherListener,
        expect: otherListener,
        client: (block) => kit.client(block),
      };
    case 'scheme':
      return {
        what: `scheme only (${here.protocol.slice(0, -1)} → ${otherScheme}, same host and port)`,
        origin: `${otherScheme}://${here.host}`,
        requests: onOtherListener,
        expect: otherListener,
        client: rerouted,
      };
    case 'port':
      return {
        what: 'port only (another server)',
        origin: second.server.url(kit.secure),
        requests: () => second.server.requests,
        expect: (e) => second.server.expect(e),
        client: (block) => kit.client(block),
      };
    case 'host':
      return {
        what: 'host only (alias.test, same scheme and port)',
        origin: `${here.protocol}//alias.test:${here.port}`,
        requests: () => kit.server.requests.filter((r) => r.path.startsWith('/there')),
        expect: (e) => kit.server.expect({ ...e, secure: kit.secure }),
        client: rerouted,
      };
  }
}

conformance('redirects: methods and bodies', (kit) => {
  for (const status of [301, 302]) {
    it(`${status}: a POST becomes a GET without body (and without body headers); other headers stay`, async () => {
      kit.server.expect({ method: 'POST', path: '/form', respond: redirect(status, '/done') });
      kit.server.expect({ method: 'GET', path: '/done', respond: OK });
      const result = await kit.client().post((c) => {
        c.request.uri.path = '/form';
        c.request.contentType = 'application/json';
        c.request.body = { a: 1 };
        c.request.headers['X-Keep'] = 'kept';
      });
      expect(result).toBe('arrived');
      const [first, hop] = kit.server.requests;
      expect([first.method, first.body.toString()]).toEqual(['POST', '{"a":1}']);
      expect([hop.method, hop.path, hop.body.length]).toEqual(['GET', '/done', 0]);
      for (const name of ['content-type', 'content-length', 'transfer-encoding']) expect(header(hop, name)).toBeUndefined();
      expect(header(hop, 'x-keep')).toBe('kept');
    });

    it(`${status}: a PUT stays a PUT with its body (only POST is rewritten)`, async () => {
      kit.server.expect({ method: 'PUT', path: '/item', respond: redirect(status, '/item2') });
      kit.server.expect({ method: 'PUT', path: '/item2', body: 'payload', respond: OK });
      expect(await kit.client().put((c) => Object.assign(c.request, { uri: `${kit.server.url(kit.secure)}/item`, body: 'payload' }))).toBe('arrived');
      expect(kit.server.requests.map((r) => r.matched)).toEqual([true, true]);
    });
  }

  for (const [verb, method] of [
    ['post', 'POST'],
    ['put', 'PUT'],
    ['delete', 'DELETE'],
    ['patch', 'PATCH'],
    ['options', 'OPTIONS'],
    ['get', 'GET'],
  ] as const) {
    it(`303: ${method} becomes a GET without body`, async () => {
      kit.server.expect({ method, path: '/see-other', respond: redirect(303, '/other') });
      kit.server.expect({ method: 'GET', path: '/other', body: '', respond: OK });
      expect(
        await kit.client()[verb]((c) => {
          c.request.uri.path = '/see-other';
          if (verb !== 'get' && verb !== 'options') c.request.body = 'payload';
        }),
      ).toBe('arrived');
      expect(kit.server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`${method} /see-other`, 'GET /other']);
      expect(header(kit.server.requests[1], 'content-length')).toBeUndefined();
    });
  }

  it('303: a HEAD stays a HEAD', async () => {
    kit.server.expect({ method: 'HEAD', path: '/see-other', respond: redirect(303, '/other') });
    kit.server.expect({ method: 'HEAD', path: '/other', respond: { headers: { 'X-Final': 'yes' } } });
    const final = await kit.client().head((c) => {
      c.request.uri.path = '/see-other';
      c.response.success((fromServer) => fromServer.headers.get('x-final'));
    });
    expect(final).toBe('yes');
    expect(kit.server.requests.map((r) => r.method)).toEqual(['HEAD', 'HEAD']);
  });

  for (const status of [307, 308]) {
    for (const [verb, method] of [
      ['post', 'POST'],
      ['put', 'PUT'],
      ['patch', 'PATCH'],
    ] as const) {
      it(`${status}: ${method} keeps its method and the identical body bytes`, async () => {
        kit.server.expect({ method, path: '/upload', respond: redirect(status, '/upload2') });
        kit.server.expect({ method, path: '/upload2', body: ALL_BYTES, respond: OK });
        const result = await kit.client()[verb]((c) => {
          c.request.uri.path = '/upload';
          c.request.contentType = 'application/octet-stream';
          c.request.body = ALL_BYTES;
        });
        expect(result).toBe('arrived');
        const [first, hop] = kit.server.requests;
        expect(hop.body.equals(first.body) && hop.body.equals(ALL_BYTES)).toBe(true);
        expect([header(hop, 'content-type'), header(hop, 'content-length')]).toEqual(['application/octet-stream', '256']);
      });
    }

    it(`${status}: a GET stays a GET`, async () => {
      kit.server.expect({ method: 'GET', path: '/a', respond: redirect(status, '/b') });
      kit.server.expect({ method: 'GET', path: '/b', respond: OK });
      expect(await kit.client().get((c) => void (c.request.uri.path = '/a'))).toBe('arrived');
      expect(kit.server.requests.map((r) => r.method)).toEqual(['GET', 'GET']);
    });

    it(`${status}: a streamed body cannot be sent again: the ${status} goes to the handlers (fetch: RedirectError, see traits)`, async () => {
      kit.server.expect({ method: 'POST', path: '/stream', respond: redirect(status, '/stream2') });
      const seen = await kit
        .client()
        .post((c) => {
          c.request.uri.path = '/stream';
          c.request.body = Readable.from([Buffer.from('once')]);
          c.response.when(status, (fromServer) => fromServer.statusCode);
        })
        .catch((e: unknown) => e);
      if (kit.traits.redirectOfStreamedUpload === 'response') expect(seen).toBe(status);
      else expect(seen).toBeInstanceOf(RedirectError);
      expect(kit.server.requests.map((r) => `${r.path} ${r.body.toString()}`)).toEqual(['/stream once']);
    });
  }

  it('303 after a streamed upload: followed as a GET without body (fetch: RedirectError, see traits)', async () => {
    kit.server.expect({ method: 'POST', path: '/upload', respond: redirect(303, '/status') });
    kit.server.expect({ method: 'GET', path: '/status', body: '', respond: OK });
    const result = await kit
      .client()
      .post((c) => {
        c.request.uri.path = '/upload';
        c.request.body = Readable.from([Buffer.from('streamed')]);
      })
      .catch((e: unknown) => e);
    if (kit.traits.redirectOfStreamedUpload === 'response') {
      expect(result).toBe('arrived');
      expect(kit.server.requests.map((r) => `${r.method} ${r.path} ${r.body.toString()}`)).toEqual(['POST /upload streamed', 'GET /status ']);
    } else {
      expect(result).toBeInstanceOf(RedirectError);
      expect(kit.server.requests.map((r) => `${r.method} ${r.path} ${r.body.toString()}`)).toEqual(['POST /upload streamed']);
    }
  });

  it('a 3xx whose body stalls is not waited for: the next hop goes out', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/stalls',
      respond: (_req, res) => {
        res.writeHead(302, { Location: '/next', 'Content-Type': 'text/plain', 'Content-Length': '100' });
        res.write('only ten b'); // and never the other 90
      },
    });
    kit.server.expect({ method: 'GET', path: '/chunked-stalls', respond: (_req, res) => void res.writeHead(302, { Location: '/next' }).write('never ends') });
    kit.server.expect({ method: 'GET', path: '/next', respond: OK });
    const client = kit.client((c) => void (c.execution.timeout = { total: 5000 }));
    expect(await client.get((c) => void (c.request.uri.path = '/stalls'))).toBe('arrived');
    expect(await client.get((c) => void (c.request.uri.path = '/chunked-stalls'))).toBe('arrived');
  });

  it('a 3xx without Location goes to the handlers', async () => {
    kit.server.expect({ method: 'GET', path: '/nowhere', respond: { status: 302, headers: { 'Content-Type': 'text/plain' }, body: 'no location' } });
    expect(await kit.client().get((c) => void (c.request.uri.path = '/nowhere'))).toBe('no location');
    expect(kit.server.requests).toHaveLength(1);
  });

  it('300 and 304 are not followed', async () => {
    kit.server.expect({ method: 'GET', path: '/choices', respond: redirect(300, '/b') });
    kit.server.expect({ method: 'GET', path: '/cached', respond: { status: 304, headers: { Location: '/b' } } });
    const client = kit.client((c) => c.response.success((fromServer) => fromServer.statusCode));
    expect([await client.get((c) => void (c.request.uri.path = '/choices')), await client.get((c) => void (c.request.uri.path = '/cached'))]).toEqual([
      300, 304,
    ]);
    expect(kit.server.requests.map((r) => r.path)).toEqual(['/choices', '/cached']);
  });
});

conformance('redirects: Location, hop count, follow: false', (kit) => {
  const locations: Array<[string, string, string]> = [
    ['a relative path', 'next?x=1', '/dir/next?x=1'],
    ['a dot-dot path', '../up/there', '/up/there'],
    ['an absolute path', '/top', '/top'],
    ['a query only', '?page=2', '/dir/page?page=2'],
  ];
  for (const [what, location, target] of locations) {
    it(`a Location with ${what} ('${location}') resolves against the current URL`, async () => {
      kit.server.expect({ method: 'GET', path: '/dir/page', query: {}, respond: redirect(302, location) });
      kit.server.expect({ method: 'GET', path: target.split('?')[0], respond: OK });
      expect(await kit.client().get((c) => void (c.request.uri.path = '/dir/page'))).toBe('arrived');
      expect(kit.server.requests.map((r) => r.target)).toEqual(['/dir/page', target]);
    });
  }

  it('a Location sent as raw UTF-8 bytes is read as UTF-8 (as browsers do); a Latin-1 one as Latin-1', async () => {
    // what a server writes when it puts `/café/☃?q=ü` in the header as UTF-8: node sends these bytes as they are
    const utf8 = Buffer.from('/caf\u00e9/\u2603?q=\u00fc').toString('latin1');
    kit.server.expect({ method: 'GET', path: '/utf8', respond: redirect(302, utf8) });
    kit.server.expect({ method: 'GET', path: '/latin1', respond: redirect(302, '/caf\u00e9/x') });
    kit.server.expect({ method: 'GET', path: '/caf%C3%A9/%E2%98%83', respond: OK });
    kit.server.expect({ method: 'GET', path: '/caf%C3%A9/x', respond: OK });
    const client = kit.client();
    expect(await client.get((c) => void (c.request.uri.path = '/utf8'))).toBe('arrived');
    expect(await client.get((c) => void (c.request.uri.path = '/latin1'))).toBe('arrived');
    expect(kit.server.requests.map((r) => r.target)).toEqual(['/utf8', '/caf%C3%A9/%E2%98%83?q=%C3%BC', '/latin1', '/caf%C3%A9/x']);
  });

  it('the body of each 3xx is discarded so its connection is reused', async () => {
    for (let i = 0; i < 5; i++) kit.server.expect({ method: 'GET', path: `/r/${i}`, respond: redirect(302, `/r/${i + 1}`) });
    kit.server.expect({ method: 'GET', path: '/r/5', respond: OK });
    expect(await kit.client().get((c) => void (c.request.uri.path = '/r/0'))).toBe('arrived');
    expect(new Set(kit.server.requests.map((r) => r.remotePort)).size).toBeLessThanOrEqual(kit.traits.sequentialSockets);
  });

  it('a scheme-relative Location (//host:port/path) keeps the scheme', async () => {
    const authority = new URL(kit.server.url(kit.secure)).host;
    kit.server.expect({ method: 'GET', path: '/from', respond: redirect(302, `//${authority}/to`) });
    kit.server.expect({ method: 'GET', path: '/to', secure: kit.secure, respond: OK });
    expect(await kit.client().get((c) => void (c.request.uri.path = '/from'))).toBe('arrived');
  });

  it('fromServer.uri of the final response is the last URL; the fragment of a Location is not sent', async () => {
    kit.server.expect({ method: 'GET', path: '/one', respond: redirect(301, '/two') });
    kit.server.expect({ method: 'GET', path: '/two', respond: redirect(302, '/three?q=1#frag') });
    kit.server.expect({ method: 'GET', path: '/three', respond: OK });
    const uri = await kit.client().get((c) => {
      c.request.uri.path = '/one';
      c.response.success((fromServer) => fromServer.uri);
    });
    expect(uri).toBe(`${kit.server.url(kit.secure)}/three?q=1`);
    expect(kit.server.requests.map((r) => r.target)).toEqual(['/one', '/two', '/three?q=1']);
  });

  /** /hop/0 → /hop/1 → ... → /hop/<hops> (200). */
  function chain(hops: number): void {
    for (let i = 0; i < hops; i++) kit.server.expect({ method: 'GET', path: `/hop/${i}`, respond: redirect(302, `/hop/${i + 1}`) });
    kit.server.expect({ method: 'GET', path: `/hop/${hops}`, respond: OK });
  }

  for (const max of [0, 1, 3, undefined]) {
    const hops = max ?? 10;
    it(`max ${max ?? '(default 10)'}: exactly ${hops} hops are followed; one more rejects with RedirectError`, async () => {
      const client = kit.client((c) => {
        c.request.uri.path = '/hop/0';
        if (max !== undefined) c.execution.redirects = { max };
      });
      chain(hops);
      expect(await client.get()).toBe('arrived');
      expect(kit.server.requests).toHaveLength(hops + 1);
      const ports = kit.server.requests.map((r) => r.remotePort);
      kit.server.reset();
      chain(hops + 1);
      const error = await client.get().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedirectError);
      expect((error as RedirectError).code).toBe('ERR_REDIRECT');
      expect((error as Error).message).toMatch(new RegExp(`more than ${hops} redirects`));
      // the hop that went over the limit was never requested
      expect(kit.server.requests.map((r) => r.path)).toEqual(Array.from({ length: hops + 1 }, (_, i) => `/hop/${i}`));
      // every 3xx body was read to its end: one connection served all the hops of both calls
      expect(new Set([...ports, ...kit.server.requests.map((r) => r.remotePort)]).size).toBeLessThanOrEqual(kit.traits.sequentialSockets);
    });
  }

  it('a redirect loop ends with RedirectError', async () => {
    kit.server.expect({ method: 'GET', path: '/loop', respond: redirect(302, '/loop') });
    await expect(kit.client().get((c) => void (c.request.uri.path = '/loop'))).rejects.toBeInstanceOf(RedirectError);
    expect(kit.server.requests).toHaveLength(11);
  });

  it('follow: false hands the 3xx to the handlers, with its Location', async () => {
    kit.server.expect({ method: 'POST', path: '/moved', respond: redirect(302, '/elsewhere') });
    const client = kit.client((c) => void (c.execution.redirects = { follow: false }));
    const seen = await client.post((c) => {
      c.request.uri.path = '/moved';
      c.response.when(302, (fromServer, body) => [fromServer.statusCode, fromServer.headers.get('location'), body]);
    });
    expect(seen).toEqual([302, '/elsewhere', 'see /elsewhere']);
    // without a when(302): the default success handler returns the body
    expect(await client.post((c) => void (c.request.uri.path = '/moved'))).toBe('see /elsewhere');
    expect(kit.server.requests.map((r) => r.path)).toEqual(['/moved', '/moved']);
  });

  it('a request block can turn following back on over a client that turned it off', async () => {
    kit.server.expect({ method: 'GET', path: '/a', respond: redirect(307, '/b') });
    kit.server.expect({ method: 'GET', path: '/b', respond: OK });
    const client = kit.client((c) => void (c.execution.redirects = { follow: false }));
    const result = await client.get((c) => {
      c.request.uri.path = '/a';
      c.execution.redirects = { follow: true };
    });
    expect(result).toBe('arrived');
  });

  const badSchemes: Array<[string, string]> = [
    ['file', 'file:///etc/passwd'],
    ['javascript', 'javascript:alert(1)'],
    ['data', 'data:text/plain,hi'],
    ['ftp', 'ftp://127.0.0.1/x'],
  ];
  for (const [scheme, location] of badSchemes) {
    it(`a Location with the ${scheme}: scheme rejects with RedirectError, nothing more is sent`, async () => {
      kit.server.expect({ method: 'GET', path: '/bad', respond: redirect(302, location) });
      const error = await kit
        .client()
        .get((c) => void (c.request.uri.path = '/bad'))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedirectError);
      expect((error as Error).message).toContain(`'${scheme}'`);
      expect(kit.server.requests).toHaveLength(1);
    });

    it(`a refused ${scheme}: Location leaves its connection free for the next request`, async () => {
      kit.server.expect({ method: 'GET', path: '/bad', respond: redirect(302, location) });
      kit.server.expect({ method: 'GET', path: '/after', respond: OK });
      const client = kit.client();
      await expect(client.get((c) => void (c.request.uri.path = '/bad'))).rejects.toBeInstanceOf(RedirectError);
      expect(await client.get((c) => void (c.request.uri.path = '/after'))).toBe('arrived');
      expect(new Set(kit.server.requests.map((r) => r.remotePort)).size).toBeLessThanOrEqual(kit.traits.sequentialSockets);
    });
  }

  it('an invalid Location rejects with RedirectError (naming it without its credentials)', async () => {
    kit.server.expect({ method: 'GET', path: '/bad', respond: redirect(302, 'http://bob:loc-secret@exa mple/x') });
    const error = await kit
      .client()
      .get((c) => void (c.request.uri.path = '/bad'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect((error as Error).message).toMatch(/invalid Location/);
    expect(inspect(error) + JSON.stringify(error)).not.toContain('loc-secret');
  });

  it('credentials in a Location are never sent', async () => {
    const authority = new URL(kit.server.url(kit.secure)).host;
    const scheme = kit.secure ? 'https' : 'http';
    kit.server.expect({ method: 'GET', path: '/from', respond: redirect(302, `${scheme}://mallory:pw@${authority}/to`) });
    kit.server.expect({ method: 'GET', path: '/to', respond: OK });
    expect(await kit.client().get((c) => void (c.request.uri.path = '/from'))).toBe('arrived');
    expect(header(kit.server.requests[1], 'authorization')).toBeUndefined();
  });
});

conformance('redirects: credentials and sensitive headers across origins', (kit) => {
  const opened: HttpBuilder[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((client) => client.close()));
  });
  const there = (kind: Kind) => elsewhere(kind, kit, opened);

  /** Headers that must not leave the origin they were set for. */
  const sensitive: ConfigBlock = (c) => {
    c.request.headers.Authorization = 'Bearer t0p-secret';
    c.request.headers['Proxy-Authorization'] = 'Basic cHJveHk6c2VjcmV0';
    c.request.headers['X-Api-Key'] = 'key-secret';
    c.request.headers['X-Other'] = 'plain';
    c.request.cookie('sid', 'cookie-secret');
    c.execution.redirects = { sensitiveHeaders: ['X-API-KEY'] };
  };

  it('a same-origin hop keeps Authorization, Proxy-Authorization, Cookie and the sensitive headers', async () => {
    kit.server.expect({ method: 'GET', path: '/here', respond: redirect(302, '/there') });
    kit.server.expect({ method: 'GET', path: '/there', respond: OK });
    expect(await kit.client(sensitive).get((c) => void (c.request.uri.path = '/here'))).toBe('arrived');
    const [, hop] = kit.server.requests;
    expect([header(hop, 'authorization'), header(hop, 'proxy-authorization'), header(hop, 'cookie'), header(hop, 'x-api-key'), header(hop, 'x-other')]).toEqual(
      ['Bearer t0p-secret', 'Basic cHJveHk6c2VjcmV0', 'sid=cookie-secret', 'key-secret', 'plain'],
    );
  });

  for (const kind of KINDS) {
    it(`a hop to another ${kind} drops Authorization, Proxy-Authorization, Cookie and the sensitive headers`, async () => {
      const other = there(kind);
      other.expect({ method: 'GET', path: '/there', respond: OK });
      kit.server.expect({ method: 'GET', path: '/here', secure: kit.secure, respond: redirect(302, `${other.origin}/there`) });
      expect(await other.client(sensitive).get((c) => void (c.request.uri.path = '/here'))).toBe('arrived');
      const hops = other.requests();
      expect([other.what, hops.length]).toEqual([other.what, 1]);
      for (const name of ['authorization', 'proxy-authorization', 'cookie', 'x-api-key'])
        expect([other.what, name, header(hops[0], name)]).toEqual([other.what, name, undefined]);
      expect(header(hops[0], 'x-other')).toBe('plain');
      // and the first hop did carry them all
      expect(kit.server.requests.filter((r) => r.path === '/here').map((r) => header(r, 'x-api-key'))).toEqual(['key-secret']);
    });

    it(`307/308 with a body to another ${kind} is not followed (the 3xx goes to the handlers); without a body, or after a 303, it is`, async () => {
      const other = there(kind);
      other.expect({ method: 'POST', path: '/there', respond: OK });
      other.expect({ method: 'GET', path: '/there', respond: OK });
      kit.server.expect({ method: 'POST', path: '/here', secure: kit.secure, respond: redirect(307, `${other.origin}/there`) });
      kit.server.expect({ method: 'PUT', path: '/here', secure: kit.secure, respond: redirect(308, `${other.origin}/there`) });
      kit.server.expect({ method: 'GET', path: '/here', secure: kit.secure, respond: redirect(308, `${other.origin}/there`) });
      kit.server.expect({ method: 'POST', path: '/here303', secure: kit.secure, respond: redirect(303, `${other.origin}/there`) });
      const client = other.client((c) => c.response.when(307, (fromServer) => [fromServer.statusCode, fromServer.headers.get('location'), fromServer.uri]));
      const posted = await client.post((c) => {
        c.request.uri.path = '/here';
        c.request.body = 'private payload';
      });
      expect(posted).toEqual([307, `${other.origin}/there`, `${kit.server.url(kit.secure)}/here`]);
      const put = await client.put((c) => {
        c.request.uri.path = '/here';
        c.request.body = 'private payload';
        c.response.when(308, (fromServer) => fromServer.statusCode);
      });
      expect(put).toBe(308);
      expect(other.requests()).toHaveLength(0);
      // no body: followed
      expect(await client.get((c) => void (c.request.uri.path = '/here'))).toBe('arrived');
      // 303 drops the body, so the hop carries nothing to protect
      expect(await client.post((c) => Object.assign(c.request, { uri: `${kit.server.url(kit.secure)}/here303`, body: 'private payload' }))).toBe('arrived');
      expect(other.requests().map((r) => `${r.method} ${r.body.length}`)).toEqual(['GET 0', 'GET 0']);
    });
  }

  it("a caller's request cookies do not follow a hop to another origin", async () => {
    const other = there('port');
    other.expect({ method: 'GET', path: '/there', cookies: {}, respond: OK });
    kit.server.expect({ method: 'GET', path: '/here', cookies: { a: '1', b: '2' }, respond: redirect(302, `${other.origin}/there`) });
    const result = await kit
      .client((c) => void (c.request.cookies = { a: '1' }))
      .get((c) => {
        c.request.uri.path = '/here';
        c.request.cookie('b', '2');
      });
    expect(result).toBe('arrived');
    expect([...kit.server.requests, ...other.requests()].map((r) => r.matched)).toEqual([true, true]);
  });

  it('headers dropped on the way out stay dropped when a later hop comes back to the first origin', async () => {
    const other = there('port');
    const back = `${kit.server.url(kit.secure)}/back`;
    other.expect({ method: 'GET', path: '/there', respond: redirect(302, back) });
    kit.server.expect({ method: 'GET', path: '/here', respond: redirect(302, `${other.origin}/there`) });
    kit.server.expect({ method: 'GET', path: '/back', respond: OK });
    expect(await kit.client(sensitive).get((c) => void (c.request.uri.path = '/here'))).toBe('arrived');
    const last = kit.server.requests[1];
    expect([last.path, header(last, 'authorization'), header(last, 'cookie'), header(last, 'x-api-key')]).toEqual(['/back', undefined, undefined, undefined]);
  });

  for (const scheme of ['basic', 'digest'] as const) {
    const route = scheme === 'basic' ? basicRoute : digestRoute;
    it(`${scheme}: credentials are answered after a same-origin hop`, async () => {
      const stats = route(kit.server, USER);
      kit.server.expect({ method: 'GET', path: '/start', respond: redirect(302, `/${scheme}`) });
      const client = kit.client((c) => c.request.auth[scheme]('alice', 'wonderland'));
      expect(await client.get((c) => void (c.request.uri.path = '/start'))).toBe('ok-text');
      expect([stats.challenges, stats.authorized]).toEqual([1, 1]);
    });

    for (const kind of KINDS) {
      it(`${scheme}: a challenge from another ${kind} is not answered, even for a space that challenged before; its 401 goes to the failure handler`, async () => {
        const other = there(kind);
        // the protection space on the configured origin, and the same kind of route over there
        route(kit.server, { ...USER, path: `/${scheme}`, methods: ['GET'] });
        const foreign = route(kind === 'port' ? second.server : kit.server, { ...USER, path: `/there/${scheme}`, methods: ['GET'] });
        kit.server.expect({ method: 'GET', path: '/start', secure: kit.secure, respond: redirect(302, `${other.origin}/there/${scheme}`) });
        const client = other.client((c) => c.request.auth[scheme]('alice', 'wonderland'));
        expect(await client.get((c) => void (c.request.uri.path = `/${scheme}`))).toBe('ok-text');
        const failed = await client.get((c) => {
          c.request.uri.path = '/start';
          c.response.failure((fromServer) => [fromServer.statusCode, fromServer.uri]);
        });
        expect(failed).toEqual([401, `${other.origin}/there/${scheme}`]);
        expect([foreign.challenges, foreign.authorized, foreign.requests.length]).toEqual([1, 0, 1]);
        // without a failure handler: HttpException 401
        const error = await client.get((c) => void (c.request.uri.path = '/start')).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(HttpException);
        expect((error as HttpException).statusCode).toBe(401);
        expect(other.requests().map((r) => [r.path, header(r, 'authorization')])).toEqual([
          [`/there/${scheme}`, undefined],
          [`/there/${scheme}`, undefined],
        ]);
      });
    }
  }

  it('preemptive Basic goes to the configured origin only', async () => {
    const other = there('listener');
    basicRoute(kit.server, { ...USER, path: '/there/basic', methods: ['GET'] });
    kit.server.expect({ method: 'GET', path: '/start', secure: kit.secure, respond: redirect(302, `${other.origin}/there/basic`) });
    const client = kit.client((c) => c.request.auth.basic('alice', 'wonderland', { preemptive: true }));
    await expect(client.get((c) => void (c.request.uri.path = '/start'))).rejects.toMatchObject({ statusCode: 401 });
    expect(kit.server.requests.map((r) => [r.path, r.secure === kit.secure, header(r, 'authorization') !== undefined])).toEqual([
      ['/start', true, true],
      ['/there/basic', false, false],
    ]);
  });

  it('credentials from the URL are not sent to another origin', async () => {
    const other = there('port');
    basicRoute(second.server, { ...USER, path: '/basic', methods: ['GET'] });
    basicRoute(kit.server, { ...USER, path: '/basic', methods: ['GET'] });
    kit.server.expect({ method: 'GET', path: '/start', respond: redirect(302, `${other.origin}/basic`) });
    const origin = new URL(kit.server.url(kit.secure));
    const client = kit.client((c) => void (c.request.uri = `${origin.protocol}//alice:wonderland@${origin.host}/`));
    expect(await client.get((c) => void (c.request.uri.path = '/basic'))).toBe('ok-text');
    await expect(client.get((c) => void (c.request.uri.path = '/start'))).rejects.toMatchObject({ statusCode: 401 });
    expect(other.requests().map((r) => header(r, 'authorization'))).toEqual([undefined]);
  });

  it('a RedirectError never shows the password, the Authorization value or the cookies', async () => {
    kit.server.expect({ method: 'GET', path: '/loop', respond: redirect(302, '/loop') });
    kit.server.expect({ method: 'GET', path: '/scheme', respond: redirect(302, 'ftp://bob:ftp-secret@127.0.0.1/x') });
    const origin = new URL(kit.server.url(kit.secure));
    const client = kit.client((c) => {
      c.request.uri = `${origin.protocol}//admin:hunter2@${origin.host}/`;
      c.request.headers.Authorization = 'Bearer t0p-secret';
      c.request.cookie('sid', 'cookie-secret');
      c.execution.redirects = { max: 2 };
    });
    for (const path of ['/loop', '/scheme']) {
      const error = await client.get((c) => void (c.request.uri.path = path)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedirectError);
      const shown = [(error as Error).message, (error as Error).stack, inspect(error, { depth: 10 }), JSON.stringify(error)].join('\n');
      for (const secret of ['hunter2', 't0p-secret', 'cookie-secret', 'ftp-secret', 'admin:'])
        expect([path, secret, shown.includes(secret)]).toEqual([path, secret, false]);
    }
  });
});
