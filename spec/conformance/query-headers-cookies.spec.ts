import { expect, it } from '@jest/globals';
import type { ConfigBlock, HttpConfig } from '../../lib/index.js';
import { conformance } from './kit.js';

const TEXT = { headers: { 'Content-Type': 'text/plain' }, body: 'ok-text' };
const DELTA = { headers: { 'Content-Type': 'text/date' }, body: '2016.08.25 14:43' };

/** `2016.08.25 14:43` → a local Date, as the specification's custom parser does. */
function parseDeltaDate(text: string): Date {
  const [, y, mo, d, h, mi] = /^(\d{4})\.(\d{2})\.(\d{2}) (\d{2}):(\d{2})$/.exec(text.trim())!;
  return new Date(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi));
}

conformance('/bravo, /charlie, /delta, /json: queries, headers, cookies, custom parsers', (kit) => {
  const queries: Array<[string, Record<string, string | string[]>]> = [
    ['one alpha', { alpha: 'one' }],
    ['two alphas', { alpha: ['one', 'two'] }],
    ['alpha and bravo', { alpha: 'one', bravo: 'two' }],
  ];
  for (const [name, query] of queries) {
    it(`POST /bravo with ${name} sends the query`, async () => {
      kit.server.expect({ method: 'POST', path: '/bravo', query, body: '{"a":1}', respond: TEXT });
      const result = await kit.client().post((c) => {
        c.request.uri.path = '/bravo';
        c.request.uri.query = query;
        c.request.contentType = 'application/json';
        c.request.body = { a: 1 };
      });
      expect(result).toBe('ok-text');
    });
  }

  it('POST /bravo with two alphas repeats the name in order', async () => {
    kit.server.expect({ method: 'POST', path: '/bravo', respond: TEXT });
    await kit.client().post((c) => {
      c.request.uri.path = '/bravo';
      c.request.uri.query = { alpha: ['one', 'two'] };
    });
    expect(kit.server.requests[0].target).toBe('/bravo?alpha=one&alpha=two');
  });

  for (const [name, query] of [
    ['null', null],
    ['{}', {}],
  ] as const) {
    it(`POST /bravo with a ${name} query sends no query string`, async () => {
      kit.server.expect({ method: 'POST', path: '/bravo', query: {}, respond: TEXT });
      await kit.client().post((c) => {
        c.request.uri.path = '/bravo';
        c.request.uri.query = query;
      });
      expect(kit.server.requests[0].hasQueryString).toBe(false);
    });
  }

  for (const verb of ['post', 'put'] as const) {
    it(`${verb.toUpperCase()} /charlie sends a custom header and a JSON body`, async () => {
      kit.server.expect({
        method: verb.toUpperCase(),
        path: '/charlie',
        headers: { 'X-Custom-Header': 'custom-value', 'Content-Type': 'application/json' },
        body: '{"alpha":"bravo","charlie":42}',
        respond: TEXT,
      });
      const result = await kit.client()[verb]((c) => {
        c.request.uri.path = '/charlie';
        c.request.headers['X-Custom-Header'] = 'custom-value';
        c.request.contentType = 'application/json';
        c.request.body = { alpha: 'bravo', charlie: 42 };
      });
      expect(result).toBe('ok-text');
    });
  }

  const cookieCases: Array<[string, Record<string, string>]> = [
    ['no cookies', {}],
    ['one cookie', { flavor: 'chocolate-chip' }],
    ['two cookies', { flavor: 'chocolate-chip', count: 'dozen' }],
  ];
  for (const verb of ['post', 'put', 'delete'] as const) {
    for (const [name, cookies] of cookieCases) {
      it(`${verb.toUpperCase()} /delta with ${name} parses text/date into a Date`, async () => {
        kit.server.expect({ method: verb.toUpperCase(), path: '/delta', cookies, respond: DELTA });
        const result = await kit.client()[verb](Date, (c) => {
          c.request.uri.path = '/delta';
          c.request.cookies = cookies;
          if (verb !== 'delete') {
            c.request.contentType = 'application/json';
            c.request.body = { alpha: 'bravo' };
          }
          c.response.parser('text/date', async (fromServer) => parseDeltaDate(await fromServer.text()));
        });
        expect(result).toBeInstanceOf(Date);
        expect(result.getTime()).toBe(new Date(2016, 7, 25, 14, 43).getTime());
      });
    }
  }

  it('two cookies travel in one Cookie header joined by "; "', async () => {
    kit.server.expect({ method: 'HEAD', path: '/delta', respond: { headers: { 'Content-Type': 'text/date' } } });
    const result = await kit.client().head((c) => {
      c.request.uri.path = '/delta';
      c.request.cookie('flavor', 'chocolate-chip');
      c.request.cookie('count', 'dozen');
    });
    expect(result).toBeNull();
    const cookieHeaders = kit.server.requests[0].rawHeaders.filter(([name]) => name.toLowerCase() === 'cookie');
    expect(cookieHeaders).toEqual([[kit.asSent('Cookie'), 'flavor=chocolate-chip; count=dozen']]);
  });

  it("a Cookie header of the caller's keeps its pairs, the cookies following in the same header (a name in both goes once, as cookies has it)", async () => {
    kit.server.expect({ method: 'GET', path: '/both', respond: TEXT });
    await kit
      .client((c) => void (c.request.headers.cookie = 'session=abc; theme=light;'))
      .get((c) => {
        c.request.uri.path = '/both';
        c.request.cookie('theme', 'dark');
      });
    const cookieHeaders = kit.server.requests[0].rawHeaders.filter(([name]) => name.toLowerCase() === 'cookie');
    expect(cookieHeaders).toEqual([[kit.asSent('Cookie'), 'session=abc; theme=dark']]);
  });

  it("a client's parser serves all its requests; a request's own wins for that request only; the block's config kept and changed later changes nothing", async () => {
    for (let i = 0; i < 3; i++) kit.server.expect({ method: 'GET', path: '/delta', respond: DELTA });
    let kept: HttpConfig | undefined;
    const client = kit.client((c) => {
      c.response.parser('text/date', async (fromServer) => `client: ${await fromServer.text()}`);
      kept = c;
    });
    const get = (block?: ConfigBlock) =>
      client.get((c) => {
        c.request.uri.path = '/delta';
        block?.call(c, c);
      });
    kept!.response.parser('text/date', () => 'changed afterwards');
    expect(await get()).toBe('client: 2016.08.25 14:43');
    expect(await get((c) => c.response.parser('text/date', () => 'request'))).toBe('request');
    expect(await get()).toBe('client: 2016.08.25 14:43');
  });

  it('GET /json with Content-Type: application/json returns the object', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/json',
      headers: { 'Content-Type': 'application/json' },
      respond: { headers: { 'Content-Type': 'application/json' }, body: '{"alpha":"bravo","charlie":42}' },
    });
    const result = await kit.client().get((c) => {
      c.request.uri.path = '/json';
      c.request.contentType = 'application/json';
    });
    expect(result).toEqual({ alpha: 'bravo', charlie: 42 });
    expect(kit.server.requests[0].body.length).toBe(0);
  });
});
