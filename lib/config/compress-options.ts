import { ConfigError } from '../core/errors.js';
import { describeSetting, describeValue } from '../core/describe-value.js';
import { isRecord } from '../core/scalar.js';
import { escape } from '../core/text.js';
import { webRuntimeName, runtimeName } from '../core/runtime-name.js';
import { canCompress, type RequestCoding, type RequestCompression } from '../content/request-compression.js';

export type { RequestCoding } from '../content/request-compression.js';

/**
 * `c.request.compress`: compress the encoded body with this coding and send `Content-Encoding`.
 * A coding alone applies to bodies of 1024 bytes and more; `minSize` sets
 * that size (`0`: every body that is not empty). `false` (or `undefined`) sends bodies as they are.
 *
 * @example
 * c.request.compress = 'gzip';
 * c.request.compress = { encoding: 'br', minSize: 4096 };
 */
export type CompressSetting = RequestCoding | CompressOptions | false | undefined;

/**
 * `c.request.compress` as an object.
 *
 * @example
 * c.request.compress = { encoding: 'deflate', minSize: 0 }; // every non-empty body
 */
export interface CompressOptions {
  /** `'gzip'`, `'deflate'` (the zlib format, as RFC 9110 means it) or `'br'`. */
  readonly encoding: RequestCoding;
  /** Bytes (default 1024): a body whose length is known and smaller goes as it is. A stream of unknown length is always compressed. */
  readonly minSize?: number;
}

/** The size below which a body goes uncompressed unless `minSize` says otherwise: under ~1 KiB gzip rarely pays for its header and the CPU. */
export const DEFAULT_MIN_SIZE = 1024;

/** The codings `request.compress` takes, as written. */
export const REQUEST_CODINGS: readonly string[] = ['gzip', 'deflate', 'br'];

/** @internal `request.compress` checked when set: `undefined` for `false`; `has` tells the codings this runtime can make. */
export function checkCompress(value: unknown, has: (coding: RequestCoding) => boolean = canCompress): RequestCompression | undefined {
  if (value === false) return undefined;
  if (typeof value === 'string') return Object.freeze({ encoding: coding(value, has), minSize: DEFAULT_MIN_SIZE });
  if (!isRecord(value))
    throw new ConfigError(`request.compress must be 'gzip', 'deflate', 'br', { encoding, minSize? } or false, not ${describeValue(value, true)}`);
  for (const key of Object.keys(value))
    if (key !== 'encoding' && key !== 'minSize') throw new ConfigError(`request.compress has no option '${escape(key)}' (known: encoding, minSize)`);
  const { encoding, minSize = DEFAULT_MIN_SIZE } = value as Partial<CompressOptions>;
  if (typeof encoding !== 'string') throw new ConfigError(`request.compress.encoding must be 'gzip', 'deflate' or 'br', not ${describeValue(encoding, true)}`);
  if (!Number.isSafeInteger(minSize) || minSize < 0)
    throw new ConfigError(`request.compress.minSize must be a whole number of bytes from 0, not ${describeSetting(minSize)}`);
  return Object.freeze({ encoding: coding(encoding, has, '.encoding'), minSize });
}

function coding(value: string, has: (coding: RequestCoding) => boolean, member = ''): RequestCoding {
  if (!REQUEST_CODINGS.includes(value)) throw new ConfigError(`request.compress${member} must be 'gzip', 'deflate' or 'br', not ${describeValue(value, true)}`);
  const known = value as RequestCoding;
  if (!has(known)) {
    // only the browser/Workers build lacks one (node:zlib makes all three): on Node, that build run as a browser's
    const runtime = runtimeName() === 'Node.js' ? webRuntimeName() : runtimeName();
    throw new ConfigError(
      `request.compress${member} '${known}' is not available on ${runtime}: its CompressionStream makes no brotli (use 'gzip' or 'deflate')`,
    );
  }
  return known;
}
