import { afterEach, describe, expect, it } from '@jest/globals';
import { ConfigError, HttpBuilder, type Backend, type TransportOptions } from '../../lib/index.js';
import { chosenBackend, webBackendFor, WITH_TRANSPORT } from '../../lib/backends/backend-choice.js';
import { LazyBackend } from '../../lib/backends/lazy-backend.js';
import { resolveCacheChoice } from '../../lib/config/cache-options.js';
import { readableStreamOf } from '../../lib/model/body-stream.js';
import { checkWebClient, webProxyRouter } from '../../lib/pipeline/platform-stages.js';
import { wireStages } from '../../lib/pipeline/stages.js';
import { useTestServer } from '../support/use-test-server.js';

// The browser/Workers build's defaults, called directly (jest runs on Node, where the node
// platform is registered: these are what the web build uses in its place).

/** A client's transport settings when it sets none. */
const NONE: TransportOptions = { tls: undefined, connection: undefined };

/** Runs `body` with `navigator.userAgent` as workerd sets it, then puts the global back as it was. */
function asWorkers<T>(body: () => T): T {
  const had = Object.getOwnPropertyDescriptor(globalThis, 'navigator');
  Object.defineProperty(globalThis, 'navigator', { value: { userAgent: 'Cloudflare-Workers' }, configurable: true });
  try {
    return body();
  } finally {
    if (had) Object.defineProperty(globalThis, 'navigator', had);
    else delete (globalThis as { navigator?: unknown }).navigator;
  }
}

/** What `run` throws, which must be a ConfigError (nothing thrown fails too). */
function configError(run: () => unknown): ConfigError {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ConfigError);
  return thrown as ConfigError;
}

describe('the web build: backends', () => {
  const served = useTestServer();
  const opened: Backend[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((backend) => backend.close()));
  });

  it.each([
    ['native', 'node:http'],
    ['undici', 'node:net (undici runs on Node)'],
    ['axios', "node:http (axios's Node adapter)"],
    ['got', 'node:http (got runs on Node)'],
  ] as const)("'%s' rejects each request with a ConfigError naming the runtime and what it lacks", async (name, lacks) => {
    const backend = webBackendFor(name, NONE);
    expect(backend.name).toBe(name);
    const request = backend.send({} as never);
    await expect(request).rejects.toThrow(ConfigError);
    await expect(request).rejects.toThrow(`client.backend '${name}' needs ${lacks}, which a browser does not have: use 'fetch' or a Backend object`);
    await expect(asWorkers(() => webBackendFor(name, NONE)).send({} as never)).rejects.toThrow('which Cloudflare Workers does not have');
    await expect(backend.close()).resolves.toBeUndefined();
  });

  it("any other name is a ConfigError listing what the web build has: 'fetch' or a Backend object", () => {
    expect(configError(() => webBackendFor('curl' as never, NONE)).message).toBe(`client.backend "curl" is not a backend: use 'fetch' or a Backend object`);
  });

  it("defaults to 'fetch', loaded on the first request, and sends with it", async () => {
    served.server.expect({ method: 'GET', path: '/user', respond: { headers: { 'content-type': 'application/json' }, body: '{"name":"Ada"}' } });
    const backend = webBackendFor(undefined, NONE);
    opened.push(backend);
    expect(backend.name).toBe('fetch');
    expect(webBackendFor('fetch', NONE).name).toBe('fetch');
    const http = HttpBuilder.configure((c) => {
      c.request.uri = served.server.url(false);
      c.client.backend = backend;
    });
    await expect(http.get((c) => void (c.request.uri.path = '/user'))).resolves.toEqual({ name: 'Ada' });
  });

  it('uses a Backend object as it is, or hands it the transport settings when it takes them', () => {
    const mine: Backend = { name: 'mine', send: () => Promise.reject(new Error('unused')), close: () => Promise.resolve() };
    expect(webBackendFor(mine, NONE)).toBe(mine);
    const wrapped = { ...mine, [WITH_TRANSPORT]: (options: TransportOptions) => ({ ...mine, name: `http2 ${options.http2}` }) };
    expect(webBackendFor(wrapped, { ...NONE, http2: true }).name).toBe('http2 true');
  });

  it("on Node the client's chooser is the node registry's: native by default (loaded with the first request)", () => {
    const backend = chosenBackend(undefined, NONE);
    opened.push(backend);
    expect(backend).toBeInstanceOf(LazyBackend);
    expect(backend.name).toBe('native');
  });
});

describe('the web build: proxies, cache and cookies', () => {
  it("reads no proxy from an environment (there is none): 'env', false, unset and exemptions alone route nothing", () => {
    for (const choice of [undefined, 'env', false, { noProxy: ['.internal'] }, { url: 'env' }] as const) expect(webProxyRouter(choice)).toBeUndefined();
  });

  it.each(['http://proxy.internal:3128', new URL('http://proxy.internal:3128'), { url: 'http://proxy.internal:3128', noProxy: ['localhost'] }])(
    'client.proxy = %p is a ConfigError naming the runtime',
    (choice) => {
      expect(configError(() => webProxyRouter(choice)).message).toBe(
        'client.proxy is set, but a browser sends requests through its own network stack, which picks the proxy (this build has no proxy support): leave client.proxy unset or false',
      );
    },
  );

  it("client.cache is a ConfigError naming the runtime: the runtime's own HTTP cache applies", () => {
    const message = configError(() => checkWebClient({ cache: resolveCacheChoice(true), cookieJar: false })).message;
    expect(message).toBe(
      "client.cache needs node:crypto and node:stream, which a browser does not have: leave it off (the runtime's own HTTP cache applies to fetch)",
    );
    expect(asWorkers(() => configError(() => checkWebClient({ cache: resolveCacheChoice(true), cookieJar: false })).message)).toContain(
      'which Cloudflare Workers',
    );
  });

  it('client.cookies is a ConfigError in a browser (it manages cookies itself), and allowed in Workers, which let fetch read Set-Cookie', () => {
    expect(configError(() => checkWebClient({ cache: undefined, cookieJar: true })).message).toBe(
      "client.cookies is on, but a browser manages cookies itself (fetch may neither read Set-Cookie nor send Cookie there): leave it off, and use fetch's credentials mode for the browser's cookies",
    );
    expect(() => asWorkers(() => checkWebClient({ cache: undefined, cookieJar: true }))).not.toThrow();
    expect(() => checkWebClient({ cache: undefined, cookieJar: false })).not.toThrow();
  });

  it('keeps the node stages in their places on Node: proxies after authorization, the cache between cookies and the pacing stage', () => {
    const names = wireStages().map((stage) => stage.name);
    expect(names).toEqual(['dedupe', 'redirects', 'retries', 'authorization', 'proxies', 'cookies', 'caching', 'pacing', 'observing', 'hooks', 'logging']);
  });
});

describe("the web build: fromServer.stream()'s ReadableStream", () => {
  async function read(stream: ReadableStream<Uint8Array>): Promise<string> {
    let text = '';
    for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) text += new TextDecoder().decode(chunk);
    return text;
  }

  it('gives the chunks of a body, sync or async, in order', async () => {
    const encoder = new TextEncoder();
    await expect(read(readableStreamOf([encoder.encode('a'), encoder.encode('b')]))).resolves.toBe('ab');
    async function* chunks() {
      yield await Promise.resolve(encoder.encode('c'));
      yield encoder.encode('d');
    }
    await expect(read(readableStreamOf(chunks()))).resolves.toBe('cd');
  });

  it("errors with the body's failure, and a cancel ends the body's iteration (freeing the connection)", async () => {
    const failing = (async function* () {
      yield await Promise.resolve(new Uint8Array([1]));
      throw new Error('reset');
    })();
    await expect(read(readableStreamOf(failing))).rejects.toThrow('reset');
    let ended = false;
    const endless = (async function* () {
      try {
        for (;;) yield await Promise.resolve(new Uint8Array([2]));
      } finally {
        ended = true;
      }
    })();
    const reader = readableStreamOf(endless).getReader();
    await reader.read();
    await reader.cancel();
    expect(ended).toBe(true);
  });
});
