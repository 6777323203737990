// HAR 1.2 record and replay of httpbuilder-ts/testing: MockBackend.record against the real test
// server (http and https), the file it writes, and MockBackend.fromHar answering the same calls
// with no server.
import { describe, expect, it } from '@jest/globals';
import { readFile, writeFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { ConfigError, HttpBuilder, HttpException, type Backend, type ConfigBlock } from '../../lib/index.js';
import { VERSION } from '../../lib/core/version.js';
import { MockBackend, type Har, type HarEntry } from '../../lib/testing.js';
import { useTestServer } from '../support/use-test-server.js';
import { useHarFiles } from './support/har-files.js';

const holder = useTestServer();
const files = useHarFiles('hb-har-');
const harFile = files.file;
const path = (p: string) => (c: Parameters<ConfigBlock>[0]) => void (c.request.uri.path = p);
/** A block sending `body` as `contentType` to `p`. */
const sending = (p: string, contentType: string, body: () => unknown) => (c: Parameters<ConfigBlock>[0]) => {
  c.request.uri.path = p;
  c.request.contentType = contentType;
  c.request.body = body();
};
const readHarFile = async (file: string) => JSON.parse(await readFile(file, 'utf8')) as Har;

const PASSWORD = 's3cret-pw';
const BASIC = `Basic ${Buffer.from(`ada:${PASSWORD}`).toString('base64')}`;
const SESSION = 'sess-0123456789-secret';
const GZIPPED = 'squeezed text, '.repeat(40);
// a PNG signature and bytes that are no UTF-8
const PICTURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00, 0x80]);
const UPLOAD = Buffer.from([0x00, 0xff, 0x01, 0xfe]);

/** The test server's answers for the session below. */
function expectSession(): void {
  const { server } = holder;
  server.expect({ method: 'GET', path: '/users/42', respond: { headers: { 'content-type': 'application/json' }, body: '{"id":42,"name":"Ada"}' } });
  server.expect({ method: 'GET', path: '/readme', respond: { headers: { 'content-type': 'text/plain; charset=utf-8' }, body: GZIPPED, encoding: 'gzip' } });
  server.expect({ method: 'GET', path: '/logo.png', respond: { headers: { 'content-type': 'image/png' }, body: PICTURE } });
  server.expect({
    method: 'POST',
    path: '/users',
    body: '{"name":"Grace"}',
    respond: { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":43}' },
  });
  server.expect({ method: 'PUT', path: '/upload', body: UPLOAD, respond: { status: 204 } });
  server.expect({ method: 'GET', path: '/missing', respond: { status: 404, headers: { 'content-type': 'text/plain' }, body: 'no such thing' } });
  server.expect({ method: 'GET', path: '/old', respond: { status: 302, headers: { location: '/older' } } });
  server.expect({ method: 'GET', path: '/older', respond: { status: 301, headers: { location: '/new' } } });
  server.expect({ method: 'GET', path: '/new', respond: { headers: { 'content-type': 'text/plain' }, body: 'arrived' } });
  server.expect({
    method: 'GET',
    path: '/private',
    headers: { authorization: BASIC },
    respond: { headers: { 'content-type': 'text/plain', 'set-cookie': `session=${SESSION}; Path=/; HttpOnly` }, body: 'welcome' },
  });
  server.expect({ method: 'GET', path: '/private', respond: { status: 401, headers: { 'www-authenticate': 'Basic realm="api"' } } });
  server.expect({ method: 'GET', path: '/me', cookies: { session: SESSION }, respond: { headers: { 'content-type': 'text/plain' }, body: 'you again' } });
}

/** The session: every kind of exchange, each result (or the error's status and body) in a list. */
async function runSession(http: HttpBuilder): Promise<unknown[]> {
  const failure = (e: unknown) => (e instanceof HttpException ? { status: e.statusCode, body: e.body } : e);
  return [
    await http.get(path('/users/42')),
    await http.get(path('/readme')),
    await http.get(path('/logo.png')),
    await http.post(sending('/users', 'application/json', () => ({ name: 'Grace' }))),
    await http.put(sending('/upload', 'application/octet-stream', () => UPLOAD)),
    await http.get(path('/missing')).catch(failure),
    await http.get(path('/old')),
    await http.get(path('/private')),
    await http.get(path('/me')),
  ];
}

function clientOf(origin: string, backend: Backend): HttpBuilder {
  return HttpBuilder.configure((c) => {
    c.request.uri = origin;
    c.client.backend = backend;
    c.client.cookies = true;
    c.request.auth.basic('ada', PASSWORD);
  });
}

/** The fields HAR 1.2 requires of an entry, with their types. */
function expectValidEntry(entry: HarEntry): void {
  expect(entry).toMatchObject({ startedDateTime: expect.any(String), time: expect.any(Number), cache: {} });
  expect(Number.isNaN(Date.parse(entry.startedDateTime))).toBe(false);
  expect(entry.timings).toEqual({ send: 0, wait: expect.any(Number), receive: expect.any(Number) });
  expect(entry.request).toMatchObject({
    method: expect.any(String),
    url: expect.any(String),
    httpVersion: expect.stringMatching(/^HTTP\/(1\.1|2)$/),
    cookies: [],
    headers: expect.any(Array),
    queryString: expect.any(Array),
    headersSize: -1,
    bodySize: expect.any(Number),
  });
  expect(entry.response).toMatchObject({
    status: expect.any(Number),
    statusText: expect.any(String),
    httpVersion: expect.stringMatching(/^HTTP\/(1\.1|2)$/),
    cookies: [],
    headers: expect.any(Array),
    content: { size: expect.any(Number), mimeType: expect.any(String), text: expect.any(String) },
    redirectURL: expect.any(String),
    headersSize: -1,
    bodySize: expect.any(Number),
  });
  for (const header of [...entry.request.headers, ...entry.response.headers]) expect(header).toEqual({ name: expect.any(String), value: expect.any(String) });
}

const header = (headers: HarEntry['request']['headers'], name: string) => headers.find((h) => h.name.toLowerCase() === name)?.value;

describe.each([false, true])('MockBackend.record and fromHar (https: %s)', (secure) => {
  it('records every exchange as a HAR 1.2 entry with no credential in the file, and a mock replays them with no server', async () => {
    const { server } = holder;
    expectSession();
    const file = harFile();
    const recorder = MockBackend.record(file, 'native', { tls: { ca: server.ca } });
    const recording = clientOf(server.url(secure), recorder);
    const recorded = await runSession(recording);
    await recording.close();

    expect(recorded).toEqual([
      { id: 42, name: 'Ada' },
      GZIPPED,
      PICTURE,
      { id: 43 },
      null,
      { status: 404, body: 'no such thing' },
      'arrived',
      'welcome',
      'you again',
    ]);
    const text = await readFile(file, 'utf8');
    for (const secret of [PASSWORD, BASIC.slice('Basic '.length), SESSION]) expect(text).not.toContain(secret);

    const har = JSON.parse(text) as Har;
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'httpbuilder-ts', version: VERSION });
    const { entries } = har.log;
    entries.forEach(expectValidEntry);
    const origin = server.url(secure);
    expect(entries.map((e) => `${e.request.method} ${e.request.url} ${e.response.status}`)).toEqual(
      [
        'GET /users/42 200',
        'GET /readme 200',
        'GET /logo.png 200',
        'POST /users 201',
        'PUT /upload 204',
        'GET /missing 404',
        'GET /old 302', // each redirect hop is an entry
        'GET /older 301',
        'GET /new 200',
        'GET /private 401', // the challenge, then the answer with credentials
        'GET /private 200',
        'GET /me 200',
      ].map((line) => line.replace(' /', ` ${origin}/`)),
    );
    const [json, gzipped, picture, posted, uploaded, missing, old, older, , challenged, authorized, again] = entries;
    expect(json.request.httpVersion).toBe('HTTP/1.1');
    expect(json.response).toMatchObject({ statusText: 'OK', content: { mimeType: 'application/json', text: '{"id":42,"name":"Ada"}', size: 22 } });
    expect(json.response.content.encoding).toBeUndefined();
    expect(json.request.postData).toBeUndefined();
    // decoded text, per the spec; the wire's size and the Content-Encoding as received
    expect(gzipped.response.content).toMatchObject({ text: GZIPPED, size: GZIPPED.length });
    expect(gzipped.response.bodySize).toBeLessThan(GZIPPED.length);
    expect(gzipped.response.content.compression).toBe(GZIPPED.length - gzipped.response.bodySize);
    expect(header(gzipped.response.headers, 'content-encoding')).toBe('gzip');
    expect(picture.response.content).toMatchObject({ mimeType: 'image/png', encoding: 'base64', size: PICTURE.length });
    expect(Buffer.from(picture.response.content.text, 'base64')).toEqual(PICTURE);
    expect(posted.request.postData).toEqual({ mimeType: 'application/json', text: '{"name":"Grace"}' });
    expect(posted.request.bodySize).toBe(16);
    expect(uploaded.request.postData).toEqual({ mimeType: 'application/octet-stream', text: UPLOAD.toString('base64'), _encoding: 'base64' });
    expect(missing.response).toMatchObject({ statusText: 'Not Found', content: { text: 'no such thing' } });
    expect([old.response.redirectURL, older.response.redirectURL, json.response.redirectURL]).toEqual(['/older', '/new', '']);
    expect(header(challenged.response.headers, 'www-authenticate')).toBe('Basic realm="api"');
    expect(header(authorized.request.headers, 'authorization')).toBe('***');
    expect(header(authorized.response.headers, 'set-cookie')).toBe('***');
    expect(header(again.request.headers, 'cookie')).toBe('***');

    const seen = server.requests.length;
    const mock = MockBackend.fromHar(file);
    const replaying = clientOf(origin, mock);
    const replayed = await runSession(replaying);
    expect(replayed).toEqual(recorded);
    mock.assertDone();
    expect(server.requests).toHaveLength(seen); // the mock answered everything
    expect(mock.calls.map((call) => call.target)).toEqual(entries.map((e) => new URL(e.request.url).pathname));
  });
});

describe('MockBackend.record: other backends, appending, odd cases', () => {
  it.each(['undici', 'fetch'] as const)('records through %s: the decoded text either way (fetch decodes gzip itself)', async (name) => {
    const { server } = holder;
    server.expect({
      method: 'GET',
      path: '/readme',
      query: { lang: 'en' },
      respond: { headers: { 'content-type': 'text/plain' }, body: GZIPPED, encoding: 'gzip' },
    });
    const file = harFile();
    const recording = clientOf(server.httpUrl, MockBackend.record(file, name));
    const read = (c: Parameters<ConfigBlock>[0]) => Object.assign(c.request.uri, { path: '/readme', query: { lang: 'en' } });
    expect(await recording.get(read)).toBe(GZIPPED);
    await recording.close();

    const [entry] = (await readHarFile(file)).log.entries;
    expectValidEntry(entry);
    expect(entry.request.queryString).toEqual([{ name: 'lang', value: 'en' }]);
    expect(entry.response.content).toMatchObject({ text: GZIPPED, size: GZIPPED.length });
    // fetch hands over the decoded body: how many bytes came is unknown
    if (name === 'fetch') expect(entry.response.bodySize).toBe(-1);
    else expect(entry.response.bodySize).toBeLessThan(GZIPPED.length);

    const mock = MockBackend.fromHar(file);
    expect(await clientOf(server.httpUrl, mock).get(read)).toBe(GZIPPED);
    mock.assertDone();
  });

  it('appends to an existing HAR file; a Backend object passed in is not closed; a streamed body is recorded', async () => {
    const { server } = holder;
    server.expect({ method: 'POST', path: '/notes', body: 'one two', respond: { status: 201, headers: { 'content-type': 'text/plain' }, body: 'kept' } });
    server.expect({ method: 'GET', path: '/notes', respond: { headers: { 'content-type': 'text/plain' }, body: 'one two' } });
    const file = harFile();
    const first = clientOf(server.httpUrl, MockBackend.record(file));
    const streamed = sending('/notes', 'text/plain', () => Readable.from([Buffer.from('one '), Buffer.from('two')]));
    expect(await first.post(streamed)).toBe('kept');
    await first.close();
    const mock = new MockBackend();
    let closed = false;
    const inner: Backend = { name: 'mine', send: (request) => mock.send(request), close: () => Promise.resolve(void (closed = true)) };
    mock.on('GET', `${server.httpUrl}/notes`).reply(200, 'from the object', { 'content-type': 'text/plain' });
    const second = clientOf(server.httpUrl, MockBackend.record(file, inner));
    expect(await second.get(path('/notes'))).toBe('from the object');
    await second.close();
    expect(closed).toBe(false);

    const { entries } = (await readHarFile(file)).log;
    expect(entries.map((e) => [e.request.method, e.response.content.text])).toEqual([
      ['POST', 'kept'],
      ['GET', 'from the object'],
    ]);
    expect(entries[0].request.postData).toEqual({ mimeType: 'text/plain', text: 'one two' });
    const replay = MockBackend.fromHar(file);
    const client = clientOf(server.httpUrl, replay);
    expect(await client.post(streamed)).toBe('kept');
    expect(await client.get(path('/notes'))).toBe('from the object');
    replay.assertDone();
  });

  it('hides user info in a Location URL; the replayed redirect is followed all the same', async () => {
    const { server } = holder;
    const to = `${server.httpUrl.replace('//', '//ada:hunter2@')}/landing`;
    server.expect({ method: 'GET', path: '/jump', respond: { status: 302, headers: { location: to } } });
    server.expect({ method: 'GET', path: '/landing', respond: { headers: { 'content-type': 'text/plain' }, body: 'landed' } });
    const file = harFile();
    const recording = clientOf(server.httpUrl, MockBackend.record(file));
    expect(await recording.get(path('/jump'))).toBe('landed');
    await recording.close();
    const text = await readFile(file, 'utf8');
    expect(text).not.toContain('hunter2');
    const [jump] = (JSON.parse(text) as Har).log.entries;
    expect(jump.response.redirectURL).toBe(`${server.httpUrl.replace('//', '//***@')}/landing`);
    const mock = MockBackend.fromHar(file);
    expect(await clientOf(server.httpUrl, mock).get(path('/jump'))).toBe('landed');
    mock.assertDone();
  });

  it('bad arguments and files that are no HAR are ConfigErrors', async () => {
    const notHar = files.path('not.har');
    await writeFile(notHar, '{"hello": "world"}');
    expect(() => MockBackend.record(notHar)).toThrow(/MockBackend.record: .*not\.har is not a HAR file: it has no log.entries array/);
    expect(() => MockBackend.fromHar(notHar)).toThrow(ConfigError);
    await writeFile(notHar, 'nonsense');
    expect(() => MockBackend.fromHar(notHar)).toThrow(/is not a HAR file/);
    expect(() => MockBackend.record('')).toThrow(/the file must be a path/);
    expect(() => MockBackend.record(harFile(), new MockBackend(), { tls: { ca: 'x' } })).toThrow(/options.tls applies to a backend made from a name/);
    expect(() => MockBackend.record(harFile(), 'carrier-pigeon' as never)).toThrow(ConfigError);
  });
});
