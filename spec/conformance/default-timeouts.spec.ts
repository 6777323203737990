// The 5-minute response and read limits every call has unless told otherwise: carried to the
// transport on each wire request (no control of the pipeline's own for a plain call), enforced
// by each backend, and mapped to the same TimeoutError as the pipeline's own limits.
import { expect, it } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { HttpBuilder, TimeoutError, type Backend, type WireRequest } from '../../lib/index.js';
import { backendFor } from '../../lib/backends/registry.js';
import { conformance, type Kit } from './kit.js';

/** A backend that records each wire request before the kit's backend sends it. */
function recording(inner: Backend, seen: WireRequest[]): Backend {
  return { name: inner.name, proxies: true, send: (wire) => (seen.push(wire), inner.send(wire)), close: () => inner.close() };
}

function errorOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error('expected a rejection'),
    (error: unknown) => error,
  );
}

/** A GET of `path` on the kit's server as a wire request, with these stall limits. */
function getOf(kit: Kit, path: string, headersTimeout: number, bodyTimeout: number): WireRequest {
  const url = new URL(path, kit.server.url(kit.secure));
  const { hostname, port } = url;
  return {
    method: 'GET',
    url: url.href,
    secure: kit.secure,
    hostname,
    port: Number(port),
    target: path,
    headers: {},
    body: undefined,
    headersTimeout,
    bodyTimeout,
  };
}

conformance('default response and read limits (the transport’s)', (kit) => {
  const OK = { headers: { 'Content-Type': 'text/plain' }, body: 'ok' };

  it('every wire request carries 300000 ms for headers and body unless set; 0 turns a phase off', async () => {
    kit.server.expect({ method: 'GET', path: '/limits', respond: OK });
    const seen: WireRequest[] = [];
    const inner = backendFor(kit.backend as never, { tls: { ca: kit.server.ca }, connection: undefined });
    const base = HttpBuilder.configure((c) => {
      c.request.uri = kit.server.url(kit.secure);
      c.client.backend = recording(inner, seen);
    });
    try {
      await base.get((c) => void (c.request.uri.path = '/limits'));
      await base.get((c) => {
        c.request.uri.path = '/limits';
        c.execution.timeout = { response: 0, read: 1234 };
      });
      expect(seen.map((wire) => [wire.headersTimeout, wire.bodyTimeout])).toEqual([
        [300_000, 300_000],
        [0, 1234],
      ]);
    } finally {
      await base.close();
    }
  });

  it('the transport fails a response whose headers do not come in time: TimeoutError response', async () => {
    kit.server.expect({ method: 'GET', path: '/never', respond: () => {} });
    const backend = backendFor(kit.backend as never, { tls: { ca: kit.server.ca }, connection: undefined });
    try {
      const wire = getOf(kit, '/never', 150, 150);
      const error = await errorOf(backend.send(wire));
      expect(error).toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
    } finally {
      await backend.close();
    }
  });

  it("a limit of a second or more (checked coarsely: the node agents' shared clock, undici's fast timers) fails the same way, not early and within a second after it", async () => {
    kit.server.expect({ method: 'GET', path: '/never', respond: () => {} });
    const backend = backendFor(kit.backend as never, { tls: { ca: kit.server.ca }, connection: undefined });
    try {
      const started = performance.now();
      const error = await errorOf(backend.send(getOf(kit, '/never', 1000, 1000)));
      const ms = performance.now() - started;
      expect(error).toMatchObject({ code: 'UND_ERR_HEADERS_TIMEOUT' });
      expect(ms).toBeGreaterThanOrEqual(999);
      expect(ms).toBeLessThan(2200);
    } finally {
      await backend.close();
    }
  });

  it('the transport fails a body that stalls: TimeoutError read through the client', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/stall',
      respond: (_req: unknown, res: ServerResponse) => {
        res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '1000' });
        res.write('the first part');
      },
    });
    const backend = backendFor(kit.backend as never, { tls: { ca: kit.server.ca }, connection: undefined });
    try {
      const response = await backend.send(getOf(kit, '/stall', 5000, 150));
      const started = Date.now();
      const error = await errorOf(
        (async () => {
          for await (const chunk of response.body) void chunk;
        })(),
      );
      expect(error).toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
      expect(Date.now() - started).toBeLessThan(3000);
    } finally {
      await backend.close();
    }
  });

  it('the transport’s expiry reads as the pipeline’s TimeoutError', async () => {
    kit.server.expect({ method: 'GET', path: '/never', respond: () => {} });
    const inner = backendFor(kit.backend as never, { tls: { ca: kit.server.ca }, connection: undefined });
    // a wrapper that lowers the limit the pipeline handed over, as a slow default would expire
    const quick: Backend = { name: inner.name, proxies: true, send: (wire) => inner.send({ ...wire, headersTimeout: 150 }), close: () => inner.close() };
    const client = HttpBuilder.configure((c) => {
      c.request.uri = kit.server.url(kit.secure);
      c.client.backend = quick;
    });
    try {
      const error = await errorOf(client.get((c) => void (c.request.uri.path = '/never')));
      expect(error).toBeInstanceOf(TimeoutError);
      expect(error).toMatchObject({ phase: 'response' });
      expect((error as Error).message).toMatch(/^response timeout: /);
    } finally {
      await client.close();
    }
  });
});
