import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
// under node_modules/.cache like other tools' caches: out of git, the jest roots and the package
const CACHE = join(ROOT, 'node_modules', '.cache', 'httpbuilder-ts-cli-spec');
const LOCK = join(CACHE, 'lock');
/** A lock older than this is from a build that died: take it over. */
const STALE_LOCK_MS = 90_000;
/** Old builds are removed once they are this old (another jest run may still use a recent one). */
const OLD_BUILD_MS = 3_600_000;

/**
 * The path of `cli.js` compiled from the current sources with `tsconfig.build.json` (as
 * `npm run build` does, without the declaration files), built at most once per source state.
 *
 * The build goes into `node_modules/.cache/httpbuilder-ts-cli-spec/<hash of lib/ and the
 * tsconfig files>/`, so it never touches `dist/` and a stale build is never used. Safe with
 * several jest workers: one builds under a lock (a directory, created atomically), the others
 * wait and reuse it; the finished build is moved into place with one `rename`, so nobody sees
 * half of it.
 */
export async function builtCli(): Promise<string> {
  const target = join(CACHE, await sourceHash());
  const cli = join(target, 'cli.js');
  if (existsSync(cli)) return cli;
  await mkdir(CACHE, { recursive: true });
  await acquireLock();
  try {
    if (!existsSync(cli)) await build(target);
  } finally {
    await rm(LOCK, { recursive: true, force: true });
  }
  return cli;
}

async function build(target: string): Promise<void> {
  const temp = `${target}.tmp-${process.pid}`;
  await rm(temp, { recursive: true, force: true });
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const args = ['-p', 'tsconfig.build.json', '--outDir', temp, '--declaration', 'false', '--declarationMap', 'false', '--sourceMap', 'false'];
  try {
    await run(process.execPath, [tsc, ...args], { cwd: ROOT, timeout: 120_000 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`building the CLI failed: tsc ${args.join(' ')}\n${stdout}${stderr}`, { cause: error });
  }
  // the cache lies under node_modules, where node stops looking for the repository's "type": "module"
  await writeFile(join(temp, 'package.json'), '{ "type": "module" }\n');
  try {
    await rename(temp, target);
  } catch (error) {
    // another worker took over a lock it thought stale and finished first: use its build
    await rm(temp, { recursive: true, force: true });
    if (!existsSync(join(target, 'cli.js'))) throw error;
  }
  await removeOldBuilds(target);
}

async function acquireLock(): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    try {
      await mkdir(LOCK);
      return;
    } catch (error) {
      if ((error as { code?: string }).code !== 'EEXIST') throw error;
    }
    const age = await stat(LOCK).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > STALE_LOCK_MS) await rm(LOCK, { recursive: true, force: true });
    if (Date.now() > deadline) throw new Error(`builtCli(): ${LOCK} is still held after 3 minutes`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function removeOldBuilds(keep: string): Promise<void> {
  for (const entry of await readdir(CACHE)) {
    const path = join(CACHE, entry);
    if (path === keep || path === LOCK) continue;
    const age = await stat(path).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    );
    if (age > OLD_BUILD_MS) await rm(path, { recursive: true, force: true });
  }
}

/** A hash of everything the build reads: lib/ (paths and contents), the tsconfig files and package.json. */
async function sourceHash(): Promise<string> {
  const hash = createHash('sha256');
  const files = [...(await listFiles(join(ROOT, 'lib'))), ...['tsconfig.json', 'tsconfig.build.json', 'package.json'].map((f) => join(ROOT, f))];
  for (const file of files.sort()) {
    hash
      .update(relative(ROOT, file))
      .update('\0')
      .update(await readFile(file))
      .update('\0');
  }
  return hash.digest('hex').slice(0, 16);
}

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(path)));
    else out.push(path);
  }
  return out;
}
