import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { lstat, mkdir, open, rename, rm, stat, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { CacheEntry, CacheOptions, CacheStore } from '../config/cache-options.js';

/** Where a line goes: stderr. */
interface Output {
  write(text: string): unknown;
}

/** The file, in the cache folder, of the key its digests of credentials are made with. */
const KEY_FILE = 'hmac.key';

/**
 * `hb --cache <dir>`: `client.cache` for a folder of one JSON file per key (named by its SHA-256),
 * created if missing (mode 0700, files 0600), and the key of its digests of credentials
 * (`client.cache.secret`): 32 random bytes in `hmac.key` there, made by the first run, so that
 * a later run finds a user's entries, and a copy of the folder alone cannot be used to test
 * password guesses offline.
 *
 * A folder or file another user could have written (not owned by this user, or writable by its
 * group or by everyone) could hold a planted "fresh" answer for any URL, and a key others can
 * read is no secret: it is not trusted. The first one found gets one warning line on `stderr`,
 * and the run goes on without the cache (as pip does): undefined.
 */
export async function openFileCache(dir: string, stderr: Output): Promise<CacheOptions | undefined> {
  const warn = (what: string, why: string): undefined => void stderr.write(`hb: warning: --cache ignores ${what}: ${why}; this run goes on without a cache\n`);
  const why = await folderDistrust(dir);
  if (why !== undefined) return warn(`the folder ${dir}`, why);
  const key = await keyIn(dir);
  if (typeof key === 'string') return warn(`the key ${join(dir, KEY_FILE)}`, key);
  return { store: fileCacheStore(dir, stderr, warn), secret: key };
}

/**
 * Why the folder is not trusted, or undefined (made first when missing). Given as a link, the
 * link must be this user's too (a link another user owns could be turned elsewhere); its
 * parents are not checked.
 */
async function folderDistrust(dir: string): Promise<string | undefined> {
  const named = await lstat(dir).catch(() => undefined);
  // a folder that cannot be made is reported by what stat finds there (or does not)
  if (named === undefined) await mkdir(dir, { recursive: true, mode: 0o700 }).catch(() => undefined);
  else if (named.isSymbolicLink() && otherOwner(named) !== undefined) return `it is a link another user owns (uid ${named.uid})`;
  const info = await stat(dir).catch((error: NodeJS.ErrnoException) => error.code ?? 'EIO');
  if (typeof info === 'string') return `it cannot be read (${info})`;
  return info.isDirectory() ? writableByOthers(info) : 'it is not a folder';
}

/** The folder's key, made if missing; or why it is not trusted. */
async function keyIn(dir: string): Promise<Uint8Array | string> {
  const file = join(dir, KEY_FILE);
  for (let tries = 0; ; tries++) {
    const handle = await openPlain(file);
    if (typeof handle === 'string') {
      if (handle !== 'ENOENT' || tries > 0) return unopened(handle);
      // made whole or not at all: another run making it at once wins, and this one reads it
      await writeFile(file, randomBytes(32), { mode: 0o600, flag: 'wx' }).catch(() => undefined);
      continue;
    }
    try {
      const info = await handle.stat();
      const why = !info.isFile() ? 'it is not a file' : (writableByOthers(info) ?? readableByOthers(info));
      if (why !== undefined) return why;
      const key = await handle.readFile();
      return key.byteLength >= 32 ? key : `it is too short (${key.byteLength} bytes)`;
    } finally {
      await handle.close();
    }
  }
}

/** Read flags: not through a link (a file of ours, or none), and no wait on a FIFO planted in its place. */
const READ_FLAGS = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);

/** `file` opened to read ({@link READ_FLAGS}), or the code of the error that stopped it. */
function openPlain(file: string): Promise<FileHandle | string> {
  return open(file, READ_FLAGS).catch((error: NodeJS.ErrnoException) => error.code ?? 'EIO');
}

/** Why a file did not open, from the error's code: a link (`O_NOFOLLOW`), or another reason. */
function unopened(code: string): string {
  return code === 'ELOOP' || code === 'EMLINK' ? 'it is a link' : `it cannot be read (${code})`;
}

/** The folder's entries (the folder checked): an entry another user could have written warns once, and turns the cache off. */
function fileCacheStore(dir: string, stderr: Output, warn: (what: string, why: string) => undefined): CacheStore {
  const fileOf = (key: string) => join(dir, `${createHash('sha256').update(key).digest('hex')}.json`);
  let off = false;
  const distrust = (what: string, why: string): undefined => {
    if (!off) warn(what, why);
    off = true;
    return undefined;
  };
  return {
    async get(key) {
      if (off) return undefined;
      const file = fileOf(key);
      const handle = await openPlain(file);
      if (typeof handle === 'string') return handle === 'ENOENT' ? undefined : distrust(`the entry ${file}`, unopened(handle));
      try {
        const info = await handle.stat();
        const why = info.isFile() ? writableByOthers(info) : 'it is not a file';
        if (why !== undefined) return distrust(`the entry ${file}`, why);
        return JSON.parse(await handle.readFile('utf8')) as CacheEntry;
      } catch {
        return undefined;
      } finally {
        await handle.close();
      }
    },
    async set(key, entry) {
      if (off) return;
      const temp = join(dir, `.${randomUUID()}.part`);
      await writeFile(temp, JSON.stringify(entry), { mode: 0o600, flag: 'wx' });
      await rename(temp, fileOf(key));
    },
    async delete(key) {
      if (!off) await rm(fileOf(key), { force: true });
    },
  };
}

/** The uid of the other user who owns what `info` describes, or undefined: this user's (or no POSIX owners: Windows). */
function otherOwner(info: Stats): number | undefined {
  return typeof process.getuid === 'function' && info.uid !== process.getuid() ? info.uid : undefined;
}

/** Why another user could have written what `info` describes, or undefined: owned by this user, writable by no one else. */
function writableByOthers(info: Stats): string | undefined {
  // no POSIX owners or modes (Windows): nothing to check
  if (typeof process.getuid !== 'function') return undefined;
  if (otherOwner(info) !== undefined) return `it belongs to another user (uid ${info.uid})`;
  if ((info.mode & 0o022) !== 0) return `other users can write to it (mode ${(info.mode & 0o777).toString(8)})`;
  return undefined;
}

/** Why another user could read what `info` describes (a key), or undefined. */
function readableByOthers(info: Stats): string | undefined {
  if (typeof process.getuid !== 'function') return undefined;
  return (info.mode & 0o044) === 0 ? undefined : `other users can read it (mode ${(info.mode & 0o777).toString(8)})`;
}
