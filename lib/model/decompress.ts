import { ParseError } from '../core/errors.js';
import type { Decoder } from './decoder.js';
import { prepended } from './prepended.js';
import { webDecoders } from './web-decoders.js';

const MAX_CODINGS = 5;

/** The order codings are offered in `Accept-Encoding` (aliases such as `x-gzip` are accepted, never offered). */
const OFFER_ORDER = ['gzip', 'deflate', 'br', 'zstd'];

/** coding → what undoes it on this runtime: the web's, replaced by node's where node-platform.ts plugs them in */
const DECODERS = new Map<string, Decoder>(webDecoders());
/** what the `ParseError` for an unknown coding lists, and `Accept-Encoding`, both made when the registry changes (not per request) */
let supportedList = '';
let acceptEncoding = '';
const acceptEncodingListeners: Array<(value: string) => void> = [];
described();

/**
 * @internal Plugs in the decoders of a runtime (node:zlib's, from node-platform.ts): each
 * replaces the web one of its coding, or adds a coding (`br` on Node 20, `zstd` where zlib has it).
 */
export function registerDecoders(decoders: Iterable<readonly [string, Decoder]>): void {
  for (const [coding, decoder] of decoders) DECODERS.set(coding, decoder);
  described();
}

/** @internal Whether this runtime can undo `coding` (`zstd` only where node's zlib has it). */
export function canDecode(coding: string): boolean {
  return DECODERS.has(coding);
}

/** @internal The `Accept-Encoding` the library sends by default: the codings this runtime can undo (`gzip, deflate, br` on Node 20). */
export function defaultAcceptEncoding(): string {
  return acceptEncoding;
}

/**
 * @internal Calls `listener` with the default `Accept-Encoding` now, and again whenever the
 * decoders change (config/settings.ts keeps its default header with it, whatever the import order).
 */
export function onAcceptEncoding(listener: (value: string) => void): void {
  acceptEncodingListeners.push(listener);
  listener(acceptEncoding);
}

function described(): void {
  supportedList = [...DECODERS.keys()].join(', ');
  acceptEncoding = OFFER_ORDER.filter((coding) => DECODERS.has(coding)).join(', ');
  for (const listener of acceptEncodingListeners) listener(acceptEncoding);
}

/**
 * The codings of a `Content-Encoding` header, checked: at most 5, each one we can undo unless
 * the transport undid them (`decoded`: a browser's fetch undoes what it offered, br and zstd
 * included, whatever this runtime's decoders can). The count is checked even then, so every
 * backend refuses the same stacks.
 */
export function contentCodings(contentEncoding: string, statusCode: number, decoded = false): string[] {
  const codings = contentEncoding
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length > MAX_CODINGS) {
    throw new ParseError(`Content-Encoding stacks ${codings.length} codings; at most ${MAX_CODINGS} are accepted`, { statusCode, contentType: '', text: '' });
  }
  for (const coding of codings) {
    if (!decoded && !DECODERS.has(coding)) {
      throw new ParseError(`Content-Encoding '${coding}' is not supported (${supportedList === '' ? 'none is, on this runtime' : `${supportedList} are`})`, {
        statusCode,
        contentType: '',
        text: '',
      });
    }
  }
  return codings;
}

/** Undoes checked codings (applied in order, so undone in reverse). */
export function decompress(body: AsyncIterable<Uint8Array>, codings: readonly string[]): AsyncIterable<Uint8Array> {
  let decoded = body;
  for (let i = codings.length - 1; i >= 0; i--) decoded = through(decoded, DECODERS.get(codings[i])!);
  return decoded;
}

async function* through(source: AsyncIterable<Uint8Array>, decoder: Decoder): AsyncIterable<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return; // an empty body stays empty
  yield* decoder(prepended(first.value, iterator), first.value);
}
