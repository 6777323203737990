import { expect } from '@jest/globals';
import type { HttpBuilder } from '../../lib/index.js';
import { untilClosed } from '../support/until-closed.js';
import type { Kit } from './kit.js';

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

/**
 * Runs `failing`, then good requests in a row: they must find the pool as a fresh client would,
 * so a leaked (forever busy) socket shows as one connection more than the pool ever uses; then
 * `close()` must end every connection, which a request still holding one would block. Resolves
 * to what `failing` resolved or rejected with.
 */
export async function expectNoLeak(kit: Kit, client: HttpBuilder, failing: () => Promise<unknown>): Promise<unknown> {
  kit.server.expect({ method: 'GET', path: '/after', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'ok' } });
  // connections an earlier test left to a transport's keep-alive timer are not this test's
  const before = kit.server.openConnections;
  const outcome = await failing().catch((e: unknown) => e);
  for (let i = 0; i < 4; i++) expect(await client.get((c) => void (c.request.uri.path = '/after'))).toBe('ok');
  await settle();
  const lingering = before + (kit.traits.closesAbandonedAtOnce ? 0 : 1);
  expect(kit.server.openConnections).toBeLessThanOrEqual(kit.traits.sequentialSockets + lingering);
  await client.close();
  await untilClosed(kit.server, lingering);
  return outcome;
}
