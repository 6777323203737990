import { pipeline, Readable, type Transform } from 'node:stream';
import zlib from 'node:zlib';
import { ParseError } from '../core/errors.js';
import { prepended } from './prepended.js';

const MAX_CODINGS = 5;

/**
 * The codings of a `Content-Encoding` header, checked: at most 5, each one we can undo. Runs
 * even when the transport decoded the body itself, so every backend refuses the same bodies.
 */
export function contentCodings(contentEncoding: string, statusCode: number): string[] {
  const codings = contentEncoding
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length > MAX_CODINGS) {
    throw new ParseError(`Content-Encoding stacks ${codings.length} codings; at most ${MAX_CODINGS} are accepted`, { statusCode, contentType: '', text: '' });
  }
  for (const coding of codings) {
    if (!SUPPORTED.has(coding)) {
      throw new ParseError(`Content-Encoding '${coding}' is not supported (gzip, x-gzip, deflate, br are)`, { statusCode, contentType: '', text: '' });
    }
  }
  return codings;
}

const SUPPORTED = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/** Undoes checked codings (applied in order, so undone in reverse). */
export function decompress(body: AsyncIterable<Uint8Array>, codings: readonly string[]): AsyncIterable<Uint8Array> {
  let decoded = body;
  for (const coding of [...codings].reverse()) decoded = through(decoded, decoderFor(coding));
  return decoded;
}

type DecoderFactory = (first: Uint8Array) => Transform;

function decoderFor(coding: string): DecoderFactory {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return gunzip;
    case 'deflate':
      return inflate;
    default: // 'br': contentCodings() let nothing else through
      return unbrotli;
  }
}

// module functions, not arrows made per response: docs/performance.md, "Arrows made per request"
function gunzip(): Transform {
  // default finishFlush: a truncated body is an error, not a short result
  return zlib.createGunzip();
}

function inflate(first: Uint8Array): Transform {
  // RFC 9110 says zlib-wrapped, but some servers send raw deflate: tell by the header bytes
  return isZlibHeader(first) ? zlib.createInflate() : zlib.createInflateRaw();
}

function unbrotli(): Transform {
  return zlib.createBrotliDecompress();
}

function ignoreError(): void {
  // errors surface through iterating the decoder
}

function isZlibHeader(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && (bytes[0] & 0x0f) === 8 && ((bytes[0] << 8) | bytes[1]) % 31 === 0;
}

async function* through(source: AsyncIterable<Uint8Array>, makeDecoder: DecoderFactory): AsyncIterable<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return; // an empty body stays empty
  const decoder = makeDecoder(first.value);
  yield* pipeline(Readable.from(prepended(first.value, iterator)), decoder, ignoreError) as AsyncIterable<Uint8Array>;
}
