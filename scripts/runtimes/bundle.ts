/**
 * The portable scenarios bundled for the server-side runtimes: esbuild makes ES modules of
 * spec/portable/run-node.ts and the library's sources (lib/, from the node entry), in well
 * under a second, where `npm run build` takes tens of seconds; the browser and Workers runners
 * bundle the same scenarios from their own entry. Packages (undici, axios, got, tough-cookie,
 * ...) stay imports, resolved by each runtime from the repository's node_modules, linked
 * beside the bundle with a package.json naming them (Deno resolves only what one names).
 */
import { build } from 'esbuild';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A bundle in a temporary folder: `entry` is the file to run. */
export interface Bundle {
  readonly folder: string;
  readonly entry: string;
  remove(): Promise<void>;
}

export async function bundleScenarios(root: string): Promise<Bundle> {
  const folder = await mkdtemp(join(tmpdir(), 'hb-runtimes-'));
  try {
    await build({
      entryPoints: [join(root, 'spec', 'portable', 'run-node.ts')],
      bundle: true,
      platform: 'node',
      format: 'esm',
      // the library's lazy imports (a backend, undici-proxy, ...) stay lazy, as in the package
      splitting: true,
      packages: 'external',
      outdir: folder,
      outExtension: { '.js': '.mjs' },
      logLevel: 'warning',
    });
    const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
    const dependencies = { ...manifest.dependencies, ...manifest.devDependencies };
    await writeFile(join(folder, 'package.json'), JSON.stringify({ name: 'hb-runtimes', private: true, type: 'module', dependencies }));
    await symlink(join(root, 'node_modules'), join(folder, 'node_modules'), 'dir');
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  return { folder, entry: join(folder, 'run-node.mjs'), remove: () => rm(folder, { recursive: true, force: true }) };
}
