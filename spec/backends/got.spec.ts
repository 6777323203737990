import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import got, { type BeforeErrorHook, type RequestError } from 'got';
import http from 'node:http';
import net from 'node:net';
import util from 'node:util';
import { ConfigError, HttpBuilder, NetworkError } from '../../lib/index.js';
import { gotBackend } from '../../lib/backends/got.js';
import { defaultAcceptEncoding } from '../../lib/model/decompress.js';
import { TestServer } from '../support/test-server.js';

const OK = { headers: { 'Content-Type': 'text/plain' }, body: 'ok' };

/** A raw TCP server answering every request with `reply` (and whatever it does to the socket). */
async function rawServer(reply: (socket: net.Socket) => void): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    socket.once('data', () => reply(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Everything an error shows to a logger: hidden properties and the whole cause chain. */
function shown(error: unknown): string {
  return `${util.inspect(error, { depth: Infinity, showHidden: true })}\n${JSON.stringify(error)}`;
}

describe('gotBackend(instance): a user-supplied got instance', () => {
  let server: TestServer;
  const open: HttpBuilder[] = [];
  const agents: http.Agent[] = [];
  beforeAll(async () => {
    server = await TestServer.start();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
    for (const agent of agents.splice(0)) agent.destroy();
    server.reset();
  });
  afterAll(() => server.close());

  function clientOf(instance: typeof got, uri = server.httpUrl): HttpBuilder {
    const client = HttpBuilder.configure((c) => {
      c.request.uri = uri;
      c.client.backend = gotBackend(instance);
    });
    open.push(client);
    return client;
  }

  it('runs init and beforeRequest hooks: what they add reaches the wire', async () => {
    server.expect({ method: 'GET', path: '/hooks', headers: { 'x-from-init': 'yes', 'x-trace': 'abc' }, respond: OK });
    const init = jest.fn((plain: { headers?: Record<string, string | string[] | undefined> }) => {
      plain.headers = { ...plain.headers, 'x-from-init': 'yes' };
    });
    const beforeRequest = jest.fn((options: { headers: Record<string, string | string[] | undefined> }) => {
      options.headers['x-trace'] = 'abc';
    });
    const client = clientOf(got.extend({ hooks: { init: [init], beforeRequest: [beforeRequest] } }));
    expect(await client.get((c) => void (c.request.uri.path = '/hooks'))).toBe('ok');
    expect(init).toHaveBeenCalled();
    expect(beforeRequest).toHaveBeenCalledTimes(1);
    const [request] = server.requests;
    expect(request.matched).toBe(true);
    // the pipeline's headers keep their spelling; got's own user-agent and accept-encoding stay away
    expect(request.rawHeaders.find(([name]) => name.toLowerCase() === 'user-agent')).toEqual(['User-Agent', expect.stringMatching(/^httpbuilder-ts\//)]);
    expect(request.headers['accept-encoding']).toBe(defaultAcceptEncoding()); // gzip, deflate, br (zstd too where zlib has it)
  });

  it('sends a raw target byte for byte, yet honours a beforeRequest hook that changes the URL', async () => {
    server.expect({ method: 'GET', path: '/a/../b', respond: OK });
    server.expect({ method: 'GET', path: '/signed', respond: OK });
    const plain = clientOf(got);
    await plain.get((c) => void (c.request.raw = '/a/../b?x=a+b&y'));
    const signing = clientOf(
      got.extend({
        hooks: {
          beforeRequest: [
            (options) => {
              if (options.url instanceof URL) options.url.searchParams.set('sig', '1');
            },
          ],
        },
      }),
    );
    await signing.get((c) => void (c.request.uri.path = '/signed'));
    expect(server.requests.map((request) => request.target)).toEqual(['/a/../b?x=a+b&y', '/signed?sig=1']);
  });

  it('runs beforeError hooks on a failure, and the error still maps to NetworkError', async () => {
    const closed = await TestServer.start();
    await closed.close();
    const seen: string[] = [];
    const beforeError: BeforeErrorHook = (error: RequestError) => {
      seen.push(error.code);
      return error;
    };
    const error = await clientOf(got.extend({ hooks: { beforeError: [beforeError] } }), closed.httpUrl)
      .get()
      .catch((e: unknown) => e);
    expect(seen).toEqual(['ECONNREFUSED']);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).reason).toBe('refused');
  });

  it("uses the instance's agent and leaves it alone on close()", async () => {
    server.expect({ method: 'GET', path: '/agent', respond: OK });
    const agent = new http.Agent({ keepAlive: true });
    agents.push(agent);
    const createConnection = jest.spyOn(agent, 'createConnection');
    const client = clientOf(got.extend({ agent: { http: agent } }));
    expect(await client.get((c) => void (c.request.uri.path = '/agent'))).toBe('ok');
    expect(createConnection).toHaveBeenCalledTimes(1);
    await client.close();
    await new Promise((resolve) => setImmediate(resolve));
    expect(Object.values(agent.freeSockets).flat()).toHaveLength(1); // still pooled, not destroyed
  });

  it('does not run afterResponse hooks (got stream mode skips them, as documented)', async () => {
    server.expect({ method: 'GET', path: '/after', respond: OK });
    const afterResponse = jest.fn((response: unknown) => response);
    const client = clientOf(got.extend({ hooks: { afterResponse: [afterResponse as never] } }));
    expect(await client.get((c) => void (c.request.uri.path = '/after'))).toBe('ok');
    expect(afterResponse).not.toHaveBeenCalled();
  });

  it('rejects a HEAD with a body with ConfigError before sending (got refuses one; native sends it)', async () => {
    for (const backend of ['got', gotBackend(got)] as const) {
      const client = HttpBuilder.configure((c) => {
        c.request.uri = server.httpUrl;
        c.client.backend = backend;
      });
      open.push(client);
      const error = await client
        .head((c) => {
          c.request.uri.path = '/head';
          c.request.body = 'abc';
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).message).toMatch(/'got' backend cannot send a body with HEAD/);
    }
    expect(server.requests).toHaveLength(0);
  });

  it('keeps an empty reason phrase empty (got would fill in "OK")', async () => {
    const raw = await rawServer((socket) => socket.end('HTTP/1.1 200 \r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok'));
    try {
      const reason = await clientOf(got, raw.url).get((c) => c.response.success((fromServer) => fromServer.message));
      expect(reason).toBe('');
    } finally {
      await raw.close();
    }
  });
});

describe('got backend: credentials never leak through errors', () => {
  const open: HttpBuilder[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });
  const choices = [
    ['the built-in got backend', () => 'got' as const],
    // a hook that hands got's error (options, headers and all) straight back
    ['a user instance whose beforeError returns the got error', () => gotBackend(got.extend({ hooks: { beforeError: [(error) => error] } }))],
  ] as const;

  for (const [label, backend] of choices) {
    describe(label, () => {
      const client = (url: string) => {
        const http = HttpBuilder.configure((c) => {
          c.request.uri = url;
          c.client.backend = backend();
          c.request.headers = { Authorization: 'Basic secret', Cookie: 'session=secret' };
        });
        open.push(http);
        return http;
      };

      it('on a refused connection', async () => {
        const closed = await TestServer.start();
        await closed.close();
        const error = await client(closed.httpUrl)
          .get()
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NetworkError);
        expect((error as NetworkError).reason).toBe('refused');
        expect((error as NetworkError).cause).toMatchObject({ code: 'ECONNREFUSED' });
        expect(shown(error)).not.toContain('secret');
      });

      it('on a reset in the middle of the body (read as a whole and as a stream)', async () => {
        const raw = await rawServer((socket) => {
          socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\npartial');
          setTimeout(() => socket.resetAndDestroy(), 20);
        });
        try {
          const whole = await client(raw.url)
            .get()
            .catch((e: unknown) => e);
          const streamed = await client(raw.url)
            .get((c) =>
              c.response.parser('text/plain', async (fromServer) => {
                for await (const chunk of fromServer.stream()) void chunk;
                return 'read';
              }),
            )
            .catch((e: unknown) => e);
          for (const error of [whole, streamed]) {
            expect(error).toMatchObject({ name: 'NetworkError', reason: 'reset' });
            expect(shown(error)).not.toContain('secret');
          }
        } finally {
          await raw.close();
        }
      });
    });
  }
});
