import { ConfigError } from '../errors.js';
import { escape } from './build-url.js';

// RFC 9110 token characters
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const BAD_VALUE = /[\r\n\0]/;

/** Rejects header names that are not tokens and values with CR, LF or NUL (header injection), naming the header. */
export function checkHeaders(headers: Readonly<Record<string, string>>): void {
  for (const name in headers) {
    if (!TOKEN.test(name)) throw new ConfigError(`header name '${escape(name)}' is not a valid token`);
    const value = headers[name];
    if (typeof value !== 'string') throw new ConfigError(`header '${name}' must have a string value`);
    if (BAD_VALUE.test(value)) throw new ConfigError(`header '${name}' has a CR, LF or NUL in its value`);
  }
}

/** Rejects cookie names that are not tokens and values that would break the `Cookie` header. */
export function checkCookie(name: string, value: string): void {
  if (!TOKEN.test(name)) throw new ConfigError(`cookie name '${escape(name)}' is not a valid token`);
  if (/[\r\n\0;]/.test(value)) throw new ConfigError(`cookie '${name}' has a CR, LF, NUL or ';' in its value`);
}
