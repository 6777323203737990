import { ParseError } from '../core/errors.js';
import type { Decoder } from './decoder.js';
import { prepended } from './prepended.js';
import { webDecoders } from './web-decoders.js';

const MAX_CODINGS = 5;

/** The order codings are offered in `Accept-Encoding` (aliases such as `x-gzip` are accepted, never offered). */
const OFFER_ORDER = ['gzip', 'deflate', 'br', 'zstd'];

/** coding → what undoes it on this runtime, made at first use: node:zlib's where node-platform.ts plugs them in, the web's elsewhere */
let decoders: Map<string, Decoder> | undefined;
/** the runtime's own decoders (node:zlib's), asked for when the registry is made: when a client is made, not on import */
let plugged: (() => Iterable<readonly [string, Decoder]>) | undefined;
/** what the `ParseError` for an unknown coding lists, and `Accept-Encoding`, both made with the registry (not per request) */
let supportedList = '';
let acceptEncoding = '';

/**
 * @internal Plugs in the decoders of a runtime (node:zlib's, from node-platform.ts) in place of
 * the web's: every coding `DecompressionStream` undoes and more (`br` on Node 20, `zstd` where
 * zlib has it).
 */
export function registerDecoders(runtimeDecoders: () => Iterable<readonly [string, Decoder]>): void {
  plugged = runtimeDecoders;
  decoders = undefined;
}

/** The registry, made once. */
function registry(): Map<string, Decoder> {
  if (decoders === undefined) {
    const made = new Map(plugged === undefined ? webDecoders() : plugged());
    supportedList = [...made.keys()].join(', ');
    acceptEncoding = OFFER_ORDER.filter((coding) => made.has(coding)).join(', ');
    decoders = made;
  }
  return decoders;
}

/** @internal Whether this runtime can undo `coding` (`zstd` only where node's zlib has it). */
export function canDecode(coding: string): boolean {
  return registry().has(coding);
}

/** @internal The `Accept-Encoding` the library sends by default: the codings this runtime can undo (`gzip, deflate, br` on Node 20). */
export function defaultAcceptEncoding(): string {
  registry();
  return acceptEncoding;
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
    if (!decoded && !registry().has(coding)) {
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
  const decoders = registry();
  let decoded = body;
  for (let i = codings.length - 1; i >= 0; i--) decoded = through(decoded, decoders.get(codings[i])!);
  return decoded;
}

async function* through(source: AsyncIterable<Uint8Array>, decoder: Decoder): AsyncIterable<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return; // an empty body stays empty
  yield* decoder(prepended(first.value, iterator), first.value);
}
