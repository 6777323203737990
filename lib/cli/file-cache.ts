import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CacheEntry, CacheStore } from '../config/cache-options.js';

/**
 * `hb --cache <dir>`: a {@link CacheStore} of one JSON file per URL (named by its SHA-256) in
 * `dir`, created if missing. Writes go to a temporary file renamed into place, so a reader never
 * sees half an entry; an unreadable file is no entry.
 */
export function fileCacheStore(dir: string): CacheStore {
  const fileOf = (key: string) => join(dir, `${createHash('sha256').update(key).digest('hex')}.json`);
  return {
    async get(key) {
      const text = await readFile(fileOf(key), 'utf8').catch(() => undefined);
      if (text === undefined) return undefined;
      try {
        return JSON.parse(text) as CacheEntry;
      } catch {
        return undefined;
      }
    },
    async set(key, entry) {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const temp = join(dir, `.${randomUUID()}.part`);
      await writeFile(temp, JSON.stringify(entry), { mode: 0o600 });
      await rename(temp, fileOf(key));
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}
