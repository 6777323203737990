// The fetch backend on a global fetch (Bun, Deno, browsers, Workers, node without undici): the
// transport says nothing of sockets or writing, so an attempt's timings are start, response and
// end, and its phases firstByte, download and total, as the contract allows (documented).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HttpBuilder, withResponse } from '../../lib/index.js';
import { createFetchBackend } from '../../lib/backends/fetch.js';
import { startPortableServer, type PortableServer } from '../portable/server.js';

let server: PortableServer;
beforeAll(async () => {
  server = await startPortableServer();
});
afterAll(() => server.close());

describe('timings on the global fetch', () => {
  it('start, response and end, the head’s delay in firstByte; nothing of the connection', async () => {
    const backend = await createFetchBackend({ tls: undefined, connection: undefined });
    const http = HttpBuilder.configure((c) => {
      c.request.uri = server.url;
      c.client.backend = backend;
    });
    try {
      const { timings } = await http.get(withResponse(), (c) => {
        c.request.uri.path = '/slow-head';
        c.request.uri.query = { ms: '60' };
      });
      expect(timings).toMatchObject({ start: expect.any(Number), response: expect.any(Number), end: expect.any(Number) });
      for (const absent of ['socket', 'lookup', 'connect', 'secureConnect', 'upload'] as const) expect(timings![absent]).toBeUndefined();
      expect(Object.keys(timings!.phases).sort()).toEqual(['download', 'firstByte', 'total']);
      expect(timings!.phases.firstByte).toBeGreaterThanOrEqual(50);
    } finally {
      await http.close();
    }
  });
});
