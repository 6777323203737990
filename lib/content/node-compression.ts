/**
 * node:zlib's compressors for `c.request.compress`, plugged in by node-platform.ts: faster than
 * `CompressionStream` on Node, and they make br, which Node 20's `CompressionStream` cannot.
 * @internal
 */
import type { Transform } from 'node:stream';
import type zlib from 'node:zlib';
import { nodeStream, nodeZlib } from '../model/node-builtins.js';
import { registerCompressors, type Compressor, type RequestCoding } from './request-compression.js';

/**
 * brotli's quality for bodies compressed as they are sent: zlib's default (11) is for files
 * compressed once and served many times, and takes seconds per megabyte; 5 is near gzip's
 * speed with smaller output (nginx's and Cloudflare's on-the-fly levels are 4 to 6).
 */
const BROTLI_QUALITY = 5;
const brotliOptions = (): zlib.BrotliOptions => ({ params: { [nodeZlib().constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } });

/** zlib's one-piece compressor for `coding`, as a promise of the bytes. */
function compressed(source: Uint8Array, coding: RequestCoding): Promise<Uint8Array> {
  const zlib = nodeZlib();
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Uint8Array) => (error ? reject(error) : resolve(result));
    if (coding === 'gzip') zlib.gzip(source, done);
    else if (coding === 'deflate') zlib.deflate(source, done);
    else zlib.brotliCompress(source, { params: { ...brotliOptions().params, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.byteLength } }, done);
  });
}

function ignoreError(): void {
  // errors surface through iterating the compressor
}

function through(source: AsyncIterable<Uint8Array>, compressor: Transform): AsyncIterable<Uint8Array> {
  // the source's own error fails the compressor, and reading it: the upload fails with it
  const { pipeline, Readable } = nodeStream();
  return pipeline(Readable.from(source, { objectMode: false }), compressor, ignoreError) as AsyncIterable<Uint8Array>;
}

const compressors: Array<[RequestCoding, Compressor]> = [
  ['gzip', { stream: (source) => through(source, nodeZlib().createGzip()), bytes: (source) => compressed(source, 'gzip') }],
  // zlib-wrapped (RFC 9110's deflate), not raw
  ['deflate', { stream: (source) => through(source, nodeZlib().createDeflate()), bytes: (source) => compressed(source, 'deflate') }],
  ['br', { stream: (source) => through(source, nodeZlib().createBrotliCompress(brotliOptions())), bytes: (source) => compressed(source, 'br') }],
];
registerCompressors(compressors);
