import { setOwn } from '../core/own-property.js';

/** One `Set-Cookie` header, parsed. */
export interface ResponseCookie {
  readonly name: string;
  readonly value: string;
  /** Attribute names lower case (`path`, `domain`, `expires`, `max-age`, `secure`, `httponly`, `samesite`); flags are `true`. */
  readonly attributes: Readonly<Record<string, string | true>>;
}

/** `id=1; Path=/; HttpOnly` → `{ name: 'id', value: '1', attributes: { path: '/', httponly: true } }`. */
export function parseSetCookie(header: string): ResponseCookie {
  const [pair = '', ...rest] = header.split(';');
  const eq = pair.indexOf('=');
  const attributes: Record<string, string | true> = {};
  for (const attribute of rest) {
    const at = attribute.indexOf('=');
    // an attribute named `__proto__` is kept as one (setOwn)
    const name = (at < 0 ? attribute : attribute.slice(0, at)).trim().toLowerCase();
    const value = at < 0 ? true : attribute.slice(at + 1).trim();
    setOwn(attributes, name, value);
  }
  return {
    name: (eq < 0 ? '' : pair.slice(0, eq)).trim(),
    value: (eq < 0 ? pair : pair.slice(eq + 1)).trim(),
    attributes,
  };
}
