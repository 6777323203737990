/**
 * Step 7 of the packaging check (scripts/check-package.ts): the package in a browser or Workers
 * project, installed from the tarball into a fresh folder without `@types/node`:
 *
 * - its TypeScript compiles as such a project sets it up (`moduleResolution: bundler`, the
 *   `browser` condition with the DOM lib, the `workerd` one with the WebWorker lib; no Node
 *   types, `skipLibCheck: false`, strict), using the DSL, result types, handlers, hooks,
 *   interceptors, Basic and Digest, `Stream`, `fromServer.stream()` as a web `ReadableStream`,
 *   `FormData` bodies and the error classes; `@ts-expect-error` lines prove the types are real
 *   (a `Uint8Array` without Buffer's methods, a stream without `pipe()`), not `any`;
 * - it bundles for the browser (esbuild `--platform=browser`) through the `browser` condition to
 *   dist/browser.js, with no `node:` import and no npm shim of a Node built-in.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { bundleForBrowser } from './browser-bundle.js';
import { check, NPM, sh, step } from './shell.js';

/** A browser or Workers application, as its developer writes it. */
export const WEB_APP = `
import { ConfigError, HttpBuilder, HttpException, TimeoutError, multipart, withResponse, type FromServer, type Hooks, type Interceptor } from 'httpbuilder-ts';
import { Mapping } from 'httpbuilder-ts/mapping';
import { Stream, type ServerSentEvent } from 'httpbuilder-ts/stream';

class User {
  id = 0;
  name = '';
}

const traced: Interceptor = async (request, next) => next({ ...request, headers: { ...request.headers, 'X-Trace': '1' } });
const hooks: Hooks = {
  beforeAttempt: (attempt) => void (attempt.headers['X-Attempt'] = attempt.method),
  afterAttempt: (_attempt, response) => void console.log(response.statusCode),
};

/** The first byte of a body: \`fromServer.bytes()\` is a Uint8Array here. */
async function firstByte(fromServer: FromServer): Promise<number> {
  const bytes = await fromServer.bytes();
  // @ts-expect-error a plain Uint8Array, without Buffer's methods (a browser has no Buffer): not node's type, nor any
  void bytes.readUInt8;
  return bytes[0] ?? -1;
}

/** The size of a body read off \`fromServer.stream()\`, a web ReadableStream here. */
async function countBytes(fromServer: FromServer): Promise<number> {
  const stream: ReadableStream<Uint8Array> = fromServer.stream();
  // @ts-expect-error a web stream has no pipe(): the browser build's stream() is not node's Readable
  void stream.pipe;
  const reader = stream.getReader();
  let total = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) total += chunk.value.byteLength;
  return total;
}

export async function app(base: string): Promise<number> {
  const http = HttpBuilder.configure((c) => {
    c.request.uri = base;
    c.request.auth.basic('alice', 'wonder land');
    c.execution.timeout = { response: 5000, total: 10_000 };
    c.execution.retry = { limit: 2, backoff: () => 10 };
    c.execution.hooks = hooks;
    c.execution.interceptor('GET', traced);
  });
  const user: User = await http.get(User, (c) => {
    c.request.uri.path = '/users/1';
    Mapping.use(c);
  });
  const created = await http.post((c) => {
    c.request.uri.path = '/users';
    c.request.contentType = 'application/json';
    c.request.body = { name: 'Ada' };
    c.request.auth.digest('alice', 'wonder land');
    c.response.success((fromServer, body) => ({ status: fromServer.statusCode, body }));
    c.response.when(404, () => null);
  });
  const { statusCode, headers, body } = await http.get(withResponse(User), (c) => void (c.request.uri.path = '/users/1'));
  const first: number = await http.get(Number, (c) => c.response.success(firstByte));
  const size: number = await http.get(Number, (c) => c.response.success(countBytes));
  const form = new FormData();
  form.append('name', 'Ada');
  form.append('photo', new Blob(['hi'], { type: 'text/plain' }), 'hi.txt');
  await http.post((c) => void ((c.request.uri.path = '/upload'), (c.request.body = form)));
  await http.post((c) => void (c.request.body = multipart((mp) => mp.field('a', '1').part('f', 'f.txt', 'text/plain', new Blob(['hi'])))));
  const lines: AsyncIterable<string> = await http.get((c) => Stream.lines(c));
  const users: AsyncIterable<User> = await http.get((c) => Stream.ndjson(c, User));
  const events: AsyncIterable<ServerSentEvent> = await http.get((c) => Stream.events(c));
  for await (const listed of http.paginate(User, (c) => void (c.request.uri.path = '/users'))) listed.name.toUpperCase();
  // @ts-expect-error a string result is not a number: the types are real, not any
  const wrong: number = await http.get(String);
  try {
    await http.delete((c) => void (c.request.uri.path = '/users/1'));
  } catch (error) {
    if (error instanceof HttpException) return error.statusCode;
    if (error instanceof TimeoutError) return error.phase.length;
    if (error instanceof ConfigError) return error.code.length;
  }
  await http.close();
  return [user.id, String(created), statusCode, headers.get('etag'), body.name, first, size, lines, users, events, wrong].length;
}
`;

/** The settings of a browser or a Workers TypeScript project: no Node types, the declarations checked too. */
const WEB_PROJECTS: ReadonlyArray<{ name: string; condition: string; lib: string[] }> = [
  { name: 'browser', condition: 'browser', lib: ['ES2022', 'DOM', 'DOM.Iterable'] },
  { name: 'Workers', condition: 'workerd', lib: ['ES2022', 'WebWorker'] },
];

export async function checkWebConsumer(root: string, work: string, tarball: string): Promise<void> {
  const project = join(work, 'web-consumer');
  await mkdir(project);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'web-consumer', private: true, type: 'module' }, null, 2));
  step('npm install of the tarball into a fresh browser/Workers project (no @types/node)');
  await sh(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball], project);
  check(!existsSync(join(project, 'node_modules', '@types', 'node')), '@types/node was installed with the package');
  await writeFile(join(project, 'app.ts'), WEB_APP);

  step(`its TypeScript compiles without Node's types (${WEB_PROJECTS.map((p) => `${p.name}: ${p.condition} condition, lib ${p.lib.join(', ')}`).join('; ')})`);
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  await Promise.all(
    WEB_PROJECTS.map(async ({ condition, lib }) => {
      const compilerOptions = {
        ...{ target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', customConditions: [condition], lib, types: [] },
        ...{ strict: true, skipLibCheck: false, noEmit: true },
      };
      await writeFile(join(project, `tsconfig.${condition}.json`), JSON.stringify({ compilerOptions, files: ['app.ts'] }, null, 2));
      await sh(process.execPath, [tsc, '-p', `tsconfig.${condition}.json`], project);
    }),
  );

  step('it bundles for the browser with no node: import');
  const bundle = await bundleForBrowser(join(project, 'app.ts'), { cwd: project });
  const inputs = Object.keys(bundle.metafile.inputs);
  check(
    inputs.includes('node_modules/httpbuilder-ts/dist/browser.js'),
    `the browser condition did not lead to dist/browser.js: the bundle holds ${inputs
      .filter((input) => input.includes('httpbuilder-ts/'))
      .slice(0, 3)
      .join(', ')}`,
  );
  check(!inputs.includes('node_modules/httpbuilder-ts/dist/node-platform.js'), 'the browser bundle holds dist/node-platform.js');
  check(bundle.nodeImports.length === 0, `the browser bundle imports Node:\n  ${bundle.nodeImports.join('\n  ')}`);
}
