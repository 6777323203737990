import { createWriteStream } from 'node:fs';
import { rm, utimes } from 'node:fs/promises';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type { HttpConfig } from '../config/http-config.js';
import { defaultParser, DOWNLOADS, READS_EMPTY_BODIES, type Parser } from '../content/parsers.js';
import type { FromServer } from '../model/from-server.js';
import { safeDispositionName } from './disposition-name.js';

/**
 * `hb -O -J`: writes a 2xx body to the file `Content-Disposition` names (made safe by
 * {@link safeDispositionName}), or to `fallback` (`-O`'s name from the URL) when it names none.
 * As curl, a name from the header never overwrites an existing file (the server chose it, not
 * the user); the URL's name does. A failed download removes what it wrote; the file gets the
 * response's `Last-Modified` as its mtime. Other statuses are parsed as usual.
 *
 * @example
 * http.get((c) => toHeaderNamedFile(c, 'download')); // Content-Disposition: attachment; filename="report.csv" → ./report.csv
 */
export function toHeaderNamedFile(config: HttpConfig, fallback: string): void {
  const parser: Parser = async (fromServer, request) => {
    if (fromServer.statusCode < 200 || fromServer.statusCode > 299) return defaultParser(fromServer.contentType)(fromServer, request);
    const named = safeDispositionName(fromServer.headers.get('content-disposition'));
    const file = named ?? fallback;
    const out = createWriteStream(file, { flags: named === undefined ? 'w' : 'wx' });
    try {
      await once(out, 'open');
    } catch (error) {
      fromServer.discard();
      if ((error as { code?: unknown }).code === 'EEXIST')
        throw new Error(`-J: '${file}' exists; hb does not overwrite a file the server named (as curl)`, { cause: error });
      throw error;
    }
    try {
      await pipeline(fromServer.stream(), out);
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
    const modified = lastModified(fromServer);
    if (modified !== undefined) await utimes(file, new Date(), modified);
    return file;
  };
  config.response.parser('*/*', Object.assign(parser, { [READS_EMPTY_BODIES]: true, [DOWNLOADS]: true }));
}

function lastModified(fromServer: FromServer): Date | undefined {
  const date = new Date(fromServer.headers.get('last-modified') ?? '');
  return Number.isNaN(date.getTime()) ? undefined : date;
}
