/** Secrets in headers, as logs, `hb -v` and HAR files hide them. */
import { isSecretName } from './redact.js';

/** Always credentials, whatever {@link isSecretName} would say of their words. */
const CREDENTIAL_HEADERS: ReadonlySet<string> = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

/**
 * Whether a header's value is a credential, by its whole name: `Authorization`,
 * `Proxy-Authorization`, `Cookie`, `Set-Cookie`, and every credential-like name by the rule of
 * {@link isSecretName} (`X-Api-Key`, `Private-Token`, `X-Amz-Security-Token`, `X-Auth-Token`).
 *
 * @example
 * isCredentialHeader('X-Api-Key'); // true
 * isCredentialHeader('X-Request-Id'); // false
 */
export function isCredentialHeader(name: string, lower = name.toLowerCase()): boolean {
  // the name as written and in lower case (as HTTP/2 sends it): `XAuth` reads as X-Auth, `xauth` as one word
  return CREDENTIAL_HEADERS.has(lower) || isSecretName(name) || (lower !== name && isSecretName(lower));
}

/** Headers whose whole value is a URI reference. */
const URI_HEADERS: ReadonlySet<string> = new Set(['location', 'content-location', 'referer']);

/**
 * The value of header `name` with each URI reference in it passed through `redact`: the whole
 * value of `Location`, `Content-Location` and `Referer` (and of any header whose value starts as
 * a URL does, `scheme://` or `//`), each `<target>` of a `Link`. Other values as they are.
 *
 * @example
 * redactUrisInHeader('Link', '<https://a.example/2?token=t>; rel="next"', redactReference); // '<https://a.example/2?token=***>; rel="next"'
 */
export function redactUrisInHeader(name: string, value: string, redact: (reference: string) => string): string {
  const lower = name.toLowerCase();
  if (lower === 'link') return value.replace(/<([^>]*)>/g, (_all, reference: string) => `<${redact(reference)}>`);
  if (URI_HEADERS.has(lower) || /^(?:[a-z][a-z0-9+.-]*:)?\/\//i.test(value)) return redact(value);
  return value;
}
