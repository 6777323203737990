import { isPlainObject, isScalar } from '../core/scalar.js';
import { describeValue } from '../core/describe-value.js';
import { EncodeError } from '../core/errors.js';
import { escape } from '../core/text.js';

/** A form: each name maps to one value or a list (the name repeats once per element). */
export type FormFields = Record<string, unknown>;

/**
 * `{ a: ['1', '2'], b: 'x y' }` → `a=1&a=2&b=x+y` (application/x-www-form-urlencoded); a
 * `URLSearchParams` goes as its pairs, in order, repeated names kept.
 */
export function encodeForm(body: unknown): string {
  // as axios and fetch take it; the prototype's toString, so a subclass cannot change the escaping
  if (body instanceof URLSearchParams) return URLSearchParams.prototype.toString.call(body);
  if (!isPlainObject(body)) {
    throw new EncodeError(
      `an application/x-www-form-urlencoded body must be an object of { name: value | value[] }, a URLSearchParams or a string, not ${describeValue(body)}`,
    );
  }
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(body as FormFields)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (!isScalar(item))
        throw new EncodeError(`form field '${escape(name)}' must be a string, number or boolean (or a list of them), not ${describeValue(item)}`);
      params.append(name, String(item));
    }
  }
  return params.toString();
}

/** `a=1&a=2&b=x+y` → `{ a: ['1', '2'], b: 'x y' }`. */
export function parseForm(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    // own keys only, defined not assigned: `__proto__`, `constructor` or `toString` are field
    // names like any other, never the object's prototype or a method taken for an earlier value
    const existing = Object.hasOwn(out, name) ? out[name] : undefined;
    if (Array.isArray(existing)) existing.push(value);
    else Object.defineProperty(out, name, { value: existing === undefined ? value : [existing, value], writable: true, enumerable: true, configurable: true });
  }
  return out;
}
