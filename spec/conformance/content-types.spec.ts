import { expect, it } from '@jest/globals';
import { ParseError } from '../../lib/index.js';
import { conformance } from './kit.js';

const RESPONSES: Array<[string, string, unknown]> = [
  ['text/plain', 'ok-text', 'ok-text'],
  ['application/json', '{"value":"ok-json"}', { value: 'ok-json' }],
  ['application/xml', '<message value="ok-xml"/>', { message: { $: { value: 'ok-xml' } } }],
  ['text/html', '<html><body>ok-html</body>', '<html><body>ok-html</body>'],
  [
    'text/csv',
    'alpha,bravo,charlie\none,two,three',
    [
      ['alpha', 'bravo', 'charlie'],
      ['one', 'two', 'three'],
    ],
  ],
];
const BODIES: Array<[string, unknown, string]> = [
  ['no body', null, ''],
  ['{}', {}, '{}'],
  ["{one:'1'}", { one: '1' }, '{"one":"1"}'],
  ['{two:2}', { two: 2 }, '{"two":2}'],
  ["{one:'1', two:2}", { one: '1', two: 2 }, '{"one":"1","two":2}'],
];

conformance('/alpha: JSON bodies against text, JSON, XML, HTML and CSV responses', (kit) => {
  for (const verb of ['post', 'put'] as const) {
    for (const [bodyName, body, sent] of BODIES) {
      for (const [type, responseBody, parsed] of RESPONSES) {
        it(`${verb.toUpperCase()} ${bodyName} → ${type}`, async () => {
          kit.server.expect({ method: verb.toUpperCase(), path: '/alpha', body: sent, respond: { headers: { 'Content-Type': type }, body: responseBody } });
          const result = await kit.client()[verb]((c) => {
            c.request.uri.path = '/alpha';
            c.request.contentType = 'application/json';
            c.request.body = body;
          });
          expect(result).toEqual(parsed);
        });
      }
    }
  }
});

conformance('XML, CSV and HTML bodies', (kit) => {
  const ok = { headers: { 'Content-Type': 'text/plain' }, body: 'ok' };

  it('an object goes as XML (xml2js conventions), a string as is', async () => {
    kit.server.expect({ method: 'POST', path: '/xml', respond: ok });
    const client = kit.client((c) => void (c.request.uri.path = '/xml'));
    await client.post((c) => Object.assign(c.request, { contentType: 'application/xml', body: { message: { $: { value: 'ok' } } } }));
    await client.post((c) => Object.assign(c.request, { contentType: 'text/xml', body: '<already value="xml"/>' }));
    const [object, text] = kit.server.requests.map((r) => r.body.toString());
    expect(object).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\s*<message value="ok"\/>$/);
    expect(text).toBe('<already value="xml"/>');
  });

  it('rows of arrays or objects go as CSV, and as TSV for text/tab-separated-values', async () => {
    kit.server.expect({ method: 'PUT', path: '/csv', respond: ok });
    const client = kit.client((c) => void (c.request.uri.path = '/csv'));
    await client.put((c) =>
      Object.assign(c.request, {
        contentType: 'text/csv',
        body: [
          ['a', 'b,c'],
          ['1', '2'],
        ],
      }),
    );
    await client.put((c) => Object.assign(c.request, { contentType: 'text/csv', body: [{ name: 'Ada', year: 1815 }] }));
    await client.put((c) =>
      Object.assign(c.request, {
        contentType: 'text/tab-separated-values',
        body: [
          ['a', 'b'],
          ['1', '2'],
        ],
      }),
    );
    expect(kit.server.requests.map((r) => r.body.toString())).toEqual(['a,"b,c"\n1,2\n', 'name,year\nAda,1815\n', 'a\tb\n1\t2\n']);
  });

  it('HTML and JSON strings are sent unchanged', async () => {
    kit.server.expect({ method: 'POST', path: '/as-is', respond: ok });
    const client = kit.client((c) => void (c.request.uri.path = '/as-is'));
    await client.post((c) => Object.assign(c.request, { contentType: 'text/html', body: '<p>hi</p>' }));
    await client.post((c) => Object.assign(c.request, { contentType: 'application/json', body: '{"pre":"made"}' }));
    expect(kit.server.requests.map((r) => r.body.toString())).toEqual(['<p>hi</p>', '{"pre":"made"}']);
  });

  it('a TSV response parses to rows, a +xml type as XML', async () => {
    kit.server.expect({ method: 'GET', path: '/tsv', respond: { headers: { 'Content-Type': 'text/tab-separated-values' }, body: 'a\tb\n1\t2' } });
    kit.server.expect({
      method: 'GET',
      path: '/atom',
      respond: { headers: { 'Content-Type': 'application/atom+xml' }, body: '<feed><title>t</title></feed>' },
    });
    const client = kit.client();
    expect(await client.get((c) => void (c.request.uri.path = '/tsv'))).toEqual([
      ['a', 'b'],
      ['1', '2'],
    ]);
    expect(await client.get((c) => void (c.request.uri.path = '/atom'))).toEqual({ feed: { title: ['t'] } });
  });

  it('invalid XML rejects with ParseError carrying status and text', async () => {
    kit.server.expect({ method: 'GET', path: '/bad-xml', respond: { headers: { 'Content-Type': 'application/xml' }, body: '<open>' } });
    const error = await kit
      .client()
      .get((c) => void (c.request.uri.path = '/bad-xml'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseError);
    expect([(error as ParseError).statusCode, (error as ParseError).text]).toEqual([200, '<open>']);
  });
});
