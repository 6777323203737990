import { stat } from 'node:fs/promises';
import { UsageError } from './failure.js';

/** The download options of the command line, as curl spells them (`-o` itself stays in args.ts). */
export const DOWNLOAD_OPTIONS = {
  'remote-name': { type: 'boolean', short: 'O', multiple: true },
  'remote-header-name': { type: 'boolean', short: 'J', multiple: true },
  'continue-at': { type: 'string', short: 'C', multiple: true },
} as const;

/** How the body is downloaded, from `-J` and `-C -` (the file itself is `CliRequest.output`). */
export interface CliDownload {
  /** `-J` (with `-O`): the file name comes from the response's `Content-Disposition` when it names one. */
  readonly headerName: boolean;
  /** `-C -`: continue the bytes already in the file (`Range` + `If-Range`). */
  readonly resume: boolean;
}

/** What parseArgs gave for `-o` and the download options (each declared `multiple`). */
export interface DownloadFlagValues {
  readonly output?: readonly string[];
  readonly 'remote-name'?: readonly boolean[];
  readonly 'remote-header-name'?: readonly boolean[];
  readonly 'continue-at'?: readonly string[];
}

/**
 * Reads `-o`, `-O`, `-J` and `-C` as curl does: `-o -` is stdout (not a file named `-`), `-O`
 * names the file after the URL's last path segment (its query left out, not decoded), `-J` is
 * used with `-O`, and `-C -` (only `-`: where the file ends) needs a file to continue.
 *
 * @throws {UsageError} naming the flag.
 * @example
 * downloadFlags({ 'remote-name': [true], 'continue-at': ['-'] }, new URL('http://h/a/b.iso?x=1'));
 * // → { output: 'b.iso', download: { headerName: false, resume: true } }
 */
export function downloadFlags(given: DownloadFlagValues, url: URL): { output: string | undefined; download: CliDownload } {
  const values = {
    output: once(given.output, '-o'),
    remoteName: given['remote-name'] !== undefined,
    headerName: given['remote-header-name'] !== undefined,
    continueAt: once(given['continue-at'], '-C'),
  };
  if (values.output === '') throw new UsageError('-o needs a file name (or - for stdout)');
  if (values.remoteName && values.output !== undefined) throw new UsageError('-o and -O both name the output file: give one');
  if (values.headerName && !values.remoteName) throw new UsageError('-J takes the file name from Content-Disposition: use it with -O');
  if (values.continueAt !== undefined && values.continueAt !== '-')
    throw new UsageError(`-C: only '-C -' (continue where the file ends) is supported, got '${values.continueAt}'`);
  const resume = values.continueAt !== undefined;
  // curl refuses these too: the name is known only once the answer comes, too late to ask for a range
  if (resume && values.headerName) throw new UsageError('-C - and -J cannot be combined: the file to continue must be named before the request');
  const output = values.remoteName ? remoteName(url) : values.output === '-' ? undefined : values.output;
  if (resume && output === undefined) throw new UsageError('-C - continues a file: give it with -o <file> or -O');
  return { output, download: { headerName: values.headerName, resume } };
}

/** `-O`: the URL's last path segment, as curl takes it (no query, no decoding). */
function remoteName(url: URL): string {
  const name = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  if (name === '') throw new UsageError(`-O: the URL has no file name to use (its path ends with '/'): use -o <file>`);
  return name;
}

function once(values: readonly string[] | undefined, option: string): string | undefined {
  if (values !== undefined && values.length > 1) throw new UsageError(`${option} given more than once`);
  return values?.[0];
}

/**
 * `-C -` on a file already complete: the server answers `416` with a `Content-Range` of no
 * range and the full length N (RFC 9110 §14.4), N the file's size. As curl, that is success (exit 0), the file left as it was.
 *
 * @example
 * if (await alreadyComplete(request, response)) return EXIT.OK;
 */
export async function alreadyComplete(
  request: { readonly output: string | undefined; readonly download: CliDownload },
  response: { readonly statusCode: number; readonly headers: { get(name: string): string | null } },
): Promise<boolean> {
  if (response.statusCode !== 416 || !request.download.resume || request.output === undefined) return false;
  const total = /^bytes\s+\*\/(\d+)$/i.exec(response.headers.get('content-range') ?? '')?.[1];
  const size = (await stat(request.output).catch(() => undefined))?.size;
  return total !== undefined && size === Number(total);
}
