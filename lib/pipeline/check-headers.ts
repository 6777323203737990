import { ConfigError } from '../core/errors.js';
import { escape } from '../core/text.js';

/** The headers that frame a body: the pipeline sets them from the body, never as a caller wrote them. */
export const FRAMING_HEADERS: ReadonlySet<string> = new Set(['content-type', 'content-length', 'transfer-encoding']);

// RFC 9110 token characters
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// RFC 9110 field-value: visible ASCII, obs-text (0x80-0xFF), space and tab; nothing else
const FIELD_VALUE = /^[\t\x20-\x7e\x80-\xff]*$/;

/**
 * Rejects header names that are not tokens and values outside the RFC 9110 field-value grammar
 * (CR, LF, NUL and other control characters: header injection), naming the header. Runs on the
 * final headers, so every backend sends only what passed here.
 */
export function checkHeaders(headers: Readonly<Record<string, string>>): void {
  for (const name in headers) {
    if (!TOKEN.test(name)) throw new ConfigError(`header name '${escape(name)}' is not a valid token`);
    // a valid token, but axios, got and fetch copy headers into plain objects and lose it: refuse it on every backend alike
    if (name === '__proto__') throw new ConfigError(`header name '__proto__' is not supported (transports drop it)`);
    // announces trailer fields, which this client never sends (node refuses it after connecting)
    if (name.length === 7 && name.toLowerCase() === 'trailer')
      throw new ConfigError(`header '${name}' announces trailer fields, which no backend sends: leave it out`);
    checkHeaderValue(name, headers[name]);
  }
}

/** Rejects a header value outside the RFC 9110 field-value grammar, naming the header. */
export function checkHeaderValue(name: string, value: unknown): void {
  if (typeof value !== 'string') throw new ConfigError(`header '${name}' must have a string value`);
  if (!FIELD_VALUE.test(value)) {
    throw new ConfigError(`header '${name}' has a character not allowed in a header value (CR, LF, NUL, another control character, or beyond Latin-1)`);
  }
}

/** Rejects cookie names that are not tokens and values that would break the `Cookie` header. */
export function checkCookie(name: string, value: string): void {
  if (!TOKEN.test(name)) throw new ConfigError(`cookie name '${escape(name)}' is not a valid token`);
  if (!FIELD_VALUE.test(value) || value.includes(';')) {
    throw new ConfigError(`cookie '${name}' has a character not allowed in a cookie value (';', CR, LF, NUL or another control character)`);
  }
}
