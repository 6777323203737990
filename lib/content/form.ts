import { EncodeError } from '../errors.js';

/** A form: each name maps to one value or a list (the name repeats once per element). */
export type FormFields = Record<string, unknown>;

/** `{ a: ['1', '2'], b: 'x y' }` → `a=1&a=2&b=x+y` (application/x-www-form-urlencoded). */
export function encodeForm(body: unknown): string {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new EncodeError('an application/x-www-form-urlencoded body must be an object of { name: value | value[] } or a string');
  }
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(body as FormFields)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) params.append(name, String(item));
  }
  return params.toString();
}

/** `a=1&a=2&b=x+y` → `{ a: ['1', '2'], b: 'x y' }`. */
export function parseForm(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const existing = out[name];
    if (existing === undefined) out[name] = value;
    else if (Array.isArray(existing)) existing.push(value);
    else out[name] = [existing, value];
  }
  return out;
}
