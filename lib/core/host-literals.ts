/**
 * IP literals and international host names on web-standard parsing (no `node:net`, no
 * `node:url`): the same answers as Node's `isIPv4`, `isIPv6` (without zone ids) and
 * `domainToASCII`, which itself runs the WHATWG host parser.
 * @internal
 */

/** Dotted-decimal IPv4, four numbers from 0 to 255 without leading zeros (as `net.isIPv4`). */
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]\d|\d)$/;

/** Whether `text` is a dotted-decimal IPv4 address. */
export function isIPv4(text: string): boolean {
  return IPV4.test(text);
}

/** Whether `text` is an IPv6 address without brackets or zone id: what WHATWG URL parsing accepts between brackets. */
export function isIPv6(text: string): boolean {
  if (!/^[0-9a-f:.]+$/i.test(text) || !text.includes(':')) return false;
  try {
    new URL(`http://[${text}]/`);
    return true;
  } catch {
    return false;
  }
}

/**
 * A host name in ASCII (IDNA/UTS #46: lower case, punycode), `''` when it is not a valid one.
 *
 * @example
 * domainToASCII('Bücher.example'); // 'xn--bcher-kva.example'
 */
export function domainToASCII(host: string): string {
  // what would end the host inside a URL (a path, a query, a user) makes no host name at all
  if (/[\s#/:<>?@[\\\]^|]/.test(host)) return '';
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return '';
  }
}

/** A host as node and IP parsers want it: an IPv6 literal without its brackets (`[::1]` → `::1`). */
export function unbracketed(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}
