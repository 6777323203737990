// What the requests sharing one bearer refresh function remember: which token each refresh replaced.
import { describe, expect, it } from '@jest/globals';
import { BearerRefreshes } from '../../lib/auth/bearer-refreshes.js';

describe('BearerRefreshes', () => {
  it('a token refreshed twice: a request configured with the first sends the latest, and so does one configured with the middle one', async () => {
    const refreshes = new BearerRefreshes();
    expect(await refreshes.renew('a-1', 'a-1', () => Promise.resolve('a-2'))).toBe('a-2');
    expect(await refreshes.renew('a-1', refreshes.current('a-1'), () => Promise.resolve('a-3'))).toBe('a-3');
    expect([refreshes.current('a-1'), refreshes.current('a-2'), refreshes.current('b-1')]).toEqual(['a-3', 'a-3', 'b-1']);
  });

  it('a 401 to a token refreshed since it went out takes that refresh, without refreshing again', async () => {
    const refreshes = new BearerRefreshes();
    await refreshes.renew('a-1', 'a-1', () => Promise.resolve('a-2'));
    const refresh = () => Promise.reject(new Error('not called'));
    expect(await refreshes.renew('a-1', 'a-1', refresh)).toBe('a-2');
  });

  it('a refresh that fails replaces nothing, and the next 401 starts a new one', async () => {
    const refreshes = new BearerRefreshes();
    await expect(refreshes.renew('a-1', 'a-1', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(refreshes.current('a-1')).toBe('a-1');
    expect(await refreshes.renew('a-1', 'a-1', () => Promise.resolve('a-2'))).toBe('a-2');
  });

  it('remembers the last 1024 tokens refreshed: a service with many users does not grow it forever', async () => {
    const refreshes = new BearerRefreshes();
    for (let user = 0; user <= 1024; user++) await refreshes.renew(`u${user}`, `u${user}`, () => Promise.resolve(`u${user}-fresh`));
    expect(refreshes.current('u0')).toBe('u0'); // forgotten: its next 401 refreshes it again
    expect([refreshes.current('u1'), refreshes.current('u1024')]).toEqual(['u1-fresh', 'u1024-fresh']);
  });
});

describe('BearerRefreshes: waiters that give up', () => {
  const never = () => new Promise<string>(() => undefined);
  const aborted = () => {
    const controller = new AbortController();
    controller.abort(new Error('timed out'));
    return controller.signal;
  };

  it('a waiter whose signal aborts rejects with its reason; once every such waiter has, the next 401 starts a new refresh', async () => {
    const refreshes = new BearerRefreshes();
    const first = new AbortController();
    const second = new AbortController();
    const waiting = [refreshes.renew('a-1', 'a-1', never, first.signal), refreshes.renew('a-1', 'a-1', never, second.signal)];
    first.abort(new Error('first gave up'));
    await expect(waiting[0]).rejects.toThrow('first gave up');
    // one waiter still waits: a 401 now joins the running refresh
    let started = 0;
    const joined = refreshes.renew('a-1', 'a-1', () => (started++, Promise.resolve('a-2')), aborted());
    await expect(joined).rejects.toThrow('timed out');
    expect(started).toBe(0);
    second.abort(new Error('second gave up'));
    await expect(waiting[1]).rejects.toThrow('second gave up');
    expect(await refreshes.renew('a-1', 'a-1', () => (started++, Promise.resolve('a-2')))).toBe('a-2');
    expect(started).toBe(1);
  });

  it('a refresh everyone gave up on that ends later is remembered, unless a later refresh of that token gave one first', async () => {
    const refreshes = new BearerRefreshes();
    let finishSlow: (token: string) => void = () => undefined;
    const slow = new Promise<string>((resolve) => (finishSlow = resolve));
    await expect(refreshes.renew('a-1', 'a-1', () => slow, aborted())).rejects.toThrow('timed out');
    finishSlow('a-2');
    await slow;
    expect(refreshes.current('a-1')).toBe('a-2');

    const again = new BearerRefreshes();
    let finishLate: (token: string) => void = () => undefined;
    const late = new Promise<string>((resolve) => (finishLate = resolve));
    await expect(again.renew('a-1', 'a-1', () => late, aborted())).rejects.toThrow('timed out');
    expect(await again.renew('a-1', 'a-1', () => Promise.resolve('a-3'))).toBe('a-3');
    finishLate('a-2');
    await late;
    expect(again.current('a-1')).toBe('a-3');
  });
});

describe('BearerRefreshes: edge cases', () => {
  const fill = async (refreshes: BearerRefreshes, users: number) => {
    for (let user = 0; user < users; user++) await refreshes.renew(`u${user}`, `u${user}`, () => Promise.resolve(`u${user}-fresh`));
  };

  it('a replacement forgotten while its request was out: the 401 to it refreshes it, never answers with the expired configured token', async () => {
    const refreshes = new BearerRefreshes();
    await refreshes.renew('a-1', 'a-1', () => Promise.resolve('a-2'));
    const sent = refreshes.current('a-1');
    await fill(refreshes, 1024); // a-1's entry is evicted meanwhile
    let called = 0;
    expect(sent).toBe('a-2');
    expect(await refreshes.renew('a-1', sent, () => (called++, Promise.resolve('a-3')))).toBe('a-3');
    expect(called).toBe(1);
    expect(refreshes.current('a-1')).toBe('a-3');
  });

  it('a refresh that gives back the configured token leaves no stale replacement behind', async () => {
    const refreshes = new BearerRefreshes();
    await refreshes.renew('a-1', 'a-1', () => Promise.resolve('a-2'));
    expect(await refreshes.renew('a-1', 'a-2', () => Promise.resolve('a-1'))).toBe('a-1');
    expect(refreshes.current('a-1')).toBe('a-1');
  });

  it('the least recently used replacement is the first forgotten: a token in use stays', async () => {
    const refreshes = new BearerRefreshes();
    await refreshes.renew('a-1', 'a-1', () => Promise.resolve('a-2'));
    for (let user = 0; user < 1024; user++) {
      expect(refreshes.current('a-1')).toBe('a-2'); // a-1's user keeps sending requests
      await refreshes.renew(`u${user}`, `u${user}`, () => Promise.resolve(`u${user}-fresh`));
    }
    expect(refreshes.current('a-1')).toBe('a-2');
    expect(refreshes.current('u0')).toBe('u0');
  });
});
