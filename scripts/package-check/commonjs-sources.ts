/**
 * The files of the CommonJS consumer project (scripts/package-check/commonjs-consumer.ts): a jest test
 * as a user of the default ts-jest setup writes it, a plain `require()` script, and a TypeScript file
 * compiled as CommonJS.
 */

/** tsconfig.json of a CommonJS TypeScript project, as ts-jest's docs and older `tsc --init` have it. */
export const JEST_TSCONFIG = {
  compilerOptions: { target: 'es2022', module: 'commonjs', strict: true, esModuleInterop: true, skipLibCheck: true, types: ['node'] },
};

/** How many tests JEST_TEST holds (one of them for each of three backends): all of them must pass. */
export const JEST_TESTS = 7;

/** A test file of the CommonJS project: run by jest with ts-jest's default preset and no ESM flag. */
export const JEST_TEST = `
import { afterAll, describe, expect, it } from '@jest/globals';
import nock from 'nock';
import { ConfigError, HttpBuilder, HttpException } from 'httpbuilder-ts';
import { MockBackend } from 'httpbuilder-ts/testing';

const server = process.env.SERVER_URL as string;

afterAll(() => nock.restore());

describe('httpbuilder-ts under the default ts-jest setup (CommonJS, no ESM flags)', () => {
  it('is the CommonJS build', () => {
    expect(require.resolve('httpbuilder-ts')).toMatch(/dist[\\\\/]cjs[\\\\/]index\\.js$/);
    expect(require.resolve('httpbuilder-ts/testing')).toMatch(/dist[\\\\/]cjs[\\\\/]testing\\.js$/);
  });

  it('runs a service against a MockBackend: JSON, a 404, cookies, CSV both ways and XML', async () => {
    const mock = new MockBackend();
    mock.on('GET', '/users/1').reply(200, { id: 1, name: 'Ada' });
    mock.on('GET', '/users/2').reply(404, { error: 'no such user' });
    mock.on('GET', '/login').reply(200, 'welcome', { 'set-cookie': 'sid=s1; Path=/' });
    mock.on('GET', '/me').withHeaders({ cookie: 'sid=s1' }).reply(200, { me: true });
    mock.on('POST', '/report').withBody('a,b\\n1,2\\n').reply(200, 'a,b\\n1,2\\n', { 'content-type': 'text/csv' });
    mock.on('GET', '/feed').reply(200, '<feed><title>t</title></feed>', { 'content-type': 'application/xml' });
    const http = HttpBuilder.configure((c) => {
      c.request.uri = 'https://api.example.test';
      c.client.backend = mock;
      c.client.cookies = true; // tough-cookie, loaded on first use
    });
    expect(await http.get((c) => void (c.request.uri.path = '/users/1'))).toEqual({ id: 1, name: 'Ada' });
    await expect(http.get((c) => void (c.request.uri.path = '/users/2'))).rejects.toBeInstanceOf(HttpException);
    await http.get((c) => void (c.request.uri.path = '/login'));
    expect(await http.get((c) => void (c.request.uri.path = '/me'))).toEqual({ me: true });
    const csv = await http.post((c) => {
      c.request.uri.path = '/report';
      c.request.contentType = 'text/csv';
      c.request.body = [['a', 'b'], ['1', '2']];
    });
    expect(csv).toEqual([['a', 'b'], ['1', '2']]);
    expect(await http.get((c) => void (c.request.uri.path = '/feed'))).toEqual({ feed: { title: ['t'] } });
    mock.assertDone();
  });

  it.each(['axios', 'undici', 'fetch'] as const)('loads the %s backend on first use and sends with it', async (backend) => {
    const http = HttpBuilder.configure((c) => {
      c.request.uri = server;
      c.client.backend = backend;
    });
    const echoed = await http.post((c) => {
      c.request.uri.path = '/echo';
      c.request.contentType = 'application/json';
      c.request.body = { backend };
    });
    await http.close();
    expect(echoed).toEqual({ method: 'POST', body: { backend } });
  });

  it('loads got, an ES module only, where jest can require one (Node 24.9+), or says why it cannot', async () => {
    const http = HttpBuilder.configure((c) => {
      c.request.uri = server;
      c.client.backend = 'got';
    });
    const answer = await http.get((c) => void (c.request.uri.path = '/hello')).catch((e: unknown) => e);
    await http.close();
    if (answer instanceof Error) {
      expect(answer).toBeInstanceOf(ConfigError);
      expect(answer.message).toMatch(/'got' package here: it is an ES module/);
    } else {
      expect(answer).toEqual({ hello: 'hb' });
    }
  });

  it('is answered by nock 14 on the native backend', async () => {
    nock('http://api.example.test').get('/users/1').reply(200, { id: 1 }, { 'Content-Type': 'application/json' });
    const http = HttpBuilder.configure((c) => void (c.request.uri = 'http://api.example.test/users/1'));
    expect(await http.get()).toEqual({ id: 1 });
    await http.close();
    expect(nock.isDone()).toBe(true);
  });
});
`;

/** A plain CommonJS script: \`require()\` gets the CommonJS build, whose backends load their packages with require. */
export const REQUIRE_BACKENDS = `
const { HttpBuilder, ConfigError } = require('httpbuilder-ts');
const { MockBackend } = require('httpbuilder-ts/testing');
const url = process.argv[2];
if (!/dist[\\\\/]cjs[\\\\/]index\\.js$/.test(require.resolve('httpbuilder-ts'))) throw new Error('require() got ' + require.resolve('httpbuilder-ts'));
(async () => {
  if (!(new MockBackend() instanceof Object) || new ConfigError('x').code !== 'ERR_CONFIG') throw new Error('wrong exports');
  for (const backend of ['got', 'axios', 'undici', 'fetch']) {
    const http = HttpBuilder.configure((c) => { c.request.uri = url; c.client.backend = backend; });
    const echoed = await http.post((c) => { c.request.uri.path = '/echo'; c.request.contentType = 'application/json'; c.request.body = { backend }; });
    await http.close();
    if (JSON.stringify(echoed) !== JSON.stringify({ method: 'POST', body: { backend } })) throw new Error(backend + ': ' + JSON.stringify(echoed));
  }
  console.log('require with every backend ok');
})().catch((error) => { console.error(error); process.exitCode = 1; });
`;

/**
 * TypeScript in a CommonJS project (no "type" in package.json), compiled with each module setting a
 * CommonJS project may have: the declarations must be read as CommonJS, and the types of a dual
 * package they name must be the project's own (a \`CookieJar\` and an axios instance fit).
 */
export const CJS_TS_CONSUMER = `
import axios from 'axios';
import { CookieJar } from 'tough-cookie';
import { HttpBuilder, HttpException } from 'httpbuilder-ts';
import { axiosBackend } from 'httpbuilder-ts/axios';
import type { gotBackend } from 'httpbuilder-ts/got';
import { Download } from 'httpbuilder-ts/download';
import { Mapping } from 'httpbuilder-ts/mapping';
import { MockBackend } from 'httpbuilder-ts/testing';
import { Stream } from 'httpbuilder-ts/stream';

// the dependencies' types resolve (an unresolved one would be \`any\`, which takes a number)
// @ts-expect-error a number is not a got instance
export const notGot: Parameters<typeof gotBackend>[0] = 1;
// @ts-expect-error a number is not an axios instance
export const notAxios: Parameters<typeof axiosBackend>[0] = 1;

export async function use(): Promise<number> {
  const mock = new MockBackend();
  const http = HttpBuilder.configure((c) => {
    c.client.backend = mock;
    c.client.cookies = new CookieJar();
  });
  const viaAxios = HttpBuilder.configure((c) => void (c.client.backend = axiosBackend(axios.create())));
  const text: string = await http.get(String, (c) => Mapping.use(c));
  // @ts-expect-error a string result is not a number: the types are real, not any
  const wrong: number = await http.get(String);
  await http.get((c) => Download.toFile(c, './out.bin'));
  const lines: AsyncIterable<string> = await http.get((c) => Stream.lines(c));
  // a body's bytes are a Buffer here too: the CommonJS declarations are the node entry's
  const hex: string = await http.get(String, (c) => c.response.success(async (fromServer) => (await fromServer.bytes()).toString('hex')));
  try {
    await viaAxios.get();
  } catch (error) {
    if (error instanceof HttpException) return error.statusCode;
  }
  return text.length + wrong + String(lines).length + hex.length;
}
`;

/**
 * The module settings of a CommonJS TypeScript project the declarations are compiled with. One of them
 * checks the declarations themselves too (skipLibCheck false: got's and axios' types take most of its
 * 15 s); the others, as most projects do, skip that.
 */
export const CJS_MODULE_SETTINGS: ReadonlyArray<Record<string, string | boolean>> = [
  { module: 'node16', skipLibCheck: false },
  { module: 'nodenext' },
  { module: 'commonjs' }, // moduleResolution bundler (TypeScript 6's default for commonjs)
  { module: 'commonjs', moduleResolution: 'node10', ignoreDeprecations: '6.0' }, // TypeScript 5's default: reads no `exports`
];
