import { fromUtf8, latin1, utf16le, utf8 } from './bytes.js';
import { EncodeError } from './errors.js';
import { parseMediaType } from './media-type.js';
import { escape } from './text.js';

type Encoding = 'utf8' | 'utf16le' | 'latin1' | 'ascii';

/** The encodings of the request charsets the contract supports (TextEncoder has UTF-8 only: bytes.ts does the rest). */
const REQUEST_CHARSETS: Readonly<Record<string, Encoding>> = {
  'utf-8': 'utf8',
  utf8: 'utf8',
  'utf-16le': 'utf16le',
  'iso-8859-1': 'latin1',
  latin1: 'latin1',
  'us-ascii': 'ascii',
  ascii: 'ascii',
};

/** The charset a content type names, if any (no parse for the usual type without parameters). */
export function namedCharset(contentType: string | undefined): string | undefined {
  return contentType?.includes(';') ? parseMediaType(contentType).params.charset : undefined;
}

/** Whether {@link encodeText} encodes with `charset` as UTF-8. */
export function encodesAsUtf8(charset: string | undefined): boolean {
  return charset === undefined || REQUEST_CHARSETS[charset.toLowerCase()] === 'utf8';
}

/** Encodes request text with `charset` (UTF-8 when unset); any charset we cannot encode is an EncodeError naming it. */
export function encodeText(text: string, charset: string | undefined): Uint8Array {
  if (charset === undefined) return utf8(text);
  const key = charset.toLowerCase();
  // own entries only: 'constructor' must not find Object's
  const encoding = Object.hasOwn(REQUEST_CHARSETS, key) ? REQUEST_CHARSETS[key] : undefined;
  if (encoding === undefined) {
    throw new EncodeError(
      `charset '${escape(charset)}' (request.charset, or the content type's) is not supported for encoding request text; use utf-8, utf-16le, iso-8859-1 or us-ascii`,
    );
  }
  // latin1 keeps only each character's low byte: '€' would go out as '¬'
  if (encoding === 'latin1' && /[\u0100-\uffff]/.test(text)) {
    throw new EncodeError(`the request text has characters beyond ISO-8859-1, which charset '${escape(charset)}' cannot encode (use utf-8)`);
  }
  if (encoding === 'ascii' && /[\u0080-\uffff]/.test(text)) {
    throw new EncodeError(`the request text has characters beyond ASCII, which charset '${escape(charset)}' cannot encode (use utf-8)`);
  }
  // ASCII text (checked above) is its ISO-8859-1 bytes
  return encoding === 'utf8' ? utf8(text) : encoding === 'utf16le' ? utf16le(text) : latin1(text);
}

/** Decodes response bytes with the response charset (any charset the WHATWG encoding standard knows, Shift_JIS included). */
export function decodeText(bytes: Uint8Array, charset: string): string {
  if (charset === 'utf-8' || charset === 'utf8') {
    // Buffer's toString() on node (the usual case: a socket's bytes), TextDecoder elsewhere
    const text = fromUtf8(bytes);
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // a BOM is not content (TextDecoder drops it too)
  }
  return new TextDecoder(charset).decode(bytes);
}
