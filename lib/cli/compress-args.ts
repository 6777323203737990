import { DEFAULT_MIN_SIZE, REQUEST_CODINGS, type CompressOptions, type RequestCoding } from '../config/compress-options.js';
import { UsageError } from './failure.js';

/**
 * `--compress` and `--compress-with`, spread into args.ts's OPTIONS: xh's and httpie's
 * `--compress` (gzip here; given twice, whatever the size), with the coding to choose (each
 * `multiple`, so a repeated `--compress-with` is an error). No `-x`: it is curl's `--proxy`, and
 * `hb -x http://proxy:3128 URL` read as httpie's would send the request, and its credentials, to
 * the proxy's host.
 */
export const COMPRESS_OPTIONS = {
  compress: { type: 'boolean', multiple: true },
  'compress-with': { type: 'string', multiple: true },
} as const;

/** What parseArgs gave for {@link COMPRESS_OPTIONS}. */
export interface CompressValues {
  readonly compress?: boolean[];
  readonly 'compress-with'?: string[];
}

/**
 * The request body's compression (`request.compress`), or `undefined` for none: `--compress`
 * compresses bodies of 1 KiB and more with gzip (httpie and xh send the zlib `deflate`:
 * `--compress-with deflate`); given twice (`-xx` there), every body that is not empty; `--compress-with
 * <gzip|deflate|br>` picks the coding (and compresses on its own, as `--compress`).
 *
 * @throws {UsageError} naming the flag; also with `--curl` (`curl`), as curl has no way to compress a body.
 * @example
 * compressFlags({ compress: [true, true], 'compress-with': ['gzip'] }, false); // { encoding: 'gzip', minSize: 0 }
 */
export function compressFlags(values: CompressValues, curl: boolean): CompressOptions | undefined {
  const times = values.compress?.length ?? 0;
  const chosen = values['compress-with'];
  if (times > 2) throw new UsageError('--compress given more than twice (once: bodies of 1 KiB and more; twice: every body)');
  if (chosen !== undefined && chosen.length > 1) throw new UsageError('--compress-with given more than once');
  if (times === 0 && chosen === undefined) return undefined;
  // its --data-binary would carry the compressed bytes (NULs a shell word cannot hold), or an @file not compressed at all
  if (curl)
    throw new UsageError('--curl: curl cannot compress a request body, so it cannot send what --compress sends: drop --compress/--compress-with, or --curl');
  const encoding = chosen?.[0] ?? 'gzip';
  if (!REQUEST_CODINGS.includes(encoding)) throw new UsageError(`--compress-with expects gzip, deflate or br, got '${encoding}'`);
  return { encoding: encoding as RequestCoding, minSize: times === 2 ? 0 : DEFAULT_MIN_SIZE };
}

/** The field args.ts's CliRequest takes from here. */
export interface CliCompressed {
  /** `--compress` (once or twice), `--compress-with`: the body compressed (`request.compress`); `undefined`: as it is. */
  readonly compress: CompressOptions | undefined;
}
