// auth.bearer on the MockBackend: the refresh rules alone, with no transport in the way.
import { expect, it } from '@jest/globals';
import { pipeline } from './kit.js';

pipeline('bearer tokens (auth.bearer)', (kit) => {
  it('8 concurrent 401s share exactly one refresh; each request is sent twice, never more', async () => {
    kit.mock.on('GET', '/me').withHeaders({ authorization: 'Bearer fresh' }).persist().reply(200, { me: true });
    kit.mock.on('GET', '/me').persist().reply(401, 'expired', { 'www-authenticate': 'Bearer' });
    let refreshes = 0;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const client = kit.client((c) =>
      c.request.auth.bearer('stale', {
        refresh: async () => {
          refreshes++;
          await held; // every other 401 comes in while this refresh runs
          return 'fresh';
        },
      }),
    );
    const calls = Array.from({ length: 8 }, () => client.get((c) => void (c.request.uri.path = '/me')));
    while (kit.mock.calls.length < 8) await new Promise((resolve) => setTimeout(resolve, 1));
    release();
    expect(await Promise.all(calls)).toEqual(Array(8).fill({ me: true }));
    expect(refreshes).toBe(1);
    expect(kit.mock.calls.map((call) => call.headers.authorization).sort()).toEqual([
      ...Array<string>(8).fill('Bearer fresh'),
      ...Array<string>(8).fill('Bearer stale'),
    ]);
  });

  it('a refresh that fails fails each call waiting for it; the next 401 tries a new refresh', async () => {
    kit.mock.on('GET', '/me').withHeaders({ authorization: 'Bearer fresh' }).persist().reply(200, 'in');
    kit.mock.on('GET', '/me').persist().reply(401);
    let refreshes = 0;
    const client = kit.client((c) =>
      c.request.auth.bearer('stale', {
        refresh: () => {
          if (++refreshes === 1) throw new Error('the identity provider is down');
          return 'fresh';
        },
      }),
    );
    await expect(client.get((c) => void (c.request.uri.path = '/me'))).rejects.toThrow('the identity provider is down');
    expect(await client.get((c) => void (c.request.uri.path = '/me'))).toBe('in');
    expect(refreshes).toBe(2);
  });
});
