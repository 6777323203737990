// The ext-value of RFC 8187 §3.2 (used by Digest's `username*`, RFC 7616 §3.4):
//
//   ext-value   = charset "'" [ language ] "'" value-chars
//   charset     = "UTF-8" / mime-charset          ; case-insensitive
//   value-chars = *( pct-encoded / attr-char )
//   attr-char   = ALPHA / DIGIT / "!" / "#" / "$" / "&" / "+" / "-" / "." / "^" / "_" / "`" / "|" / "~"

const EXT_VALUE = /^([A-Za-z0-9!#$%&+\-^_`{}~]+)'([A-Za-z0-9-]*)'((?:%[0-9A-Fa-f]{2}|[A-Za-z0-9!#$&+\-.^_`|~])*)$/;
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/;

/** A decoded ext-value. */
export interface ExtValue {
  /** The charset as written, e.g. `UTF-8`. */
  charset: string;
  /** The language tag, `''` when absent. */
  language: string;
  /** The decoded text. */
  value: string;
}

/**
 * Decodes an ext-value. Supports the charsets UTF-8 (required by RFC 8187) and ISO-8859-1;
 * throws on bad syntax, another charset or bytes that are not valid in the charset.
 */
export function decodeExtValue(text: string): ExtValue {
  const match = EXT_VALUE.exec(text);
  if (match === null) throw new Error('malformed ext-value');
  const [, charset, language, chars] = match;
  const bytes: number[] = [];
  for (let i = 0; i < chars.length; i++) {
    if (chars[i] === '%') {
      bytes.push(parseInt(chars.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(chars.charCodeAt(i));
    }
  }
  const label = charset.toLowerCase();
  if (label !== 'utf-8' && label !== 'iso-8859-1') throw new Error(`unsupported ext-value charset ${JSON.stringify(charset)}`);
  // Buffer's latin1 is true ISO-8859-1; TextDecoder('latin1') would be windows-1252.
  const value = label === 'utf-8' ? new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes)) : Buffer.from(bytes).toString('latin1');
  return { charset, language, value };
}

/** `value` as a UTF-8 ext-value without language: `UTF-8''` + percent-encoded bytes (upper-case hex). */
export function encodeExtValue(value: string): string {
  let out = "UTF-8''";
  for (const byte of Buffer.from(value, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += byte < 0x80 && ATTR_CHAR.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}
