/**
 * The packaging check (`npm run test:package`): packs the package as `npm publish` would, installs
 * the tarball into a fresh folder, and uses it there the way a consumer does:
 *
 * 1. the tarball holds the compiled package, its docs and LICENSE, and nothing of spec/, bench/, lib/, ...;
 *    package.json names its license, repository, homepage, bugs and keywords (the npm page shows
 *    them), and every relative link of the README and CHANGELOG points at a file of the repository;
 * 2. `import` of `httpbuilder-ts`, `/download`, `/mapping`, `/testing` (a request through a MockBackend) and `/stream` (a
 *    stream of lines and a paginated list, through the mock), and `require()` of the same, which gets the CommonJS build;
 * 3. a TypeScript consumer compiles against the installed types (`module: nodenext`, no skipLibCheck);
 * 4. a real request with the native backend (and a download) runs while axios, got and undici are
 *    not installed, picking `got` then fails naming the package to install, and the `fetch` backend
 *    runs on Node's global fetch (with TLS settings it fails naming undici);
 * 4b. `httpbuilder-ts/opentelemetry` fails naming `@opentelemetry/api` without it, and works with it
 *    (scripts/package-check/opentelemetry-entry.ts);
 * 5. the installed `hb` bin runs (`--help`, `--version`, a GET);
 * 6. a CommonJS project: jest as `npx ts-jest config:init` sets it up runs a MockBackend test with no ESM
 *    flag, `require()` sends with each lazily loaded backend, and its TypeScript compiles with every module
 *    setting (scripts/package-check/commonjs-consumer.ts);
 * 7. the `browser` export condition (and `worker`, `workerd`) leads to dist/browser.js and its declarations:
 *    in a fresh project without Node's types, an application's TypeScript compiles with the browser's and
 *    the Workers' settings, and it bundles for the browser (esbuild `--platform=browser`) with no `node:`
 *    import and no npm shim of a Node built-in (scripts/package-check/web-consumer.ts).
 *
 * Everything happens in a temporary folder that is removed at the end, pass or fail. Any failure
 * prints `check-package: FAILED: ...` and exits 1.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkCommonJsConsumer } from './package-check/commonjs-consumer.js';
import { checkOpenTelemetryEntry } from './package-check/opentelemetry-entry.js';
import { check, CheckFailed, NPM, sh, step } from './package-check/shell.js';
import { checkWebConsumer } from './package-check/web-consumer.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const OPTIONAL_PEERS = ['axios', 'got', 'undici', '@opentelemetry/api'];
/** The export conditions of browsers and Workers (before `import`), which lead to the entry without the node platform. */
const WEB_CONDITIONS = ['browser', 'worker', 'workerd'];
/** The browser/Workers entry and its declarations, which name no Node type. */
const WEB_ENTRY = { types: './dist/browser.d.ts', default: './dist/browser.js' };

interface PackJson {
  filename: string;
  files: Array<{ path: string }>;
}

/** An export condition's target: `types` and `default`, or (the web conditions) `import` and `require`, each of those. */
interface Conditions {
  types?: string;
  default?: string;
  import?: Conditions;
  require?: Conditions;
}

interface Manifest {
  name: string;
  version: string;
  main: string;
  types: string;
  /** the subpaths' declarations for TypeScript's node10 resolution, which does not read `exports` */
  typesVersions: Record<string, Record<string, string[]>>;
  bin: Record<string, string>;
  /** `import` and `require` conditions, each with its `types` and `default` (the web ones nest both) */
  exports: Record<string, string | Record<string, Conditions>>;
  license?: string;
  repository?: { url?: string };
  homepage?: string;
  bugs?: { url?: string };
  keywords?: string[];
}

/** 1. What goes into the tarball. */
function checkContents(files: readonly string[], manifest: Manifest): void {
  const present = new Set(files);
  const shipped = [manifest.main, manifest.types, ...Object.values(manifest.bin), ...Object.values(manifest.typesVersions['*'] ?? {}).flat()];
  for (const [subpath, target] of Object.entries(manifest.exports)) {
    if (typeof target === 'string') {
      shipped.push(target);
      continue;
    }
    // every entry point is there for import (ESM) and require (CommonJS), each with its declarations
    for (const condition of ['import', 'require']) {
      const { types, default: file } = target[condition] ?? {};
      check(types !== undefined && file !== undefined, `exports['${subpath}'] has no ${condition} condition with types and default`);
      shipped.push(types, file);
    }
  }
  // the browser/Workers entry: its own file and declarations, matched before `import`
  const main = manifest.exports['.'];
  check(typeof main === 'object', "exports['.'] has no conditions");
  for (const condition of WEB_CONDITIONS) {
    // ESM importers get the web build; a require() under that condition (jest's jsdom environment) the CommonJS node build
    const { import: web, require: required } = main[condition] ?? {};
    check(web?.default === WEB_ENTRY.default && web.types === WEB_ENTRY.types, `exports['.'].${condition}.import is not ${JSON.stringify(WEB_ENTRY)}`);
    check(
      required?.default === main.require?.default && required?.types === main.require?.types,
      `exports['.'].${condition}.require is not exports['.'].require`,
    );
    check(
      Object.keys(main).indexOf(condition) < Object.keys(main).indexOf('import'),
      `exports['.'].${condition} comes after import: Node's resolution order would never reach it`,
    );
    shipped.push(WEB_ENTRY.types, WEB_ENTRY.default);
  }
  for (const file of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', ...shipped.map((p) => p.replace(/^\.\//, ''))]) {
    check(present.has(file), `the tarball lacks ${file}`);
  }
  const unwanted = files.filter(
    (file) =>
      !/^(dist\/.+\.(js|d\.ts|js\.map|d\.ts\.map)|dist\/cjs\/package\.json|package\.json|README\.md|CHANGELOG\.md|LICENSE)$/.test(file) ||
      /^(spec|bench|demo|docs|lib|scripts|coverage|node_modules|\.ci)\//.test(file) ||
      /\.spec\.|\.tsbuildinfo$|\.tgz$/.test(file),
  );
  check(unwanted.length === 0, `the tarball holds files it should not: ${unwanted.join(', ')}`);
}

/** 1. What the npm page shows: the metadata, and README and CHANGELOG links that lead somewhere. */
async function checkMetadata(manifest: Manifest): Promise<void> {
  const missing = Object.entries({
    license: manifest.license,
    'repository.url': manifest.repository?.url,
    homepage: manifest.homepage,
    'bugs.url': manifest.bugs?.url,
    keywords: manifest.keywords?.join(''),
  }).filter(([, value]) => !value);
  check(missing.length === 0, `package.json lacks ${missing.map(([name]) => name).join(', ')}`);
  // npm resolves relative links against the repository: one that leaves it, or names no file, is broken there
  for (const doc of ['README.md', 'CHANGELOG.md']) {
    const text = await readFile(join(ROOT, doc), 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(?:[a-z][a-z0-9+.-]*:|#)/i.test(target)) continue; // https:, mailto:, an anchor
      const path = target.replace(/#.*$/, '');
      const inside = !isAbsolute(path) && !relative(ROOT, resolve(ROOT, path)).startsWith('..');
      check(inside && existsSync(join(ROOT, path)), `${doc} links to ${target}, not a file of the repository`);
    }
  }
}

const ESM_CHECK = `
import { HttpBuilder, multipart, HttpException, HttpBuilderError, ConfigError, VERSION } from 'httpbuilder-ts';
import { Download } from 'httpbuilder-ts/download';
import { Mapping } from 'httpbuilder-ts/mapping';
import { MockBackend, MockUnmatchedError } from 'httpbuilder-ts/testing';
import { Stream } from 'httpbuilder-ts/stream';
import pkg from 'httpbuilder-ts/package.json' with { type: 'json' };
const mock = new MockBackend();
mock.on('GET', '/users/1').reply(200, { id: 1 });
mock.on('GET', '/log').reply(200, 'a\\nb\\n');
mock.on('GET', '/pages/1').reply(200, [1], { link: '</pages/2>; rel="next"' });
mock.on('GET', '/pages/2').reply(200, [2]);
const viaMock = HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.test'; c.client.backend = mock; });
const mocked = await viaMock.get((c) => { c.request.uri.path = '/users/1'; });
const lines = [];
for await (const line of await viaMock.get((c) => { c.request.uri.path = '/log'; return Stream.lines(c); })) lines.push(line);
const items = [];
for await (const item of viaMock.paginate((c) => { c.request.uri.path = '/pages/1'; })) items.push(item);
// the entries are bundled apart (scripts/bundle-esm.ts): a class must be one class whichever entry it came through
const unmatched = await viaMock.get((c) => { c.request.uri.path = '/none'; }).catch((e) => e);
mock.on('GET', '/gone').reply(404, 'gone');
const gone = await viaMock.get((c) => { c.request.uri.path = '/gone'; }).catch((e) => e);
const checks = {
  'one class across entries': unmatched instanceof MockUnmatchedError && unmatched instanceof HttpBuilderError && gone instanceof HttpException
    && gone.constructor.name === 'HttpException',
  'MockBackend': mocked?.id === 1,
  'Stream.lines': lines.join() === 'a,b',
  paginate: items.join() === '1,2',
  'HttpBuilder.configure': typeof HttpBuilder.configure === 'function',
  multipart: typeof multipart === 'function',
  HttpException: typeof HttpException === 'function' && new ConfigError('x').code === 'ERR_CONFIG',
  'Download.toFile': typeof Download.toFile === 'function',
  'Mapping.use': typeof Mapping.use === 'function',
  VERSION: VERSION === pkg.version,
};
const failed = Object.entries(checks).filter(([, ok]) => !ok).map(([name]) => name);
if (failed.length > 0) throw new Error('import: wrong or missing exports: ' + failed.join(', '));
console.log('import ok');
`;

const CJS_CHECK = `
const { HttpBuilder, multipart, HttpException } = require('httpbuilder-ts');
const { Download } = require('httpbuilder-ts/download');
const { Mapping } = require('httpbuilder-ts/mapping');
const { MockBackend } = require('httpbuilder-ts/testing');
const { Stream } = require('httpbuilder-ts/stream');
for (const entry of ['', '/download', '/mapping', '/testing', '/stream', '/got', '/axios']) {
  const file = require.resolve('httpbuilder-ts' + entry);
  if (!/dist[\\/]cjs[\\/]/.test(file)) throw new Error('require() of httpbuilder-ts' + entry + ' is not the CommonJS build: ' + file);
}
const ok = typeof HttpBuilder.configure === 'function' && typeof multipart === 'function' && typeof HttpException === 'function'
  && typeof Download.toTempFile === 'function' && typeof Mapping.mapper === 'function' && typeof MockBackend.fromHar === 'function'
  && typeof Stream.events === 'function';
if (!ok) throw new Error('require: wrong or missing exports');
const mock = new MockBackend();
mock.on('GET', '/users/1').reply(200, { id: 1 });
HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.test/users/1'; c.client.backend = mock; }).get().then((user) => {
  if (user.id !== 1) throw new Error('require: the mock answered ' + JSON.stringify(user));
  console.log('require ok');
});
`;

// with no optional peer installed: a real exchange with the native backend, a download, the error for a
// missing optional peer, and the fetch backend on Node's global fetch
const WITHOUT_PEERS = `
import { HttpBuilder } from 'httpbuilder-ts';
import { Download } from 'httpbuilder-ts/download';
import { readFile, rm } from 'node:fs/promises';
const url = process.argv[2];
for (const peer of ['axios', 'got', 'undici']) {
  const loaded = await import(peer).then(() => true, (e) => { if (e.code !== 'ERR_MODULE_NOT_FOUND') throw e; return false; });
  if (loaded) throw new Error(peer + ' is installed in the consumer folder');
}
const http = HttpBuilder.configure((c) => { c.request.uri = url; });
const echoed = await http.post((c) => {
  c.request.uri.path = '/echo';
  c.request.contentType = 'application/json';
  c.request.body = { name: 'Ada' };
});
if (JSON.stringify(echoed) !== '{"method":"POST","body":{"name":"Ada"}}') throw new Error('unexpected answer: ' + JSON.stringify(echoed));
const file = await http.get((c) => { c.request.uri.path = '/file'; Download.toTempFile(c); });
const text = await readFile(file, 'utf8');
await rm(file);
if (text !== 'file contents') throw new Error('unexpected download: ' + text);
await http.close();
const viaGot = HttpBuilder.configure((c) => { c.request.uri = url; c.client.backend = 'got'; });
const message = await viaGot.get().then(() => 'no error', (e) => String(e && e.message));
await viaGot.close();
if (!/\\bgot\\b/.test(message) || !/install/i.test(message)) throw new Error('the missing-got error does not say what to install: ' + message);
// without undici the fetch backend runs on Node's global fetch and its global pool: counted, to be sure it is that one
const globalFetch = globalThis.fetch;
let globalFetchCalls = 0;
globalThis.fetch = (...args) => { globalFetchCalls++; return globalFetch(...args); };
const viaFetch = HttpBuilder.configure((c) => { c.request.uri = url; c.client.backend = 'fetch'; });
const fetched = await viaFetch.post((c) => {
  c.request.uri.path = '/echo';
  c.request.contentType = 'application/json';
  c.request.body = { name: 'Grace' };
});
if (JSON.stringify(fetched) !== '{"method":"POST","body":{"name":"Grace"}}') throw new Error('unexpected answer on the global fetch: ' + JSON.stringify(fetched));
const fetchedFile = await viaFetch.get(String, (c) => { c.request.uri.path = '/file'; });
if (fetchedFile !== 'file contents') throw new Error('unexpected GET on the global fetch: ' + fetchedFile);
await viaFetch.close();
if (globalFetchCalls !== 2) throw new Error('the fetch backend made ' + globalFetchCalls + ' calls to the global fetch, not 2');
// TLS settings need undici's Agent: without it the request fails naming the package
const fetchWithTls = HttpBuilder.configure((c) => { c.request.uri = url; c.client.backend = 'fetch'; c.execution.tls = { rejectUnauthorized: true }; });
const tlsMessage = await fetchWithTls.get().then(() => 'no error', (e) => String(e && e.message));
await fetchWithTls.close();
if (!/\\bundici\\b/.test(tlsMessage) || !/install/i.test(tlsMessage)) throw new Error('the fetch backend with TLS settings and no undici does not say what to install: ' + tlsMessage);
console.log('requests without optional peers ok');
`;

const TS_CONSUMER = `
import { CookieJar } from 'tough-cookie';
import { HttpBuilder, HttpException, multipart, type FromServer } from 'httpbuilder-ts';
import { Download } from 'httpbuilder-ts/download';
import { Mapping } from 'httpbuilder-ts/mapping';
import { MockBackend } from 'httpbuilder-ts/testing';
import { Stream, type ServerSentEvent } from 'httpbuilder-ts/stream';

class User {
  id = 0;
  name = '';
}

export async function use(): Promise<number> {
  const http = HttpBuilder.configure((c) => {
    c.request.uri = 'http://127.0.0.1:8080/api';
    c.client.backend = 'native';
    c.execution.timeout = { total: 1000 };
    c.client.cookies = new CookieJar(); // a dual package's class: the declarations name the one this project imports
  });
  const user: User = await http.get(User, (c) => {
    c.request.uri.path = 'users/1';
    Mapping.use(c);
  });
  const text: string = await http.get(String);
  const bytes: Buffer = await http.get(Buffer);
  await http.get((c) => Download.toFile(c, './out.bin'));
  await http.post(function () {
    this.request.body = multipart((mp) => mp.field('a', '1').part('f', 'f.txt', 'text/plain', { path: './f.txt' }));
    this.response.success((fromServer: FromServer) => fromServer.statusCode);
  });
  // from the node entry a body's bytes are a Buffer and its stream a Readable (the browser build's: web types)
  const hex: string = await http.get(String, (c) => c.response.success(async (fromServer) => (await fromServer.bytes()).toString('hex', 0, 4)));
  await http.get((c) => c.response.success((fromServer) => fromServer.stream().pipe(process.stdout)));
  // @ts-expect-error a string result is not a number: the types are real, not any
  const wrong: number = await http.get(String);
  try {
    await http.delete();
  } catch (error) {
    if (error instanceof HttpException) return error.statusCode;
  }
  await http.close();
  // a mock is a backend: it is set where a backend name goes
  const mock = new MockBackend();
  mock.on('GET', '/users/1').reply(200, { id: 1 });
  const mocked = HttpBuilder.configure((c) => void (c.client.backend = mock));
  await mocked.get(User);
  mock.assertDone();
  // typed end to end: a block returning a Stream types the result, paginate its items
  const events: AsyncIterable<ServerSentEvent> = await http.get((c) => Stream.events(c));
  const users: AsyncIterable<User> = await http.post((c) => Stream.ndjson(c, User));
  for await (const listed of http.paginate(User, (c) => void (c.request.uri.path = 'users'))) listed.name.toUpperCase();
  // @ts-expect-error the lines of a stream are strings
  const notLines: AsyncIterable<number> = await http.get((c) => Stream.lines(c));
  return user.id + text.length + bytes.length + hex.length + String(wrong).length + String(events).length + String(users).length + String(notLines).length;
}
`;

const TS_CONFIG = {
  compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: false, types: ['node'] },
  files: ['consumer.ts'],
};

/** The tiny local server the consumer scripts talk to. */
async function startServer(): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      if (req.url === '/headers') {
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify(req.headers));
      } else if (req.url === '/echo') {
        res.setHeader('Content-Type', 'application/json');
        res.end(JSON.stringify({ method: req.method, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || 'null') as unknown }));
      } else if (req.url === '/file') {
        res.setHeader('Content-Type', 'application/octet-stream');
        res.end('file contents');
      } else {
        res.setHeader('Content-Type', 'application/json');
        res.end('{"hello":"hb"}');
      }
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

async function main(): Promise<void> {
  const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as Manifest;
  const work = await mkdtemp(join(tmpdir(), 'httpbuilder-package-'));
  const { server, url } = await startServer();
  try {
    step('npm pack (runs prepack: clean and build)');
    const [packed] = JSON.parse(await sh(NPM, ['pack', '--json', '--pack-destination', work], ROOT)) as PackJson[];
    const files = packed.files.map((f) => f.path);
    step(`tarball ${packed.filename}: ${files.length} files`);
    checkContents(files, manifest);
    await checkMetadata(manifest);
    check((await readFile(join(ROOT, 'dist', 'cli.js'), 'utf8')).startsWith('#!/usr/bin/env node\n'), 'dist/cli.js does not start with #!/usr/bin/env node');

    const consumer = join(work, 'consumer');
    await mkdir(consumer);
    await writeFile(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }, null, 2));
    const typesNode = (JSON.parse(await readFile(join(ROOT, 'node_modules', '@types', 'node', 'package.json'), 'utf8')) as { version: string }).version;
    step('npm install of the tarball into a fresh folder');
    await sh(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', join(work, packed.filename), `@types/node@${typesNode}`], consumer);
    const installed = JSON.parse(await readFile(join(consumer, 'node_modules', manifest.name, 'package.json'), 'utf8')) as Manifest;
    check(installed.version === manifest.version, `installed version ${installed.version}, expected ${manifest.version}`);
    const present = OPTIONAL_PEERS.filter((peer) => existsSync(join(consumer, 'node_modules', peer)));
    check(present.length === 0, `optional peers were installed with the package: ${present.join(', ')}`);

    step('import and require of every entry point');
    await writeFile(join(consumer, 'esm-check.mjs'), ESM_CHECK);
    await writeFile(join(consumer, 'cjs-check.cjs'), CJS_CHECK);
    check((await sh(process.execPath, ['esm-check.mjs'], consumer)).includes('import ok'), 'esm-check.mjs did not finish');
    check((await sh(process.execPath, ['cjs-check.cjs'], consumer)).includes('require ok'), 'cjs-check.cjs did not finish');

    step('a TypeScript consumer compiles against the installed types');
    await writeFile(join(consumer, 'consumer.ts'), TS_CONSUMER);
    await writeFile(join(consumer, 'tsconfig.json'), JSON.stringify(TS_CONFIG, null, 2));
    await sh(process.execPath, [TSC, '-p', 'tsconfig.json'], consumer);

    step('a native request, and a fetch one on the global fetch, without axios, got or undici installed');
    await writeFile(join(consumer, 'without-peers.mjs'), WITHOUT_PEERS);
    check(
      (await sh(process.execPath, ['without-peers.mjs', url], consumer)).includes('requests without optional peers ok'),
      'without-peers.mjs did not finish',
    );

    await checkOpenTelemetryEntry(ROOT, consumer, url, TSC);

    step('the installed hb bin');
    const hb = join(consumer, 'node_modules', '.bin', 'hb');
    check((await sh(hb, ['--help'], consumer)).startsWith('Usage: hb <verb> <url>'), 'hb --help does not print the usage');
    check((await sh(hb, ['--version'], consumer)) === `hb (httpbuilder-ts) ${manifest.version}\n`, 'hb --version does not print the package version');
    const body = await sh(hb, ['get', `${url}/hello`], consumer);
    check(body === '{"hello":"hb"}', `hb get printed ${JSON.stringify(body)}`);

    await checkWebConsumer(ROOT, work, join(work, packed.filename));
    await checkCommonJsConsumer(ROOT, work, join(work, packed.filename), url);
    step('all checks passed');
  } finally {
    server.close();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(
    `check-package: FAILED: ${error instanceof CheckFailed ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exitCode = 1;
});
