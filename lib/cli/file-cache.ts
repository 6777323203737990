import { createHash, randomUUID } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { mkdir, open, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CacheEntry, CacheStore } from '../config/cache-options.js';

/**
 * `hb --cache <dir>`: a {@link CacheStore} of one JSON file per key (named by its SHA-256) in
 * `dir`, created if missing (mode 0700, files 0600). Writes go to a temporary file renamed into
 * place, so a reader never sees half an entry; an unreadable file is no entry.
 *
 * A folder or entry another user could have written (not owned by this user, or writable by its
 * group or by everyone) could hold a planted "fresh" answer for any URL: it is not trusted. The
 * first one found gets one warning line on `stderr`, and the run goes on without the cache (as
 * pip does).
 */
export function fileCacheStore(dir: string, stderr: { write(text: string): unknown }): CacheStore {
  const fileOf = (key: string) => join(dir, `${createHash('sha256').update(key).digest('hex')}.json`);
  let off = false;
  let folderTrusted = false;
  const distrust = (what: string, why: string): false => {
    if (!off) stderr.write(`hb: warning: --cache ignores ${what}: ${why}; this run goes on without a cache\n`);
    off = true;
    return false;
  };
  /** Whether the folder may be used (made first when `create`); false too while there is none. */
  async function usable(create: boolean): Promise<boolean> {
    if (off || folderTrusted) return !off;
    if (create) await mkdir(dir, { recursive: true, mode: 0o700 });
    const info = await stat(dir).catch(() => undefined);
    if (info === undefined) return false; // nothing stored yet
    const why = info.isDirectory() ? writableByOthers(info) : 'it is not a folder';
    if (why !== undefined) return distrust(`the folder ${dir}`, why);
    return (folderTrusted = true);
  }
  return {
    async get(key) {
      if (!(await usable(false))) return undefined;
      const file = fileOf(key);
      // not through a link: an entry is a file of ours, or none
      const handle = await open(file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0)).catch(() => undefined);
      if (handle === undefined) return undefined;
      try {
        const info = await handle.stat();
        const why = info.isFile() ? writableByOthers(info) : 'it is not a file';
        if (why !== undefined) return void distrust(`the entry ${file}`, why);
        return JSON.parse(await handle.readFile('utf8')) as CacheEntry;
      } catch {
        return undefined;
      } finally {
        await handle.close();
      }
    },
    async set(key, entry) {
      if (!(await usable(true))) return;
      const temp = join(dir, `.${randomUUID()}.part`);
      await writeFile(temp, JSON.stringify(entry), { mode: 0o600, flag: 'wx' });
      await rename(temp, fileOf(key));
    },
    async delete(key) {
      if (await usable(false)) await rm(fileOf(key), { force: true });
    },
  };
}

/** Why another user could have written what `info` describes, or undefined: owned by this user, writable by no one else. */
function writableByOthers(info: Stats): string | undefined {
  // no POSIX owners or modes (Windows): nothing to check
  if (typeof process.getuid !== 'function') return undefined;
  if (info.uid !== process.getuid()) return `it belongs to another user (uid ${info.uid})`;
  if ((info.mode & 0o022) !== 0) return `other users can write to it (mode ${(info.mode & 0o777).toString(8)})`;
  return undefined;
}
