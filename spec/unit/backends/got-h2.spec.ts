// The got backend's HTTP/2 parts around http2-wrapper: its agent's session keys and close(),
// client.connection as got options, and requests prepared before their headers go out.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import wrapper from 'http2-wrapper';
import { asHttp2, gotConnectOptions, gotHttp2Agent } from '../../../lib/backends/got-h2.js';

describe('gotHttp2Agent', () => {
  // accepts connections and never answers: a session stays in the making
  let silent: net.Server;
  const sockets = new Set<net.Socket>();
  beforeAll(async () => {
    silent = net.createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, resolve)); // both families: localhost may be ::1
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
  });

  it("keys a session on the ALPN probe's socket as any other request's, so later requests find it", async () => {
    const agent = await gotHttp2Agent();
    const options = { localAddress: '127.0.0.2' };
    const probe = { ...options, _reuseSocket: {}, createConnection: () => undefined };
    expect(agent.normalizeOptions(probe as never)).toBe(agent.normalizeOptions(options as never));
  });

  it('close() fails a request waiting for its session as a reset connection, and any later one', async () => {
    const agent = await gotHttp2Agent();
    const origin = `https://localhost:${(silent.address() as AddressInfo).port}`;
    const waiting = agent.request(origin, {}, { ':path': '/' });
    agent.close();
    await expect(waiting).rejects.toMatchObject({ code: 'ECONNRESET' });
    await expect(agent.request(origin, {}, { ':path': '/' })).rejects.toMatchObject({ code: 'ECONNRESET' });
  });
});

describe('gotConnectOptions', () => {
  it('gives got lookup (answering node, which asks for all addresses), family and localAddress', () => {
    const options = gotConnectOptions({ lookup: (_host, _options, callback) => callback(null, '10.0.0.5', 4), family: 4, localAddress: '127.0.0.2' });
    expect(options).toMatchObject({ dnsLookupIpVersion: 4, localAddress: '127.0.0.2' });
    let answer: unknown;
    (options.dnsLookup as (host: string, options: object, callback: (...args: unknown[]) => void) => void)('x', { all: true }, (_e, all) => (answer = all));
    expect(answer).toEqual([{ address: '10.0.0.5', family: 4 }]);
    expect(gotConnectOptions(undefined)).toEqual({});
  });
});

describe('asHttp2', () => {
  /** An http2-wrapper request on an agent that records what it is asked to open. */
  function request(method: string, headers: Record<string, string> = {}) {
    const opened: { headers?: Record<string, unknown>; stream?: { endStream?: boolean } } = {};
    const agent = {
      protocol: 'https:',
      request: (_origin: unknown, _options: unknown, headers: Record<string, unknown>, stream?: { endStream?: boolean }) => {
        Object.assign(opened, { headers, stream });
        return new Promise(() => {}); // never opens: the test only looks at what was asked
      },
    };
    const req = wrapper.request('https://localhost:8443/path', { method, headers, agent: agent as never });
    req.on('error', () => {});
    return { req, opened };
  }

  it("sends the target's authority, a caller's Host as it, where http2-wrapper would take the TLS server name", async () => {
    const plain = request('GET');
    asHttp2(plain.req, 'service.internal:8443', false).end();
    const hosted = request('GET', { Host: 'other.example' });
    (await asHttp2(Promise.resolve(hosted.req), 'service.internal:8443', false)).end();
    await new Promise((resolve) => setImmediate(resolve));
    expect(plain.opened.headers).toMatchObject({ ':authority': 'service.internal:8443' });
    expect(hosted.opened.headers).toMatchObject({ ':authority': 'other.example' });
    expect(hosted.opened.headers).not.toHaveProperty('host');
    plain.req.destroy();
    hosted.req.destroy();
  });

  it('lets a DELETE or GET send a body, on a stream left open for it', async () => {
    for (const method of ['DELETE', 'GET']) {
      const { req, opened } = request(method);
      const failed: Error[] = [];
      req.on('error', (error: Error) => failed.push(error));
      asHttp2(req, 'localhost:8443', true).write('payload');
      await new Promise((resolve) => setImmediate(resolve));
      expect(failed).toEqual([]);
      expect(opened.stream).toEqual({ endStream: false });
      req.destroy();
    }
  });

  it('leaves anything but an http2-wrapper request alone', () => {
    const other = { headers: {} };
    expect(asHttp2(other, 'localhost', true)).toBe(other);
  });
});
