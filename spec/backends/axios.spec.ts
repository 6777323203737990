import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import http from 'node:http';
import https from 'node:https';
import { inspect } from 'node:util';
import { HttpBuilder, NetworkError } from '../../lib/index.js';
import { axiosBackend } from '../../lib/backends/axios.js';
import { ProxyServer } from '../support/proxy-server.js';
import { TestServer } from '../support/test-server.js';

const OK = { headers: { 'Content-Type': 'text/plain' }, body: 'ok' };
const SECRET = 'Basic c2VjcmV0OnBhc3N3b3Jk'; // secret:password

describe('axios backend', () => {
  let server: TestServer;
  const open: HttpBuilder[] = [];
  const agents: Array<http.Agent | https.Agent> = [];

  /** A client on `backend`, closed after the test. */
  function client(url: string, backend: AxiosInstance | 'axios'): HttpBuilder {
    const built = HttpBuilder.configure((c) => {
      c.request.uri = url;
      c.client.backend = backend === 'axios' ? 'axios' : axiosBackend(backend);
    });
    open.push(built);
    return built;
  }

  function userInstance(): AxiosInstance {
    const httpAgent = new http.Agent({ keepAlive: true });
    const httpsAgent = new https.Agent({ keepAlive: true, ca: server.ca });
    agents.push(httpAgent, httpsAgent);
    return axios.create({ httpAgent, httpsAgent });
  }

  beforeAll(async () => {
    server = await TestServer.start();
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
    for (const agent of agents.splice(0)) agent.destroy();
    server.reset();
  });
  afterAll(() => server.close());

  describe('axiosBackend(instance)', () => {
    it("through client.proxy, the tunnel keeps the TLS settings of the instance's https agent (its private CA)", async () => {
      const proxy = await ProxyServer.start();
      try {
        server.expect({ method: 'GET', path: '/tunnelled', respond: OK });
        const built = HttpBuilder.configure((c) => {
          c.request.uri = server.httpsUrl;
          c.client.backend = axiosBackend(userInstance());
          c.client.proxy = proxy.url;
        });
        open.push(built);
        expect(await built.get((c) => void (c.request.uri.path = '/tunnelled'))).toBe('ok');
        expect(proxy.seen.map((s) => s.method)).toEqual(['CONNECT']);
      } finally {
        await proxy.close();
      }
    });

    it("keeps the user's request interceptor: the header it adds goes on the wire", async () => {
      const instance = userInstance();
      instance.interceptors.request.use((config) => {
        config.headers.set('X-From-Interceptor', 'yes');
        return config;
      });
      server.expect({ method: 'GET', path: '/intercepted', headers: { 'X-From-Interceptor': 'yes' }, respond: OK });
      expect(await client(server.httpUrl, instance).get((c) => void (c.request.uri.path = '/intercepted'))).toBe('ok');
      expect(server.requests[0].matched).toBe(true);
    });

    it('a request interceptor that rewrites the URL is honoured', async () => {
      const instance = userInstance();
      instance.interceptors.request.use((config) => ({ ...config, url: config.url?.replace('/from', '/to') }));
      server.expect({ method: 'GET', path: '/to', respond: OK });
      expect(await client(server.httpUrl, instance).get((c) => void (c.request.uri.path = '/from'))).toBe('ok');
      expect(server.requests[0].target).toBe('/to');
    });

    it("runs the user's response interceptor; what it returns does not replace the response", async () => {
      const instance = userInstance();
      const seen: number[] = [];
      instance.interceptors.response.use((response: AxiosResponse) => {
        seen.push(response.status);
        return response.data as AxiosResponse; // the common `r => r.data` pattern
      });
      server.expect({ method: 'GET', path: '/seen', respond: OK });
      expect(await client(server.httpUrl, instance).get((c) => void (c.request.uri.path = '/seen'))).toBe('ok');
      expect(seen).toEqual([200]);
    });

    it('a response interceptor that throws rejects the request, and the connection is released', async () => {
      const instance = userInstance();
      let refuse = true;
      instance.interceptors.response.use((response) => {
        if (refuse) throw new Error('refused by policy');
        return response;
      });
      server.expect({ method: 'GET', path: '/policy', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'x'.repeat(200_000) } });
      const http1 = client(server.httpUrl, instance);
      await expect(http1.get((c) => void (c.request.uri.path = '/policy'))).rejects.toThrow('refused by policy');
      refuse = false;
      expect(await http1.get(String, (c) => void (c.request.uri.path = '/policy'))).toHaveLength(200_000);
    });

    it('a download progress handler or rate limit on the instance does not hold the body back', async () => {
      const instance = userInstance();
      instance.defaults.onDownloadProgress = () => {};
      instance.defaults.maxRate = [Infinity, 1]; // 1 byte/s: the body would never arrive through axios's throttle
      server.expect({ method: 'GET', path: '/big', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'z'.repeat(1_000_000) } });
      expect(await client(server.httpUrl, instance).get(String, (c) => void (c.request.uri.path = '/big'))).toHaveLength(1_000_000);
    });

    it("uses the user's agent (its TLS settings) and keeps its connections open on close()", async () => {
      const instance = userInstance();
      server.expect({ method: 'GET', path: '/tls', respond: OK });
      const first = client(server.httpsUrl, instance); // no execution.tls: the agent's ca is what trusts the server
      expect(await first.get((c) => void (c.request.uri.path = '/tls'))).toBe('ok');
      await first.close();
      const second = client(server.httpsUrl, instance);
      expect(await second.get((c) => void (c.request.uri.path = '/tls'))).toBe('ok');
      expect(server.requests.map((r) => r.remotePort)).toEqual([server.requests[0].remotePort, server.requests[0].remotePort]);
    });

    it("drops axios's own headers even when the instance is the default one", async () => {
      server.expect({ method: 'POST', path: '/plain', respond: OK });
      await client(server.httpUrl, axios.create()).post((c) => void (c.request.uri.path = '/plain'));
      const names = server.requests[0].rawHeaders.map(([name]) => name.toLowerCase()).sort();
      expect(names).toEqual(['accept', 'accept-encoding', 'connection', 'content-length', 'host', 'user-agent']);
      expect(server.requests[0].headers.accept).toBe('*/*');
      expect(server.requests[0].headers['user-agent']).toMatch(/^httpbuilder-ts\//);
    });
  });

  describe.each(['axios', 'axiosBackend(instance)'])('%s', (kind) => {
    const backend = () => (kind === 'axios' ? 'axios' : userInstance());

    it("refuses a header named 'constructor' or 'prototype' before sending (axios would drop it); other spellings go out", async () => {
      for (const name of ['constructor', 'prototype']) {
        const sent = client(server.httpUrl, backend()).get((c) => void Object.assign(c.request.headers, { [name]: 'x' }));
        await expect(sent).rejects.toThrow(`the 'axios' backend cannot send a header named '${name}'`);
      }
      expect(server.requests).toHaveLength(0);
      server.expect({ method: 'GET', path: '/', respond: OK });
      await client(server.httpUrl, backend()).get((c) => void Object.assign(c.request.headers, { Constructor: 'x', Prototype: 'y' }));
      expect([server.requests[0].headers.constructor, server.requests[0].headers.prototype]).toEqual(['x', 'y']);
    });

    it('sends a raw target byte for byte, dot segments and escapes included', async () => {
      server.expect({ method: 'GET', path: '/a/../b/%2e%2e/c', respond: OK });
      await client(server.httpUrl, backend()).get((c) => void (c.request.raw = '/a/../b/%2e%2e/c?q=a+b&r=%7E'));
      expect(server.requests[0].target).toBe('/a/../b/%2e%2e/c?q=a+b&r=%7E');
    });

    for (const [what, url] of [
      ['a refused connection', () => 'http://127.0.0.1:1'],
      ['a TLS failure', () => server.httpsUrl],
    ] as const) {
      it(`credentials never leak through the error of ${what}`, async () => {
        // the TLS case uses an instance/agent without the CA, so the certificate is rejected
        const choice = kind === 'axios' ? 'axios' : axios.create();
        const error = (await client(url(), choice)
          .get((c) => {
            c.request.headers = { Authorization: SECRET, Cookie: 'session=secret-cookie' };
          })
          .catch((e: unknown) => e)) as NetworkError;
        expect(error).toBeInstanceOf(NetworkError);
        expect(error.reason).toBe(what === 'a TLS failure' ? 'tls' : 'refused');
        const shown = [
          inspect(error, { depth: 10, showHidden: true }),
          JSON.stringify(error),
          inspect(error.cause, { depth: 10, showHidden: true }),
          JSON.stringify(error.cause),
        ];
        for (const text of shown) {
          expect(text).not.toContain('c2VjcmV0');
          expect(text).not.toContain('secret-cookie');
        }
        expect(Object.keys(error.cause as object)).toEqual(['code']);
      });
    }
  });
});
