/**
 * The library's advice in hb's words: an error message names the setting a program would change
 * (`execution.tls.ca`), the person at the command line needs the flag. Only the advice is
 * rewritten; the rest of the message is the library's.
 */
const HINTS: ReadonlyArray<readonly [library: string, hb: string]> = [
  // a refused certificate chain (model/transport-error.ts)
  [' (to trust a private CA, set execution.tls.ca)', ' (to trust a private CA, use --cacert <file>; -k/--insecure skips the checks)'],
  // a pin failure (backends/tls-pins.ts)
  [' matches none of execution.tls.pins ', ' matches none of --pinnedpubkey '],
];

/**
 * `message` with the library's setting names in its advice replaced by hb's flags.
 *
 * @example
 * inFlagTerms('self-signed certificate (https://localhost:8443/) (to trust a private CA, set execution.tls.ca)');
 * // 'self-signed certificate (https://localhost:8443/) (to trust a private CA, use --cacert <file>; -k/--insecure skips the checks)'
 */
export function inFlagTerms(message: string): string {
  return HINTS.reduce((text, [library, hb]) => text.split(library).join(hb), message);
}
