import { createWriteStream } from 'node:fs';
import { rm, utimes } from 'node:fs/promises';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type { HttpConfig } from '../config/http-config.js';
import { defaultParser, DOWNLOADS, READS_EMPTY_BODIES, type Parser } from '../content/parsers.js';
import type { FromServer } from '../model/from-server.js';

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

/**
 * The `filename=` of a `Content-Disposition` value, as curl reads it (quoted or up to `;`;
 * `filename*` is not read), made safe to write in the current folder: only the part after the
 * last `/` or `\`, no leading dots (no dot files, no `..`), no control characters. `undefined`
 * when nothing usable is left.
 *
 * @example
 * safeDispositionName('attachment; filename="../../.bashrc"'); // 'bashrc'
 */
export function safeDispositionName(header: string | null): string | undefined {
  const match = /(?:^|;)\s*filename\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(header ?? '');
  if (match === null) return undefined;
  const raw = match[1] ?? match[2];
  const name = raw
    .slice(Math.max(raw.lastIndexOf('/'), raw.lastIndexOf('\\')) + 1)
    // eslint-disable-next-line no-control-regex -- control characters (C0 and C1) are exactly what is removed
    .replace(/[\u0000-\u001f\u007f-\u009f]/g, '')
    // dots and whitespace together (' .npmrc' is a dot file once trimmed), and at the end (Windows drops them);
    // no ':' (a drive on Windows, an NTFS stream)
    .replace(/^[\s.]+|[\s.]+$/g, '')
    .replace(/:/g, '_');
  return name === '' ? undefined : name;
}

function lastModified(fromServer: FromServer): Date | undefined {
  const date = new Date(fromServer.headers.get('last-modified') ?? '');
  return Number.isNaN(date.getTime()) ? undefined : date;
}
