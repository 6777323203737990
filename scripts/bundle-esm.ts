/**
 * The step of `npm run build` after the ESM build (tsc -p tsconfig.build.json, into dist/): the
 * package's ES module entries (each `import` of package.json `exports`, and the `hb` bin) are
 * bundled by esbuild in place of tsc's one file per module, so that `import('httpbuilder-ts')` opens
 * a few files rather than ~150: node's ESM loader pays per module (a file read, a URL, a link), and
 * that was most of what a cold start cost (docs/performance.md, "Cold start").
 *
 * - one esbuild build of all the entries with `splitting`: code two entries share sits in one chunk
 *   (dist/chunks/), so a class has one identity whichever entry it came through (an HttpException
 *   thrown through `httpbuilder-ts/testing` is `instanceof` the one of `httpbuilder-ts`), and what
 *   the code imports with `import()` (a backend, a parser, the cache) stays a chunk of its own,
 *   loaded when it is first needed;
 * - packages (tough-cookie, undici, ...) and `node:` modules stay imports;
 * - source maps shipped beside each file, their sources the library's TypeScript (tsc's maps,
 *   with the sources inlined, carried through);
 * - the declarations stay tsc's (dist/**\/*.d.ts, unchanged); the CommonJS build (dist/cjs) stays
 *   tsc's one file per module: require() loads what it is asked, and a bundler reads the ESM one.
 *
 * tsc's per-module .js files (and their maps) are removed: dist/ keeps the bundled entries, their
 * chunks and every declaration.
 */
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
/** Where esbuild writes, before tsc's modules make way (inside dist/: ignored by git, and a failed build leaves nothing elsewhere). */
const STAGING = join(DIST, '.bundle');

interface Manifest {
  readonly bin: Readonly<Record<string, string>>;
  readonly exports: Readonly<Record<string, unknown>>;
}

/** The ES module files package.json leads to: every `default` under an `import` condition, and the bins. */
function esmEntries(manifest: Manifest): string[] {
  const found = new Set<string>(Object.values(manifest.bin));
  const walk = (node: unknown, underImport: boolean) => {
    if (typeof node === 'string') {
      if (underImport && node.endsWith('.js')) found.add(node);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) walk(value, key === 'require' ? false : underImport || key === 'import');
  };
  walk(manifest.exports, false);
  return [...found].map((file) => file.replace(/^\.\//, '')).sort();
}

/** The files tsc emitted for the ESM build: modules and their maps (not declarations, not dist/cjs). */
function tscModules(): string[] {
  return readdirSync(DIST, { recursive: true, encoding: 'utf8' }).filter(
    (file) =>
      !file.startsWith(`cjs${sep}`) &&
      !file.startsWith(`chunks${sep}`) &&
      !file.startsWith(`.bundle${sep}`) &&
      (file.endsWith('.js') || file.endsWith('.js.map')),
  );
}

/** The names of the classes lib/ declares. */
function libClasses(): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync(join(ROOT, 'lib'), { recursive: true, encoding: 'utf8' })) {
    if (file.endsWith('.ts')) for (const [, name] of readFileSync(join(ROOT, 'lib', file), 'utf8').matchAll(/\bclass ([A-Za-z_$][\w$]*)/g)) names.add(name);
  }
  return names;
}

/** Fails if esbuild renamed a class to keep two modules' names apart (`class Foo2`): `constructor.name` is seen by users and telemetry. */
function checkClassNames(files: readonly string[]): void {
  const declared = libClasses();
  const renamed: string[] = [];
  for (const file of files.filter((name) => name.endsWith('.js'))) {
    for (const [, name] of readFileSync(file, 'utf8').matchAll(/\bclass ([A-Za-z_$][\w$]*)/g))
      if (!declared.has(name) && declared.has(name.replace(/\d+$/, ''))) renamed.push(name);
  }
  if (renamed.length > 0) throw new Error(`bundle-esm: esbuild renamed classes (a name two modules share): ${renamed.join(', ')}`);
}

async function main(): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
  const entries = esmEntries(manifest);
  rmSync(STAGING, { recursive: true, force: true });
  const result = await build({
    entryPoints: entries.map((file) => ({ in: join(ROOT, file), out: file.replace(/^dist\//, '').replace(/\.js$/, '') })),
    outdir: STAGING,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    chunkNames: 'chunks/[name]-[hash]',
    sourcemap: 'linked',
    sourcesContent: true,
    legalComments: 'none',
    logLevel: 'warning',
    metafile: true,
  });
  const written = Object.keys(result.metafile.outputs).map((file) => resolve(ROOT, file));
  checkClassNames(written);
  for (const file of tscModules()) rmSync(join(DIST, file));
  rmSync(join(DIST, 'chunks'), { recursive: true, force: true });
  for (const file of written) {
    const target = join(DIST, file.slice(STAGING.length + 1));
    mkdirSync(dirname(target), { recursive: true });
    renameSync(file, target);
  }
  // nothing on stdout: `npm pack --json` (whose prepack builds) prints its JSON there
  rmSync(STAGING, { recursive: true, force: true });
}

await main();
