import { ConfigError } from './errors.js';
import { describeValue } from './describe-value.js';

/**
 * Values with one obvious text form: what a header, cookie, query parameter or form field may
 * be set to. Anything else (an object, a function, a symbol) would go out as `[object Object]`
 * or the function's source, so it is refused, naming the setting.
 */

/** Whether `value` is a string, number, boolean or bigint. */
export function isScalar(value: unknown): value is string | number | boolean | bigint {
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' || type === 'bigint';
}

/**
 * Whether `value` is a plain bag of settings: an object literal (or class instance), not an
 * array, a `Map` or a `Headers`, whose entries `Object.entries` would not see. By its tag, so
 * an object from another realm counts too.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return Object.prototype.toString.call(value) === '[object Object]';
}

/**
 * Whether `value` is a plain object: an object literal, `Object.create(null)`, or either from
 * another realm. A `Map`, a `Date` or a class instance is not: their data lives in internal
 * slots, getters or private fields that `Object.entries` (and xml2js) never see, so encoding
 * them would send an empty or partial body without a word.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  // Object.prototype of any realm is the only prototype whose own prototype is null
  return prototype === null || Object.getPrototypeOf(prototype) === null;
}

/**
 * A setting given as one string or a list of them (content types, verbs, media ranges), as a
 * list; anything else is a ConfigError: `${what} must be a string or an array of strings`.
 */
export function stringList(value: unknown, what: string): readonly string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw new ConfigError(`${what} must be a string or an array of strings, not ${describeValue(value)}`);
}
