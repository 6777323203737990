import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { withResponse, type Timings } from '../../lib/index.js';
import { ProxyServer } from '../support/proxy-server.js';
import { conformance } from './kit.js';
import { expectConsistent, pause } from './timings-support.js';

let proxy: ProxyServer;
beforeAll(async () => {
  proxy = await ProxyServer.start({});
});
afterAll(async () => {
  await proxy.close();
});

/** What every attempt through a proxy has: its socket, its upload and its response head, in order, no phase negative. */
function expectThrough(t: Timings): void {
  expectConsistent(t);
  expect(t).toMatchObject({ socket: expect.any(Number), upload: expect.any(Number), response: expect.any(Number), end: expect.any(Number) });
  expect(t.phases.firstByte).toBeGreaterThanOrEqual(40 - 10);
}

conformance('timings through client.proxy', (kit) => {
  it('absolute form (http) and CONNECT tunnels (https): socket, upload and response set, in order, for a new and a reused connection', async () => {
    const respond = async (_req: unknown, res: ServerResponse) => {
      await pause(40); // so firstByte is seen to be measured through the proxy
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('through');
    };
    kit.server.expect({ method: 'GET', path: '/via', respond });
    kit.server.expect({ method: 'POST', path: '/via', respond });
    const client = kit.client((c) => {
      c.client.proxy = proxy.url;
      c.request.uri.path = '/via';
    });
    const first = await client.get(withResponse());
    await pause(20);
    const second = await client.post(withResponse(), (c) => {
      c.request.contentType = 'text/plain';
      c.request.body = 'x'.repeat(64 * 1024);
    });
    expect([first.body, second.body]).toEqual(['through', 'through']);
    expect(proxy.seen.length).toBeGreaterThan(0); // it did go through the proxy
    expectThrough(first.timings!);
    expectThrough(second.timings!);
    // in absolute form the connection is the proxy's, made for the first attempt and timed as any
    if (!kit.secure) expect(first.timings).toMatchObject({ lookup: expect.any(Number), connect: expect.any(Number) });
  });
});
