// http.paginate() against a real server, on every backend: a walk that comes back to a page ends.
import { expect, it } from '@jest/globals';
import { HttpBuilderError } from '../../lib/index.js';
import { untilFailure } from '../support/chunk-sources.js';
import { conformance } from './kit.js';
import { expectNoLeak } from './no-leak.js';

const json = (body: unknown, link: string) => ({ headers: { 'Content-Type': 'application/json', Link: link }, body: JSON.stringify(body) });

conformance('paginate() ends', (kit) => {
  it('an empty page whose Link rel="next" names itself: ERR_PAGINATION_LOOP after one request, the URL redacted', async () => {
    const page = kit.server.expect({
      method: 'GET',
      path: '/items',
      query: { page: '7', api_key: 'k3y' },
      respond: json([], '</items?page=7&api_key=k3y>; rel="next"'),
    });
    const client = kit.client();
    const walk = (await expectNoLeak(kit, client, () =>
      untilFailure(client.paginate((c) => void ((c.request.uri.path = '/items'), (c.request.uri.query = { page: 7, api_key: 'k3y' })))),
    )) as Awaited<ReturnType<typeof untilFailure>>;
    expect(walk.seen).toEqual([]);
    expect(walk.error).toBeInstanceOf(HttpBuilderError);
    expect(walk.error).toMatchObject({
      code: 'ERR_PAGINATION_LOOP',
      message: `paginate(): the next page ${kit.server.url(kit.secure)}/items?page=7&api_key=*** was already fetched as page 1 of this walk: the pages link in a loop, so the walk stops`,
    });
    expect(page.calls).toBe(1);
  });

  it('A → B → A by query cursors: the items of A and B, then ERR_PAGINATION_LOOP, A not requested again', async () => {
    const a = kit.server.expect({ method: 'GET', path: '/list', query: { cursor: 'a' }, respond: json(['a1', 'a2'], '</list?cursor=b>; rel="next"') });
    const b = kit.server.expect({ method: 'GET', path: '/list', query: { cursor: 'b' }, respond: json(['b1'], '</list?cursor=a>; rel="next"') });
    const walk = await untilFailure(kit.client().paginate(String, (c) => void ((c.request.uri.path = '/list'), (c.request.uri.query.cursor = 'a'))));
    expect(walk.seen).toEqual(['a1', 'a2', 'b1']);
    expect(walk.error).toMatchObject({ code: 'ERR_PAGINATION_LOOP', message: expect.stringContaining('/list?cursor=a was already fetched as page 1') });
    expect([a.calls, b.calls]).toEqual([1, 1]);
  });
});
