/**
 * Bundling for the browser, as an application's bundler would (esbuild `--bundle --platform=browser
 * --format=esm --minify --splitting`), for the browser-bundle check (scripts/check-browser-bundle.ts)
 * and the packaging check (scripts/check-package.ts): what the bundle pulls of Node (a `node:`
 * import, or an npm shim of a built-in such as `buffer`, `events`, `stream`, `punycode`), each
 * with the chain of imports that led to it, and its size, minified and gzipped (level 9).
 */
import { builtinModules } from 'node:module';
import { basename, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile, type Plugin } from 'esbuild';

/** Built-in module names (`fs`, `stream`, ...), as bare specifiers an npm shim would answer to. */
const BUILTINS = new Set(builtinModules.filter((name) => !name.startsWith('_')).map((name) => name.replace(/^node:/, '')));

/** Whether `specifier` names a Node built-in: `node:x`, or a bare `x` (`x/y`) that is one. */
export function isNodeBuiltin(specifier: string): boolean {
  return specifier.startsWith('node:') || BUILTINS.has(specifier.split('/')[0]);
}

/** One output file of the bundle. */
export interface Chunk {
  readonly path: string;
  readonly bytes: number;
  readonly gzip: number;
  /** the entry's own chunk, or a chunk it imports statically: loaded with the application */
  readonly initial: boolean;
  /** the sources it holds, relative to the working directory */
  readonly inputs: readonly string[];
}

/** What a bundle holds and pulls. */
export interface BrowserBundle {
  readonly chunks: readonly Chunk[];
  /** minified and gzipped bytes of the chunks loaded with the application */
  readonly initial: { readonly bytes: number; readonly gzip: number };
  /**
   * each import of Node the bundle would need, as the chain of imports that leads to it:
   * `app.js → lib/browser.ts → ... → lib/model/decompress.ts → node:zlib`; within an npm package,
   * the chain stops at the package, with every built-in it imports (`→ undici (npm) → node:net, node:tls`)
   */
  readonly nodeImports: readonly string[];
  readonly metafile: Metafile;
}

export interface BundleOptions {
  /** the working directory: where paths are shown from, and packages resolved from */
  readonly cwd: string;
  /** bare specifiers bundled from these files instead of node_modules (`httpbuilder-ts` → lib/browser.ts) */
  readonly aliases?: Readonly<Record<string, string>>;
  /** folders searched for packages besides the entry's own node_modules */
  readonly nodePaths?: readonly string[];
}

/**
 * Bundles `entry` for the browser. A Node import does not fail the build: it is left out
 * (external) and reported with its import chain, so one run lists every one of them.
 */
export async function bundleForBrowser(entry: string, options: BundleOptions): Promise<BrowserBundle> {
  const found: Array<{ importer: string; specifier: string }> = [];
  const plugin: Plugin = {
    name: 'node-imports',
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, (args) => {
        const alias = options.aliases?.[args.path];
        if (alias !== undefined) return { path: alias };
        if (args.kind === 'entry-point' || !isNodeBuiltin(args.path)) return undefined;
        found.push({ importer: args.importer, specifier: args.path });
        return { path: args.path, external: true };
      });
    },
  };
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: options.cwd,
    nodePaths: [...(options.nodePaths ?? [])],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    minify: true,
    splitting: true,
    outdir: 'out',
    write: false,
    metafile: true,
    logLevel: 'silent',
    plugins: [plugin],
  });
  const metafile = result.metafile;
  const shown = (path: string) => relative(options.cwd, path) || path;
  const byChain = new Map<string, Set<string>>();
  for (const { importer, specifier } of found) {
    const chain = importChain(metafile, shown(entry), shown(importer)).map((file, index) => (index === 0 ? basename(file) : file));
    const inPackage = chain.findIndex((file) => file.includes('node_modules/'));
    const head = inPackage < 0 ? chain : [...chain.slice(0, inPackage), `${packageOf(chain[inPackage])} (npm)`];
    const key = head.join(' → ');
    byChain.set(key, (byChain.get(key) ?? new Set()).add(specifier));
  }
  const nodeImports = [...byChain].map(([chain, specifiers]) => `${chain} → ${[...specifiers].sort().join(', ')}`);
  const chunks = chunksOf(metafile, result.outputFiles, shown(entry));
  const initial = chunks.filter((chunk) => chunk.initial);
  return {
    chunks,
    initial: { bytes: sum(initial.map((chunk) => chunk.bytes)), gzip: sum(initial.map((chunk) => chunk.gzip)) },
    nodeImports,
    metafile,
  };
}

/** The output files with their sizes, the ones loaded with the application marked. */
function chunksOf(metafile: Metafile, files: ReadonlyArray<{ path: string; contents: Uint8Array }>, entry: string): Chunk[] {
  const outputs = Object.entries(metafile.outputs).filter(([path]) => path.endsWith('.js'));
  const main = outputs.find(([, output]) => output.entryPoint === entry)?.[0];
  // the entry's chunk and the chunks it imports statically, and theirs
  const initial = new Set<string>();
  const visit = (path: string | undefined) => {
    if (path === undefined || initial.has(path)) return;
    initial.add(path);
    for (const imported of metafile.outputs[path]?.imports ?? []) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(main);
  return outputs.map(([path, output]) => {
    const contents = files.find((file) => file.path.endsWith(path))?.contents ?? new Uint8Array(0);
    return { path, bytes: contents.length, gzip: gzipSync(contents, { level: 9 }).length, initial: initial.has(path), inputs: Object.keys(output.inputs) };
  });
}

/** The shortest chain of imports from `entry` to `target` (both as the metafile names them). */
function importChain(metafile: Metafile, entry: string, target: string): string[] {
  const cameFrom = new Map<string, string | undefined>([[entry, undefined]]);
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (file === target) break;
    for (const imported of metafile.inputs[file]?.imports ?? []) {
      if (imported.external || cameFrom.has(imported.path)) continue;
      cameFrom.set(imported.path, file);
      queue.push(imported.path);
    }
  }
  if (!cameFrom.has(target)) return [entry, '...', target];
  const chain: string[] = [];
  for (let file: string | undefined = target; file !== undefined; file = cameFrom.get(file)) chain.unshift(file);
  return chain;
}

/** The npm package of a file under node_modules (`node_modules/@scope/name/...` is `@scope/name`). */
function packageOf(file: string): string {
  const [, name] = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file) ?? [];
  return name ?? file;
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

/** `bytes` in KB, one decimal (1 KB = 1024 bytes). */
export function kb(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}
