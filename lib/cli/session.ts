import { randomUUID } from 'node:crypto';
import { readFile, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { CookieJar } from 'tough-cookie';
import { errorCode, UsageError } from './failure.js';

/**
 * The cookie jar of `--session <file>`: the cookies an earlier run saved there (tough-cookie's
 * JSON), or none when the file does not exist yet or is empty. tough-cookie is loaded only here,
 * so runs without `--session` never load it.
 *
 * @throws {UsageError} when the file cannot be read or holds no saved jar.
 * @example
 * const jar = await loadSession('session.json');
 */
export async function loadSession(file: string): Promise<CookieJar> {
  const { CookieJar, MemoryCookieStore } = await import('tough-cookie');
  const store = new MemoryCookieStore();
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') return '';
    throw new UsageError(`--session: cannot read '${file}' (${errorCode(error)})`);
  });
  if (text.trim() !== '') {
    try {
      CookieJar.deserializeSync(text, store);
    } catch (error) {
      throw new UsageError(`--session: '${file}' holds no saved cookies (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  // as the library's own jar: `Secure` cookies go over https only, to loopback addresses too
  return new CookieJar(store, { allowSecureOnLocal: false });
}

/**
 * Saves `jar` to `file` with mode 0600 (cookies are secrets): written beside it and renamed
 * over it, so a failed write leaves the old file whole and no reader sees half a file.
 *
 * @example
 * await saveSession('session.json', jar);
 */
export async function saveSession(file: string, jar: CookieJar): Promise<void> {
  // a symbolic link is written through: the file it points to is replaced
  const target = await realpath(file).catch(() => file);
  const temp = join(dirname(target), `.hb-session-${randomUUID()}.part`);
  try {
    await writeFile(temp, `${JSON.stringify(jar.serializeSync(), null, 2)}\n`, { mode: 0o600 });
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw new Error(`--session: cannot save the cookies to '${file}' (${errorCode(error)})`, { cause: error });
  }
}
