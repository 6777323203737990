/**
 * node:zlib's decoders, plugged into the pipeline's (model/decompress.ts) by node-platform.ts:
 * faster than `DecompressionStream` on Node, and they undo `br` on Node 20 (whose
 * `DecompressionStream` has no brotli) and `zstd` where zlib has it (Node ≥ 22.15, Bun).
 * @internal
 */
import type { Transform } from 'node:stream';
import { isZlibHeader, type Decoder } from '../model/decoder.js';
import { registerDecoders } from '../model/decompress.js';
import { nodeStream, nodeZlib } from '../model/node-builtins.js';
import { ZstdFrames } from '../model/zstd-frames.js';

// module functions, not arrows made per response: docs/performance.md, "Arrows made per request"
function gunzip(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  // default finishFlush: a truncated body is an error, not a short result
  return through(body, nodeZlib().createGunzip());
}

function inflate(body: AsyncIterable<Uint8Array>, first: Uint8Array): AsyncIterable<Uint8Array> {
  // RFC 9110 says zlib-wrapped, but some servers send raw deflate: tell by the header bytes
  const zlib = nodeZlib();
  return through(body, isZlibHeader(first) ? zlib.createInflate() : zlib.createInflateRaw());
}

function unbrotli(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  return through(body, nodeZlib().createBrotliDecompress());
}

/** `zlib.createZstdDecompress`, where this runtime has it (Node ≥ 22.15, Bun); the types of Node 20 do not name it. */
function zstdDecompress(): (() => Transform) | undefined {
  return (nodeZlib() as { createZstdDecompress?: () => Transform }).createZstdDecompress;
}

function unzstd(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  return through(framesChecked(body), zstdDecompress()!());
}

/** The body as it is, failing at its end if that is no frame's end: Node 22's decoder ends a truncated body in silence. */
async function* framesChecked(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const frames = new ZstdFrames();
  for await (const chunk of body) {
    frames.feed(chunk);
    yield chunk;
  }
  if (!frames.complete) throw Object.assign(new Error('unexpected end of file (a zstd frame is cut short)'), { code: 'Z_BUF_ERROR' });
}

function ignoreError(): void {
  // errors surface through iterating the decoder
}

function through(body: AsyncIterable<Uint8Array>, decoder: Transform): AsyncIterable<Uint8Array> {
  const { pipeline, Readable } = nodeStream();
  return pipeline(Readable.from(body), decoder, ignoreError) as AsyncIterable<Uint8Array>;
}

// asked when a client is made or a body decoded: whether zlib has zstd loads node:zlib
registerDecoders((): Array<readonly [string, Decoder]> => [
  ['gzip', gunzip],
  ['x-gzip', gunzip],
  ['deflate', inflate],
  ['br', unbrotli],
  ...(typeof zstdDecompress() === 'function' ? [['zstd', unzstd] as const] : []),
]);
