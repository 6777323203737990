import { UsageError } from './failure.js';

/** A JSON Pointer (RFC 6901) as given on the command line, and its reference tokens. */
export interface JsonPointer {
  /** As the user wrote it, for messages. */
  readonly text: string;
  /** The reference tokens, `~1` and `~0` already read as `/` and `~`. */
  readonly tokens: readonly string[];
}

/**
 * Reads an RFC 6901 pointer: `''` (the whole document) or `/`-separated tokens where `~0` is `~`
 * and `~1` is `/`.
 *
 * @throws {UsageError} naming `option` when `text` is no pointer.
 * @example
 * parsePointer('/data/next~1cursor', '--next'); // { text: '/data/next~1cursor', tokens: ['data', 'next/cursor'] }
 */
export function parsePointer(text: string, option: string): JsonPointer {
  if (text !== '' && !text.startsWith('/')) throw new UsageError(`${option} expects a JSON pointer such as /items (starting with '/'), got '${text}'`);
  if (/~(?![01])/.test(text)) throw new UsageError(`${option}: in a JSON pointer '~' is written ~0 and '/' ~1, got '${text}'`);
  const tokens =
    text === ''
      ? []
      : text
          .slice(1)
          .split('/')
          .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
  return { text, tokens };
}

/**
 * What `pointer` points at in `document` (parsed JSON), or `undefined` when nothing is there.
 * An array is indexed by a decimal number without leading zeros, as RFC 6901 says.
 *
 * @example
 * pointAt({ items: [1, 2] }, parsePointer('/items/1', '--items')); // 2
 */
export function pointAt(document: unknown, pointer: JsonPointer): unknown {
  let here = document;
  for (const token of pointer.tokens) {
    if (Array.isArray(here)) here = /^(0|[1-9]\d*)$/.test(token) ? (here as unknown[])[Number(token)] : undefined;
    else if (typeof here === 'object' && here !== null && Object.hasOwn(here, token)) here = (here as Record<string, unknown>)[token];
    else return undefined;
  }
  return here;
}
