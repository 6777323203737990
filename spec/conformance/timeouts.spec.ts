import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { AbortError, HttpBuilder, TimeoutError } from '../../lib/index.js';
import { rawServer, type RawServer } from '../support/raw-server.js';
import { stalledListener, type StalledListener } from '../support/stalled-listener.js';
import { BACKENDS } from './backends.js';
import { conformance, type Kit } from './kit.js';
import { backendClients } from '../support/backend-clients.js';
import { expectNoUnhandledRejections } from '../support/unhandled-rejections.js';

expectNoUnhandledRejections();

/** Headers at once, then `first` of the body, then nothing (the connection stays open). */
function stallAfter(first: string) {
  return (_req: unknown, res: ServerResponse) => {
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '1000' });
    res.write(first);
  };
}

/** The rejection of `call`, with how long it took. */
async function failure(call: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  const error = await call.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  return { error, ms: Date.now() - started };
}

/** The client still works: a plain GET succeeds. */
async function stillWorks(kit: Kit, http: HttpBuilder): Promise<void> {
  kit.server.expect({ method: 'GET', path: '/ok', respond: { body: 'ok', headers: { 'Content-Type': 'text/plain' } } });
  await expect(http.get((c) => void (c.request.uri.path = '/ok'))).resolves.toBe('ok');
}

conformance('timeouts and abort', (kit) => {
  it('a server that never answers → TimeoutError phase response, and the client still works', async () => {
    kit.server.expect({ method: 'GET', path: '/never', respond: () => {} });
    const http = kit.client((c) => void (c.execution.timeout = { response: 150 }));
    const { error, ms } = await failure(http.get((c) => void (c.request.uri.path = '/never')));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ phase: 'response', code: 'ERR_TIMEOUT' });
    expect((error as Error).message).toMatch(/response timeout: no response headers arrived within 150 ms/);
    expect(ms).toBeGreaterThanOrEqual(140);
    expect(ms).toBeLessThan(2000);
    await stillWorks(kit, http);
  });

  it('a body that stops mid-way → TimeoutError phase read', async () => {
    kit.server.expect({ method: 'GET', path: '/stall', respond: stallAfter('the first part') });
    const http = kit.client((c) => void (c.execution.timeout = { read: 150 }));
    const { error, ms } = await failure(http.get((c) => void (c.request.uri.path = '/stall')));
    expect(error).toMatchObject({ name: 'TimeoutError', phase: 'read' });
    expect(ms).toBeLessThan(2000);
    await stillWorks(kit, http);
  });

  it('a slow body that keeps coming is within the read timeout (it limits silence, not duration)', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/trickle',
      respond: async (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        for (let i = 0; i < 6; i++) {
          res.write(`${i}`);
          await new Promise((resolve) => setTimeout(resolve, 40));
        }
        res.end();
      },
    });
    const http = kit.client((c) => void (c.execution.timeout = { read: 150 }));
    await expect(http.get((c) => void (c.request.uri.path = '/trickle'))).resolves.toBe('012345');
  });

  it('the whole call beyond total → TimeoutError phase total, even while the body flows', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/slow',
      respond: async (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        for (let i = 0; i < 50 && !res.destroyed; i++) {
          res.write('x');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        res.end();
      },
    });
    const http = kit.client((c) => void (c.execution.timeout = { total: 200, read: 1000 }));
    const { error, ms } = await failure(http.get((c) => void (c.request.uri.path = '/slow')));
    expect(error).toMatchObject({ name: 'TimeoutError', phase: 'total' });
    expect(ms).toBeGreaterThanOrEqual(190);
    expect(ms).toBeLessThan(900);
    await stillWorks(kit, http);
  });

  it('a request-level timeout overrides the client one phase by phase', async () => {
    kit.server.expect({ method: 'GET', path: '/never', respond: () => {} });
    const http = kit.client((c) => void (c.execution.timeout = { response: 10_000, read: 10_000 }));
    const { error, ms } = await failure(
      http.get((c) => {
        c.request.uri.path = '/never';
        c.execution.timeout = { response: 100 };
      }),
    );
    expect(error).toMatchObject({ name: 'TimeoutError', phase: 'response' });
    expect(ms).toBeLessThan(2000);
  });

  it('execution.signal aborts a request waiting for its response → AbortError', async () => {
    kit.server.expect({ method: 'GET', path: '/never', respond: () => {} });
    const http = kit.client();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { error, ms } = await failure(
      http.get((c) => {
        c.request.uri.path = '/never';
        c.execution.signal = controller.signal;
      }),
    );
    expect(error).toBeInstanceOf(AbortError);
    expect(error).toMatchObject({ code: 'ERR_ABORTED' });
    expect(ms).toBeLessThan(2000);
    await stillWorks(kit, http);
  });

  it('execution.signal aborts mid-body → AbortError', async () => {
    kit.server.expect({ method: 'GET', path: '/stall', respond: stallAfter('part') });
    const controller = new AbortController();
    const http = kit.client();
    const pending = http.get((c) => {
      c.request.uri.path = '/stall';
      c.execution.signal = controller.signal;
      c.response.parser('text/plain', async (fromServer) => {
        controller.abort(); // the headers are in and the body is being read
        return fromServer.text();
      });
    });
    await expect(pending).rejects.toBeInstanceOf(AbortError);
    await stillWorks(kit, http);
  });

  it('an already aborted signal → AbortError, nothing sent', async () => {
    const http = kit.client();
    await expect(http.get((c) => void (c.execution.signal = AbortSignal.abort()))).rejects.toBeInstanceOf(AbortError);
    expect(kit.server.requests).toHaveLength(0);
  });

  it('timeouts that do not expire change nothing (and leave no timer behind)', async () => {
    kit.server.expect({ method: 'GET', path: '/ok', respond: { body: 'fine', headers: { 'Content-Type': 'text/plain' } } });
    const http = kit.client((c) => void (c.execution.timeout = { connect: 5000, response: 5000, read: 5000, total: 5000 }));
    await expect(http.get((c) => void (c.request.uri.path = '/ok'))).resolves.toBe('fine');
  });
});

describe('connect timeout', () => {
  let stalled: StalledListener;
  let silentTls: RawServer;
  beforeAll(async () => {
    stalled = await stalledListener();
    silentTls = await rawServer(() => {}); // accepts TCP, never answers the TLS ClientHello
  });
  afterAll(async () => {
    await Promise.all([stalled.close(), silentTls.close()]);
  });

  for (const backend of BACKENDS) {
    describe(backend.name, () => {
      const clients = backendClients(backend.choice);
      const client = (url: string) => clients(url, (c) => void (c.execution.timeout = { connect: 150 }));

      it('a TCP connection that is never established → TimeoutError phase connect', async () => {
        const { error, ms } = await failure(client(stalled.url).get());
        expect(error).toMatchObject({ name: 'TimeoutError', phase: 'connect' });
        expect(ms).toBeLessThan(2000);
      });

      it('a TLS handshake that never completes → TimeoutError phase connect', async () => {
        const { error, ms } = await failure(client(silentTls.url.replace('http:', 'https:')).get());
        expect(error).toMatchObject({ name: 'TimeoutError', phase: 'connect' });
        expect(ms).toBeLessThan(2000);
      });
    });
  }
});
