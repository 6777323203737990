/**
 * The library as its users run it: the compiled package in `dist/`, not the TypeScript sources
 * through tsx (whose transform adds a `__name()` call to every function it creates, about a
 * microsecond per request, that no user pays). `npm run bench` builds it first.
 *
 * @module
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** `npm run build` (tsc into `dist/`, plus source maps), so the benchmark never measures a stale build. Throws when it fails. */
export function buildLibrary(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  console.log('building dist/ (tsc -p tsconfig.build.json --sourceMap) ...');
  // with source maps (the package has none): profile-summary.ts names lib/*.ts lines through them
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json', '--sourceMap'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`building dist/ failed (${result.signal ?? `exit code ${result.status}`})`);
}

/**
 * A compiled module of `dist/`, by its path there, typed by the caller as the source it is
 * compiled from. Every import of the library goes through here, so all share one instance of
 * each module (an `instanceof` across a `lib/` and a `dist/` copy would be false).
 *
 * @example
 * const { backendFor } = await importDist<typeof import('../lib/backends/registry.js')>('backends/registry.js');
 */
export function importDist<T>(path: string): Promise<T> {
  // a computed specifier: typechecking must not need a built dist/
  return import(new URL(`../dist/${path}`, import.meta.url).href) as Promise<T>;
}

/** The package's main entry from `dist/` (typed as the sources it is compiled from). */
export function importLibrary(): Promise<typeof import('../lib/index.js')> {
  return importDist('index.js');
}

/** The `httpbuilder-ts/download` entry from `dist/`. */
export function importDownload(): Promise<typeof import('../lib/download.js')> {
  return importDist('download.js');
}
