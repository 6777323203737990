/**
 * node:zlib's compressors for `c.request.compress`, plugged in by node-platform.ts: faster than
 * `CompressionStream` on Node, and they make br, which Node 20's `CompressionStream` cannot.
 * @internal
 */
import { pipeline, Readable, type Transform } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import { registerCompressors, type Compressor, type RequestCoding } from './request-compression.js';

/**
 * brotli's quality for bodies compressed as they are sent: zlib's default (11) is for files
 * compressed once and served many times, and takes seconds per megabyte; 5 is near gzip's
 * speed with smaller output (nginx's and Cloudflare's on-the-fly levels are 4 to 6).
 */
const BROTLI_QUALITY = 5;
const BROTLI_OPTIONS: zlib.BrotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } };

const gzip = promisify(zlib.gzip);
const deflate = promisify(zlib.deflate);
const brotli = promisify(zlib.brotliCompress);

function ignoreError(): void {
  // errors surface through iterating the compressor
}

function through(source: AsyncIterable<Uint8Array>, compressor: Transform): AsyncIterable<Uint8Array> {
  // the source's own error fails the compressor, and reading it: the upload fails with it
  return pipeline(Readable.from(source, { objectMode: false }), compressor, ignoreError) as AsyncIterable<Uint8Array>;
}

const compressors: Array<[RequestCoding, Compressor]> = [
  ['gzip', { stream: (source) => through(source, zlib.createGzip()), bytes: (source) => gzip(source) }],
  // zlib-wrapped (RFC 9110's deflate), not raw
  ['deflate', { stream: (source) => through(source, zlib.createDeflate()), bytes: (source) => deflate(source) }],
  [
    'br',
    {
      stream: (source) => through(source, zlib.createBrotliCompress(BROTLI_OPTIONS)),
      bytes: (source) => brotli(source, { params: { ...BROTLI_OPTIONS.params, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.byteLength } }),
    },
  ],
];
registerCompressors(compressors);
