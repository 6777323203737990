import { expect, it } from '@jest/globals';
import { HttpBuilderError, NetworkError, withResponse, type Timings } from '../../lib/index.js';
import { conformance } from './kit.js';
import { closedPort } from '../support/closed-port.js';

const JSON_BODY = { status: 200, headers: { 'Content-Type': 'application/json' }, body: '{"ok":true}' };

/** Every instant set is on the performance clock, in order, and each phase is the gap between its two instants. */
function expectConsistent(t: Timings): void {
  const order = [t.start, t.socket, t.lookup, t.connect, t.secureConnect, t.upload, t.response, t.end].filter((v) => v !== undefined);
  expect([...order].sort((a, b) => a - b)).toEqual(order);
  for (const phase of Object.values(t.phases)) expect(phase).toBeGreaterThanOrEqual(0);
  expect(t.phases.total).toBeCloseTo((t.end ?? t.error!) - t.start, 6);
}

conformance('timings', (kit) => {
  it('fromServer.timings: a new connection has every phase, a reused one no dns/tcp/tls', async () => {
    kit.server.expect({ method: 'GET', path: '/t', respond: JSON_BODY });
    const client = kit.client();
    const first = await client.get(withResponse(), (c) => void (c.request.uri.path = '/t'));
    const second = await client.get(withResponse(), (c) => void (c.request.uri.path = '/t'));
    for (const t of [first.timings!, second.timings!]) {
      expectConsistent(t);
      expect(t.phases).toEqual(expect.objectContaining({ firstByte: expect.any(Number), download: expect.any(Number), total: expect.any(Number) }));
    }
  });

  it('a refused connection: the NetworkError carries the attempt timings', async () => {
    const closed = await closedPort();
    const client = kit.client((c) => void (c.request.uri = `http://127.0.0.1:${closed}`));
    const error = await client.get().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    const t = (error as HttpBuilderError).timings!;
    expect(t.error).toEqual(expect.any(Number));
    expectConsistent(t);
  });
});
