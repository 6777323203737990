/**
 * The step of `npm run build` after the ESM build (tsc -p tsconfig.build.json, into dist/): the
 * package's ES module entries (each `import` of package.json `exports`, and the `hb` bin) are
 * bundled by Rollup in place of tsc's one file per module, so that `import('httpbuilder-ts')` opens
 * 9 files rather than ~150: node's ES module loader pays for each file it reads and
 * links (a resolve, a stat, an open, a read, a compile), and that was most of what a cold start
 * cost (docs/performance.md, "Cold start").
 *
 * - one Rollup build of all the entries: code two entries share sits in one chunk (dist/chunks/),
 *   so a class has one identity whichever entry it came through (an HttpException thrown through
 *   `httpbuilder-ts/testing` is `instanceof` the one of `httpbuilder-ts`), and what the code
 *   imports with `import()` (a backend, a parser, the cache) stays a chunk of its own, loaded when
 *   it is first needed;
 * - Rollup rather than esbuild, for its `manualChunks`: esbuild cuts a chunk for every set of
 *   entries and `import()`s that reach a module, which split what the main entry loads at once
 *   into ~40 files; here a module the entries import statically goes by the entries that reach
 *   it (`chunkOfEntries`), 9 files;
 * - packages (tough-cookie, undici, ...) and `node:` modules stay imports;
 * - comments before declarations dropped (esbuild's transform of each chunk: the JSDoc, most of
 *   the bytes node would parse at import for nothing), source maps shipped beside each file, their sources the library's TypeScript (tsc's maps, with the
 *   sources inlined, carried through);
 * - the declarations stay tsc's (dist/**\/*.d.ts, unchanged); the CommonJS build (dist/cjs) stays
 *   tsc's one file per module: require() loads what it is asked, and a bundler reads the ESM one.
 *
 * tsc's per-module .js files (and their maps) are removed: dist/ keeps the bundled entries, their
 * chunks and every declaration.
 */
import { transform } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { rollup, type GetModuleInfo, type ManualChunksOption, type ModuleInfo, type Plugin } from 'rollup';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DIST = join(ROOT, 'dist');
/** Where Rollup writes, before tsc's modules make way (inside dist/: ignored by git, and a failed build leaves nothing elsewhere). */
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
  return [...found].map(withoutDotSlash).sort();
}

/**
 * The main entry (`.`'s `import` file) and the entries only node has (no `browser` condition:
 * `/testing`, `/download`, `/got`, `/axios`), which come with it: what they make is given to an
 * `HttpBuilder`.
 */
function mainAndNodeOnly(manifest: Manifest): { main: string; nodeOnly: string[] } {
  const exported = manifest.exports as Record<string, { readonly import?: { readonly default?: string }; readonly browser?: unknown }>;
  const main = exported['.'].import?.default;
  if (main === undefined) throw new Error("bundle-esm: package.json has no import condition for '.'");
  const nodeOnly = Object.entries(exported)
    .filter(([path, conditions]) => path !== '.' && conditions.browser === undefined && conditions.import?.default !== undefined)
    .map(([, conditions]) => withoutDotSlash(conditions.import!.default!));
  return { main: withoutDotSlash(main), nodeOnly };
}

const withoutDotSlash = (file: string) => file.replace(/^\.\//, '');

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

/** Fails if Rollup renamed a class to keep two modules' names apart (`class Foo$1`): `constructor.name` is seen by users and telemetry. */
function checkClassNames(files: readonly string[]): void {
  const declared = libClasses();
  const renamed: string[] = [];
  for (const file of files.filter((name) => name.endsWith('.js'))) {
    for (const [, name] of readFileSync(file, 'utf8').matchAll(/\bclass ([A-Za-z_$][\w$]*)/g))
      if (!declared.has(name) && declared.has(name.replace(/\$\d+$/, ''))) renamed.push(name);
  }
  if (renamed.length > 0) throw new Error(`bundle-esm: Rollup renamed classes (a name two modules share): ${renamed.join(', ')}`);
}

/** Reads tsc's modules with their source maps, so that the bundle's maps lead to the TypeScript. */
const tscSourceMaps: Plugin = {
  name: 'tsc-source-maps',
  load(id) {
    const code = readFileSync(id, 'utf8').replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
    const map = `${id}.map`;
    // without it the shipped maps would lead to dist/*.js files this script removes
    if (!existsSync(map))
      throw new Error(`bundle-esm: no source map beside ${id} (tsc -p tsconfig.build.json --sourceMap --inlineSources first: npm run build:esm)`);
    return { code, map: readFileSync(map, 'utf8') };
  },
};

/** Drops the comments before declarations (tsc's output is mostly JSDoc): fewer bytes for node to read and parse at import. */
const withoutComments: Plugin = {
  name: 'without-comments',
  async renderChunk(code) {
    const stripped = await transform(code, { loader: 'js', target: 'node20', legalComments: 'none', sourcemap: 'external' });
    return { code: stripped.code, map: stripped.map };
  },
};

/** The main entry's module, and the entries that come with it (their modules' ids). */
interface WithMain {
  readonly main: string;
  readonly entries: ReadonlySet<string>;
}

/**
 * Rollup's `manualChunks`: a module that entries import statically goes to one chunk with the
 * modules the same entries import statically and the same entries can load at all (through
 * `import()` too), so that `import('httpbuilder-ts')` opens one file per set of entries it shares
 * code with, rather than one per set of entries and `import()`s. An entry that comes with the
 * main one (`withMain`: the node-only entries) counts as importing it: the main entry's modules
 * are not cut again by what each of those uses (`/testing` alone loads all of them, as it does
 * with the main entry beside it). A module only `import()` reaches is left to Rollup (its own
 * chunk, loaded when needed). A chunk an `import()` loads brings modules the same entries could
 * load anyway, so the browser entry never gets one it cannot bundle.
 */
function chunkOfEntries(entryNames: ReadonlyMap<string, string>, withMain: WithMain): ManualChunksOption {
  let chunkOf: Map<string, string> | undefined;
  return (id, { getModuleInfo }) => {
    chunkOf ??= sharedChunks(entryNames, withMain, getModuleInfo);
    return chunkOf.get(id);
  };
}

/**
 * For each module some entry imports statically: its chunk's name, the entries that import it
 * statically (`index_mapping_stream`), numbered when they make more than one chunk.
 */
function sharedChunks(entryNames: ReadonlyMap<string, string>, withMain: WithMain, info: GetModuleInfo): Map<string, string> {
  const statically = reachedBy(entryNames, withMain, info, (module) => module.importedIds);
  const atAll = reachedBy(entryNames, withMain, info, (module) => [...module.importedIds, ...module.dynamicallyImportedIds]);
  const names = new Map<string, string>(); // what reaches a module → its chunk's name
  const chunks = new Map<string, string>();
  const main = entryNames.get(withMain.main);
  const comeWithMain = new Set([...withMain.entries].map((id) => entryNames.get(id)));
  for (const [id, entries] of statically) {
    const key = `${entries.join()} ${atAll.get(id)!.join()}`;
    if (!names.has(key)) {
      // beside the main entry, the ones that come with it go without saying
      const named = main !== undefined && entries.includes(main) ? entries.filter((entry) => !comeWithMain.has(entry)) : entries;
      const name = named.join('_').replaceAll('/', '-');
      const taken = [...names.values()].filter((other) => other === name || other.startsWith(`${name}.`)).length;
      names.set(key, taken === 0 ? name : `${name}.${taken + 1}`);
    }
    chunks.set(id, names.get(key)!);
  }
  return chunks;
}

/** The modules each entry reaches through `next`, and through the entry it comes with (entries' own modules left out), with the names of the entries that reach them. */
function reachedBy(
  entryNames: ReadonlyMap<string, string>,
  withMain: WithMain,
  info: GetModuleInfo,
  next: (module: ModuleInfo) => readonly string[],
): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const [entry, name] of entryNames) {
    const pending = withMain.entries.has(entry) ? [entry, withMain.main] : [entry];
    const seen = new Set<string>();
    for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
      const module = info(id);
      if (seen.has(id) || !module || module.isExternal) continue;
      seen.add(id);
      if (!entryNames.has(id)) found.set(id, [...(found.get(id) ?? []), name].sort());
      pending.push(...next(module));
    }
  }
  return found;
}

async function main(): Promise<void> {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Manifest;
  const entries = esmEntries(manifest);
  rmSync(STAGING, { recursive: true, force: true });
  const input = new Map(entries.map((file) => [join(ROOT, file), file.replace(/^dist\//, '').replace(/\.js$/, '')]));
  const { main: mainEntry, nodeOnly } = mainAndNodeOnly(manifest);
  const withMain: WithMain = { main: join(ROOT, mainEntry), entries: new Set(nodeOnly.map((file) => join(ROOT, file))) };
  const bundle = await rollup({
    input: Object.fromEntries([...input].map(([file, name]) => [name, file])),
    // packages and node: built-ins stay imports
    external: (id) => !id.startsWith('.') && !isAbsolute(id),
    plugins: [tscSourceMaps],
    logLevel: 'warn',
    onLog(level, log, handler) {
      if (log.code === 'CIRCULAR_DEPENDENCY') return; // lib's import cycles: Rollup keeps ES modules' evaluation order
      handler(level === 'warn' ? 'error' : level, log); // any other warning fails the build
    },
  });
  const { output } = await bundle.write({
    dir: STAGING,
    format: 'es',
    entryFileNames: '[name].js',
    chunkFileNames: 'chunks/[name]-[hash].js',
    sourcemap: true,
    // the maps move with their files from STAGING to dist/: their sources relative to where they end up
    sourcemapPathTransform: (source, map) => relative(dirname(map.replace(STAGING, DIST)), resolve(dirname(map), source)),
    manualChunks: chunkOfEntries(input, withMain),
    plugins: [withoutComments],
  });
  await bundle.close();
  const written = output.map((file) => join(STAGING, file.fileName)); // chunks and their maps
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
