/**
 * The browser-bundle check (`npm run test:bundle`): a small application that sends JSON with the
 * DSL (`import { HttpBuilder } from 'httpbuilder-ts'`) bundled as an application's bundler would
 * for the browser (esbuild `--bundle --platform=browser --format=esm --minify --splitting`):
 *
 * 1. the bundle pulls no Node module: no `node:` import and no npm shim of a built-in (`buffer`,
 *    `events`, `stream`, `punycode`, ...); each one found is printed with the chain of imports
 *    that led to it, and fails the check;
 * 2. its size, minified and gzipped (level 9), of what loads with the application (its own chunk
 *    and the chunks that chunk imports) and of each chunk loaded later (the fetch backend, at the
 *    first request), beside ky and axios in the same application bundled the same way
 *    (docs/performance.md, "Bundle size").
 *
 * `httpbuilder-ts` is bundled from lib/browser.ts (the source, as esbuild resolves `.js` specifiers
 * to `.ts`): the check runs without a build, on the code as it is; the packaging check
 * (scripts/check-package.ts) bundles the packed dist/ through its `browser` export condition.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleForBrowser, kb, type BrowserBundle } from './package-check/browser-bundle.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** What the issue asks of the DSL-with-JSON application: at most this much, minified and gzipped. */
const TARGET_GZIP = 20 * 1024;

/** The same application (GET a user as JSON, POST one as JSON) with each library. */
const APPS: Readonly<Record<string, string>> = {
  'httpbuilder-ts': `
import { HttpBuilder } from 'httpbuilder-ts';
const http = HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.com'; });
export const getUser = (id) => http.get((c) => { c.request.uri.path = '/users/' + id; });
export const createUser = (name) => http.post((c) => { c.request.uri.path = '/users'; c.request.contentType = 'application/json'; c.request.body = { name }; });
`,
  ky: `
import ky from 'ky';
const api = ky.create({ prefixUrl: 'https://api.example.com' });
export const getUser = (id) => api.get('users/' + id).json();
export const createUser = (name) => api.post('users', { json: { name } }).json();
`,
  axios: `
import axios from 'axios';
const api = axios.create({ baseURL: 'https://api.example.com' });
export const getUser = async (id) => (await api.get('/users/' + id)).data;
export const createUser = async (name) => (await api.post('/users', { name })).data;
`,
};

function report(name: string, bundle: BrowserBundle): void {
  console.log(`  ${name}: ${kb(bundle.initial.bytes)} minified, ${kb(bundle.initial.gzip)} gzip -9 (loaded with the application)`);
  for (const chunk of bundle.chunks.filter((c) => !c.initial)) {
    const sources = chunk.inputs.filter((input) => !input.includes('node_modules/')).map((input) => input.replace(/^lib\//, ''));
    const packages = new Set(chunk.inputs.map((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1]).filter((name) => name !== undefined));
    const named = [...sources.slice(0, 3), ...(sources.length > 3 ? ['...'] : []), ...[...packages].map((name) => `${name} (npm)`)];
    const shown = named.join(', ');
    console.log(`    later: ${kb(chunk.bytes)} minified, ${kb(chunk.gzip)} gzip (${shown})`);
  }
}

async function main(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'httpbuilder-browser-bundle-'));
  try {
    const bundles: Record<string, BrowserBundle> = {};
    for (const [name, source] of Object.entries(APPS)) {
      const entry = join(work, `${name}-app.js`);
      await writeFile(entry, source);
      bundles[name] = await bundleForBrowser(entry, {
        cwd: ROOT,
        aliases: { 'httpbuilder-ts': join(ROOT, 'lib', 'browser.ts') },
        nodePaths: [join(ROOT, 'node_modules')],
      });
    }
    console.log('check-browser-bundle: the same application (GET and POST of JSON), esbuild --platform=browser --format=esm --minify --splitting:');
    for (const [name, bundle] of Object.entries(bundles)) report(name, bundle);
    const ours = bundles['httpbuilder-ts'];
    const within = ours.initial.gzip <= TARGET_GZIP ? 'within' : 'above';
    console.log(`  httpbuilder-ts is ${within} the ${kb(TARGET_GZIP)} gzip the issue aims at for this application`);
    const failed = Object.entries(bundles).filter(([, bundle]) => bundle.nodeImports.length > 0);
    for (const [name, bundle] of failed) {
      console.error(`check-browser-bundle: FAILED: ${name}'s browser bundle imports Node (left out above, so the sizes lack them):`);
      for (const chain of bundle.nodeImports) console.error(`  ${chain}`);
    }
    if (failed.length > 0) process.exitCode = 1;
    else console.log('check-browser-bundle: no node: import and no shim of a Node built-in');
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(`check-browser-bundle: FAILED: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
