// http.paginate() on the MockBackend: how pages are found, requested and turned into items.
import { expect, it } from '@jest/globals';
import { ConfigError, HttpBuilderError, HttpException, ResultTypeError } from '../../lib/index.js';
import { ORIGIN, pipeline } from './kit.js';

/** Every item of `items`, in order. */
async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const seen: T[] = [];
  for await (const item of items) seen.push(item);
  return seen;
}

/** The rejection of iterating `items` to its end, and the items seen before it. */
async function failure<T>(items: AsyncIterable<T>): Promise<{ seen: T[]; error: unknown }> {
  const seen: T[] = [];
  try {
    for await (const item of items) seen.push(item);
  } catch (error) {
    return { seen, error };
  }
  throw new Error('the iteration did not fail');
}

class User {
  id = 0;
  get tag(): string {
    return `user-${this.id}`;
  }
}

/** A Standard Schema accepting `{ id: number }`. */
const UserSchema = {
  '~standard': {
    version: 1,
    vendor: 'spec',
    validate: (value: unknown) => (typeof (value as { id?: unknown }).id === 'number' ? { value } : { issues: [{ message: 'id must be a number' }] }),
  },
} as const;

pipeline('paginate()', (kit) => {
  /** Three pages of users, linked GitHub-style: several links per header, quoted and bare params, relative and absolute targets. */
  function githubPages(): void {
    kit.mock
      .on('GET', '/users?per_page=2')
      .reply(200, [{ id: 1 }, { id: 2 }], { link: `<${ORIGIN}/users?per_page=2&page=2>; rel="next", </users?per_page=2&page=3>; rel=last` });
    kit.mock
      .on('GET', '/users?per_page=2&page=2')
      .reply(200, [{ id: 3 }, { id: 4 }], { link: '</users?per_page=2&page=1>; rel="prev first", <?per_page=2&page=3>; title="more, later"; rel="next"' });
    kit.mock.on('GET', '/users?per_page=2&page=3').reply(200, [{ id: 5 }], { link: '</users?per_page=2&page=2>; rel="prev"' });
  }
  const users = (c: { request: { uri: { path?: string; query: Record<string, unknown> } } }) => {
    c.request.uri.path = '/users';
    c.request.uri.query.per_page = 2;
  };

  it('follows Link rel="next" to the last page, yielding every item in order', async () => {
    githubPages();
    expect(await all(kit.client().paginate(users))).toEqual([{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }, { id: 5 }]);
    kit.mock.assertDone();
  });

  it('requests a page only when the loop needs its items, and nothing more after a break', async () => {
    githubPages();
    const iterator = kit.client().paginate(users)[Symbol.asyncIterator]();
    expect(kit.mock.calls).toHaveLength(0); // nothing before the loop asks
    await iterator.next();
    await iterator.next();
    expect(kit.mock.calls).toHaveLength(1);
    await iterator.next();
    expect(kit.mock.calls).toHaveLength(2);
    await iterator.return?.();
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
    expect(kit.mock.calls.map((call) => call.url)).toEqual([`${ORIGIN}/users?per_page=2`, `${ORIGIN}/users?per_page=2&page=2`]);
  });

  it('converts each item to the type: a class, or a Standard Schema whose failure ends the loop after the valid items', async () => {
    githubPages();
    const seen = await all(kit.client().paginate(User, users));
    expect(seen.every((user) => user instanceof User)).toBe(true);
    expect(seen.map((user) => user.tag)).toEqual(['user-1', 'user-2', 'user-3', 'user-4', 'user-5']);

    kit.mock.on('GET', '/mixed').reply(200, [{ id: 1 }, { id: 'two' }]);
    const { seen: valid, error } = await failure(kit.client().paginate(UserSchema, (c) => void (c.request.uri.path = '/mixed')));
    expect(valid).toEqual([{ id: 1 }]);
    expect(error).toBeInstanceOf(ResultTypeError);
  });

  it('a cursor: next returns a block that changes the previous request, which keeps what the first block set', async () => {
    kit.mock
      .on('GET', '/events?limit=2')
      .withHeaders({ 'x-team': 'core' })
      .reply(200, { data: ['a', 'b'], next_cursor: 'c2' });
    kit.mock
      .on('GET', '/events?limit=2&cursor=c2')
      .withHeaders({ 'x-team': 'core' })
      .reply(200, { data: ['c', 'd'], next_cursor: 'c3' });
    kit.mock
      .on('GET', '/events?limit=2&cursor=c3')
      .withHeaders({ 'x-team': 'core' })
      .reply(200, { data: ['e'], next_cursor: null });
    const events = kit.client().paginate(String, (c) => {
      c.request.uri.path = '/events';
      c.request.uri.query = { limit: 2 };
      c.request.headers['X-Team'] = 'core';
      c.response.paginate({
        items: (body) => (body as { data: string[] }).data,
        next: (_fromServer, body) => {
          const cursor = (body as { next_cursor: string | null }).next_cursor;
          return cursor === null ? undefined : (next) => void (next.request.uri.query.cursor = cursor);
        },
      });
    });
    expect(await all(events)).toEqual(['a', 'b', 'c', 'd', 'e']);
    kit.mock.assertDone();
  });

  it('next may return a URL relative to the page, and sees the response of the last redirect hop', async () => {
    kit.mock.on('GET', '/v1/list').reply(302, '', { location: '/v2/list' });
    kit.mock.on('GET', '/v2/list').reply(200, { results: [1, 2], more: 'list?after=2' });
    kit.mock.on('GET', '/v2/list?after=2').reply(200, { results: [3], more: null });
    const seen = await all(
      kit.client().paginate(Number, (c) => {
        c.request.uri.path = '/v1/list';
        c.response.paginate({
          items: (body) => (body as { results: number[] }).results,
          next: (_fromServer, body) => (body as { more: string | null }).more ?? undefined,
        });
      }),
    );
    expect(seen).toEqual([1, 2, 3]);
  });

  it('maxPages and maxItems stop the walk without requesting another page', async () => {
    githubPages();
    expect(await all(kit.client().paginate((c) => (users(c), c.response.paginate({ maxPages: 2 }))))).toHaveLength(4);
    expect(kit.mock.calls).toHaveLength(2);

    kit.mock.reset();
    githubPages();
    expect(await all(kit.client().paginate((c) => (users(c), c.response.paginate({ maxItems: 2 }))))).toEqual([{ id: 1 }, { id: 2 }]);
    expect(kit.mock.calls).toHaveLength(1); // the second page's items were not needed
  });

  it('a page that names itself as next rejects with ERR_PAGINATION_LOOP, unsent, naming the URL redacted', async () => {
    kit.mock.on('GET', '/feed?access_token=s3cret&page=1').persist().reply(200, [], { link: '</feed?access_token=s3cret&page=1>; rel="next"' });
    const { seen, error } = await failure(kit.client().paginate((c) => void (c.request.uri = `${ORIGIN}/feed?access_token=s3cret&page=1`)));
    expect(seen).toEqual([]);
    expect(error).toBeInstanceOf(HttpBuilderError);
    expect(error).toMatchObject({ name: 'HttpBuilderError', code: 'ERR_PAGINATION_LOOP' });
    expect((error as Error).message).toBe(
      `paginate(): the next page ${ORIGIN}/feed?access_token=***&page=1 was already fetched as page 1 of this walk: the pages link in a loop, so the walk stops`,
    );
    expect(kit.mock.calls).toHaveLength(1); // the repeated page was not requested again
  });

  it('A → B → A: the items of A and B, then ERR_PAGINATION_LOOP; a page reached by a redirect counts as fetched', async () => {
    kit.mock.on('GET', '/a').persist().reply(200, ['a'], { link: '</b>; rel="next"' });
    kit.mock.on('GET', '/b').persist().reply(200, ['b'], { link: '</a>; rel="next"' });
    const cycle = await failure(kit.client().paginate((c) => void (c.request.uri.path = '/a')));
    expect(cycle.seen).toEqual(['a', 'b']);
    expect(cycle.error).toMatchObject({ code: 'ERR_PAGINATION_LOOP', message: expect.stringContaining(`${ORIGIN}/a was already fetched as page 1`) });
    expect(kit.mock.calls).toHaveLength(2);

    kit.mock.reset();
    kit.mock.on('GET', '/start').reply(302, '', { location: '/list?page=1' });
    kit.mock.on('GET', '/list?page=1').reply(200, [1], { link: '</list?page=1>; rel="next"' });
    const redirected = await failure(kit.client().paginate((c) => void (c.request.uri.path = '/start')));
    expect(redirected.seen).toEqual([1]);
    expect(redirected.error).toMatchObject({ code: 'ERR_PAGINATION_LOOP' });
    expect(kit.mock.calls.map((call) => call.url)).toEqual([`${ORIGIN}/start`, `${ORIGIN}/list?page=1`]);
  });

  it('a cursor in the query or in a header is a new page each time it changes, a loop when the server sends one again', async () => {
    const cursors: Record<string, string> = { '': 'c1', c1: 'c2', c2: 'c1' }; // c2 sends c1 again
    kit.mock
      .on('GET', /\/scan/)
      .persist()
      .reply((call) => {
        const url = new URL(call.url);
        const cursor = url.searchParams.get('cursor') ?? call.headers['x-continuation'] ?? '';
        return [200, { data: [cursor || 'start'], next: cursors[cursor] }];
      });
    const walk = (where: 'query' | 'header') =>
      kit.client().paginate(String, (c) => {
        c.request.uri.path = '/scan';
        c.response.paginate({
          items: (body) => (body as { data: string[] }).data,
          next: (_fromServer, body) => {
            const cursor = (body as { next: string }).next;
            return where === 'query'
              ? (next) => void (next.request.uri.query.cursor = cursor)
              : (next) => void (next.request.headers['X-Continuation'] = cursor);
          },
        });
      });
    for (const where of ['query', 'header'] as const) {
      const { seen, error } = await failure(walk(where));
      expect(seen).toEqual(['start', 'c1', 'c2']);
      expect(error).toMatchObject({ code: 'ERR_PAGINATION_LOOP', message: expect.stringContaining('was already fetched as page 2') });
    }
    expect(kit.mock.calls).toHaveLength(6);
  });

  it('a cursor in the JSON body (a scroll) is a new page each time it changes, a loop when the server sends one again', async () => {
    const next: Record<number, number> = { 0: 1, 1: 2, 2: 1 }; // scroll 2 names scroll 1 again
    kit.mock
      .on('GET', '/_search/scroll')
      .persist()
      .reply((call) => {
        const scroll = (JSON.parse(call.body.toString()) as { scroll_id: number }).scroll_id;
        return [200, { hits: [scroll], scroll_id: next[scroll] }];
      });
    const { seen, error } = await failure(
      kit.client().paginate(Number, (c) => {
        c.request.uri.path = '/_search/scroll';
        c.request.contentType = 'application/json';
        c.request.body = { scroll_id: 0 };
        c.response.paginate({
          items: (body) => (body as { hits: number[] }).hits,
          next: (_fromServer, body) => (page) => void (page.request.body = { scroll_id: (body as { scroll_id: number }).scroll_id }),
        });
      }),
    );
    expect(seen).toEqual([0, 1, 2]);
    expect(error).toMatchObject({ code: 'ERR_PAGINATION_LOOP', message: expect.stringContaining('was already fetched as page 2') });
    expect(kit.mock.calls).toHaveLength(3);
  });

  it('a page redirected back to an earlier page ends the walk before its items come again', async () => {
    kit.mock.on('GET', '/a').persist().reply(200, ['a'], { link: '</b>; rel="next"' });
    kit.mock.on('GET', '/b').persist().reply(302, '', { location: '/a' });
    const { seen, error } = await failure(kit.client().paginate((c) => void (c.request.uri.path = '/a')));
    expect(seen).toEqual(['a']);
    expect(error).toMatchObject({
      code: 'ERR_PAGINATION_LOOP',
      message: `paginate(): page 2 (${ORIGIN}/b) was redirected to ${ORIGIN}/a, already fetched as page 1 of this walk: the pages link in a loop, so the walk stops`,
    });
  });

  it('the loop error names the page without its fragment (a token may ride there)', async () => {
    kit.mock.on('GET', '/feed').persist().reply(200, [1], { link: '</feed#access_token=s3cret>; rel="next"' });
    const { error } = await failure(kit.client().paginate((c) => void (c.request.uri.path = '/feed')));
    expect(error).toMatchObject({ code: 'ERR_PAGINATION_LOOP' });
    expect((error as Error).message).toContain(`the next page ${ORIGIN}/feed was already fetched as page 1`);
    expect((error as Error).message).not.toContain('s3cret');
  });

  it('maxPages and maxItems take Infinity: no cap', async () => {
    githubPages();
    const items = await all(kit.client().paginate((c) => (users(c), c.response.paginate({ maxPages: Infinity, maxItems: Infinity }))));
    expect(items).toHaveLength(5);
  });

  it('maxPages is 10,000 by default: an endless walk of new pages ends quietly there', async () => {
    kit.mock
      .on('GET', /\/numbers/)
      .persist()
      .reply((call) => {
        const page = Number(new URL(call.url).searchParams.get('page') ?? '1');
        return [200, [page], { link: `</numbers?page=${page + 1}>; rel="next"` }];
      });
    let count = 0;
    let last = 0;
    for await (const item of kit.client().paginate(Number, (c) => void (c.request.uri.path = '/numbers'))) {
      count++;
      last = item;
    }
    expect([count, last]).toEqual([10_000, 10_000]);
    expect(kit.mock.calls).toHaveLength(10_000);
  }, 60_000);

  it("options merge option by option: the client's items stay under a request's maxPages", async () => {
    kit.mock.on('GET', '/a').reply(200, { items: [1, 2] }, { link: '</b>; rel=next' });
    kit.mock.on('GET', '/b').reply(200, { items: [3] }, { link: '</c>; rel=next' });
    const client = kit.client((c) => c.response.paginate({ items: (body) => (body as { items: number[] }).items }));
    expect(await all(client.paginate((c) => ((c.request.uri.path = '/a'), c.response.paginate({ maxPages: 2 }))))).toEqual([1, 2, 3]);
  });

  it('a failing page rejects the loop after the items already yielded', async () => {
    kit.mock.on('GET', '/p1').reply(200, ['x', 'y'], { link: '</p2>; rel="next"' });
    kit.mock.on('GET', '/p2').reply(503, 'try later');
    const { seen, error } = await failure(kit.client().paginate((c) => void (c.request.uri.path = '/p1')));
    expect(seen).toEqual(['x', 'y']);
    expect(error).toBeInstanceOf(HttpException);
    expect(error).toMatchObject({ statusCode: 503 });
  });

  it("a handler's answer is the page's body: when(404) returning [] ends the walk quietly", async () => {
    kit.mock.on('GET', '/p1').reply(200, ['x'], { link: '</p2>; rel="next"' });
    kit.mock.on('GET', '/p2').reply(404);
    const items = kit.client().paginate((c) => {
      c.request.uri.path = '/p1';
      c.response.when(404, () => []);
    });
    expect(await all(items)).toEqual(['x']);
  });

  it('a page without a body has no items; an async block is awaited first', async () => {
    kit.mock.on('GET', '/empty').reply(204);
    const items = kit.client().paginate(async (c) => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      c.request.uri.path = '/empty';
    });
    expect(await all(items)).toEqual([]);
  });

  it('bad input is a clear error, before anything is sent', async () => {
    const client = kit.client();
    expect(() => client.paginate((c) => c.response.paginate({ maxPages: 0 }))).not.toThrow(); // a rejection of the loop, as verbs reject
    await expect(all(client.paginate((c) => c.response.paginate({ maxPages: 0 })))).rejects.toThrow(
      new ConfigError('response.paginate({ maxPages }) must be a whole number of at least 1 (or Infinity), not a number (0)'),
    );
    await expect(all(client.paginate((c) => c.response.paginate({ nextPage: () => undefined } as never)))).rejects.toThrow(
      /'nextPage' is no option \(items, next, maxPages, maxItems\)/,
    );
    await expect(all(client.paginate((c) => c.response.paginate({ items: [] as never })))).rejects.toThrow(/response.paginate\(\{ items \}\) needs a function/);
    await expect(all(client.paginate('/users' as never))).rejects.toThrow(ConfigError);
    expect(kit.mock.calls).toHaveLength(0);
  });

  it('a next page on another origin is not followed (the credentials would go along), unless a block moves there', async () => {
    kit.mock.on('GET', '/mine').persist().reply(200, [1], { link: '<https://elsewhere.example.test/theirs>; rel="next"' });
    kit.mock.on('GET', 'https://elsewhere.example.test/theirs').reply(200, [2]);
    const secret = (c: { request: { uri: { path?: string }; auth: { basic(user: string, password: string): void } } }) => {
      c.request.uri.path = '/mine';
      c.request.auth.basic('ada', 'secret');
    };
    const { seen, error } = await failure(kit.client().paginate(secret));
    expect(seen).toEqual([1]);
    expect(error).toEqual(
      new ConfigError(
        "the next page https://elsewhere.example.test/theirs is on another origin than the page (https://api.example.test): not followed, as the request's credentials would go along; to follow it, return a block from response.paginate({ next }) that sets c.request.uri",
      ),
    );
    const moved = kit.client().paginate((c) => {
      secret(c);
      c.response.paginate({
        next: (fromServer) => (fromServer.uri.includes('elsewhere') ? undefined : (next) => void (next.request.uri = 'https://elsewhere.example.test/theirs')),
      });
    });
    expect(await all(moved)).toEqual([1, 2]);
  });

  it('a body that is no list, or a next that is neither URL nor block, names the problem', async () => {
    kit.mock.on('GET', '/object').reply(200, { items: [1] });
    await expect(all(kit.client().paginate((c) => void (c.request.uri.path = '/object')))).rejects.toThrow(
      /^paginate\(\): the page of https:\/\/api.example.test\/object is an object, not an array of items; say where they are with c.response.paginate/,
    );
    kit.mock.on('GET', '/list').reply(200, [1]);
    const items = kit.client().paginate((c) => ((c.request.uri.path = '/list'), c.response.paginate({ next: () => 42 as never })));
    const { seen, error } = await failure(items);
    expect(seen).toEqual([1]);
    expect(error).toEqual(new ConfigError('response.paginate({ next }) returned a number: return a URL string, a block, or undefined to stop'));
  });
});
