// auth.bearer on the MockBackend: the refresh rules alone, with no transport in the way.
import { expect, it } from '@jest/globals';
import { AbortError, type BearerRefresh, type HttpConfig } from '../../lib/index.js';
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

pipeline('bearer tokens: a refresh or token function that never answers', (kit) => {
  const never = () => new Promise<string>(() => undefined);
  const me = (c: HttpConfig) => void (c.request.uri.path = '/me');
  const withRefresh = (token: string, refresh: BearerRefresh) => (c: HttpConfig) => c.request.auth.bearer(token, { refresh });
  const deny = () => {
    kit.mock.on('GET', '/me').withHeaders({ authorization: 'Bearer fresh' }).persist().reply(200, 'in');
    kit.mock.on('GET', '/me').persist().reply(401, 'expired', { 'www-authenticate': 'Bearer' });
  };

  it("a hung refresh ends at the call's total timeout (TimeoutError), and does not hold the token's next 401", async () => {
    deny();
    let refreshes = 0;
    const client = kit.client((c) => c.request.auth.bearer('stale', { refresh: () => (++refreshes === 1 ? never() : 'fresh') }));
    await expect(client.get((c) => (me(c), (c.execution.timeout = { total: 100 })))).rejects.toMatchObject({ name: 'TimeoutError', phase: 'total' });
    // the first refresh still hangs, but nobody waits for it any more: the next 401 to that token refreshes anew
    expect(await client.get(me)).toBe('in');
    expect(refreshes).toBe(2);
  });

  it("a hung refresh ends when the call's signal aborts (AbortError); a later 401 to that token starts a new refresh", async () => {
    deny();
    let refreshes = 0;
    const client = kit.client((c) => c.request.auth.bearer('stale', { refresh: () => (++refreshes === 1 ? never() : 'fresh') }));
    const controller = new AbortController();
    const hung = client.get((c) => (me(c), (c.execution.signal = controller.signal)));
    while (refreshes === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    controller.abort();
    await expect(hung).rejects.toBeInstanceOf(AbortError);
    expect(await client.get(me)).toBe('in');
    expect(refreshes).toBe(2);
  });

  it('a call that joined a hung refresh gives up at its own timeout, while another still waits for it', async () => {
    deny();
    const client = kit.client();
    let release: (token: string) => void = () => undefined;
    const slow = new Promise<string>((resolve) => (release = resolve));
    let refreshes = 0;
    const refresh = () => (++refreshes === 1 ? slow : Promise.reject(new Error('not called: the running refresh is joined')));
    const patient = client.get((c) => (me(c), withRefresh('stale', refresh)(c)));
    while (refreshes === 0) await new Promise((resolve) => setTimeout(resolve, 1));
    const hasty = client.get((c) => {
      me(c);
      c.execution.timeout = { total: 50 };
      withRefresh('stale', refresh)(c);
    });
    await expect(hasty).rejects.toMatchObject({ name: 'TimeoutError', phase: 'total' });
    release('fresh');
    expect(await patient).toBe('in');
    expect(refreshes).toBe(1);
  });

  it("a hung token function ends at the call's total timeout, or when its signal aborts", async () => {
    kit.mock.on('GET', '/me').persist().reply(200, 'in');
    const client = kit.client((c) => c.request.auth.bearer(never));
    await expect(client.get((c) => (me(c), (c.execution.timeout = { total: 50 })))).rejects.toMatchObject({ name: 'TimeoutError', phase: 'total' });
    const controller = new AbortController();
    const aborted = client.get((c) => (me(c), (c.execution.signal = controller.signal)));
    setTimeout(() => controller.abort(), 20);
    await expect(aborted).rejects.toBeInstanceOf(AbortError);
    expect(kit.mock.calls).toHaveLength(0);
  });
});
