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

/** `tsc -p tsconfig.build.json` (what `npm run build` runs), so the benchmark never measures a stale build. Throws when it fails. */
export function buildLibrary(): void {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  console.log('building dist/ (tsc -p tsconfig.build.json) ...');
  const result = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: ROOT, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`building dist/ failed (${result.signal ?? `exit code ${result.status}`})`);
}

// computed specifiers: typechecking must not need a built dist/

/** The package's main entry from `dist/` (typed as the sources it is compiled from). */
export function importLibrary(): Promise<typeof import('../lib/index.js')> {
  return import(new URL('../dist/index.js', import.meta.url).href) as Promise<typeof import('../lib/index.js')>;
}

/** The `httpbuilder-ts/download` entry from `dist/`. */
export function importDownload(): Promise<typeof import('../lib/download.js')> {
  return import(new URL('../dist/download.js', import.meta.url).href) as Promise<typeof import('../lib/download.js')>;
}
