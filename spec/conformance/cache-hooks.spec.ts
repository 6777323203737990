// client.cache with credentials that an execution.hooks beforeAttempt hook adds (a signature, a
// per-user key): the cache, above the hooks, never sees them, so it never stores a private
// response for them, nor answers them but with a public one.
import { expect, it } from '@jest/globals';
import type { Attempt, HttpConfig } from '../../lib/index.js';
import { writeResponse } from '../support/response-writer.js';
import { get, json } from './cache-support.js';
import { conformance } from './kit.js';

conformance('HTTP cache: credentials a hook adds', (kit) => {
  /** A route answering `for <header>` with `cacheControl`. */
  function echoing(path: string, header: string, cacheControl: string) {
    return kit.server.expect({
      method: 'GET',
      path,
      respond: (req, res) => writeResponse(res, json(`for ${String(req.headers[header])}`, { 'Cache-Control': cacheControl })),
    });
  }

  /** A client with a cache whose beforeAttempt hook sets `header` to `value()`. */
  function signing(header: string, value: () => string, block?: (c: HttpConfig) => void) {
    return kit.client((c) => {
      c.client.cache = true;
      c.execution.hooks = { beforeAttempt: (attempt: Attempt) => void (attempt.headers[header] = value()) };
      block?.(c);
    });
  }

  it('a private response to a request a hook signed is not stored: each user gets their own, from the server', async () => {
    for (const [path, header] of [
      ['/key', 'X-Api-Key'],
      ['/signed', 'Authorization'],
    ]) {
      let user = 'alice';
      const route = echoing(path, header.toLowerCase(), 'private, max-age=60, must-revalidate');
      const http = signing(header, () => `${user}-secret`);
      const seen = [];
      for (const next of ['alice', 'bob', 'alice']) {
        user = next;
        seen.push(Object.values(await get(http, path)).slice(0, 2));
      }
      expect(seen).toEqual([
        ['miss', 'for alice-secret'],
        ['miss', 'for bob-secret'],
        ['miss', 'for alice-secret'],
      ]);
      expect(route.calls).toBe(3);
    }
  });

  it('once its hook was seen adding a credential, a client is answered only by public entries, not by one stored without', async () => {
    const route = echoing('/profile', 'x-api-key', 'max-age=60');
    echoing('/login', 'x-api-key', 'no-store');
    let signed = false;
    const http = signing(
      'X-Api-Key',
      () => 'alice-secret',
      (c) => {
        c.execution.hooks = { beforeAttempt: (attempt) => void (signed && (attempt.headers['X-Api-Key'] = 'alice-secret')) };
      },
    );
    expect(await get(http, '/profile')).toMatchObject({ cache: 'miss', body: 'for undefined' }); // the hook added nothing: stored for no credentials
    signed = true;
    // a hit makes no attempt: the hook has not run yet, so the cache cannot know (documented)
    expect(await get(http, '/profile')).toMatchObject({ cache: 'hit', body: 'for undefined' });
    await get(http, '/login'); // the hook signs this one: from now on, the cache knows
    expect(await get(http, '/profile')).toMatchObject({ cache: 'miss', body: 'for alice-secret' });
    expect(await get(http, '/profile')).toMatchObject({ cache: 'miss', body: 'for alice-secret' });
    expect(route.calls).toBe(3);
  });

  it('a public response to a signed request is stored and shared; a hook that adds no credential leaves caching as it was', async () => {
    let user = 'alice';
    const catalog = echoing('/catalog', 'x-api-key', 'public, max-age=60');
    const http = signing('X-Api-Key', () => `${user}-secret`);
    expect((await get(http, '/catalog')).cache).toBe('miss');
    user = 'bob';
    expect(await get(http, '/catalog')).toMatchObject({ cache: 'hit', body: 'for alice-secret' });
    expect(catalog.calls).toBe(1);
    const traced = echoing('/traced', 'x-request-id', 'private, max-age=60');
    let id = 0;
    const tracing = signing('X-Request-Id', () => String(++id));
    expect((await get(tracing, '/traced')).cache).toBe('miss');
    expect((await get(tracing, '/traced')).cache).toBe('hit');
    expect(traced.calls).toBe(1);
  });
});
