import { ConfigError } from '../errors.js';
import { describeValue, isStringList } from './scalar.js';

/**
 * `value` when it is a function; a ConfigError naming `setting` when not, at registration,
 * rather than a TypeError once a response arrives.
 */
export function checkFunction<T>(value: T, setting: string): T {
  if (typeof value !== 'function') throw new ConfigError(`${setting} needs a function, not ${describeValue(value)}`);
  return value;
}

/** The content types a parser or encoder is registered for: a string or an array of strings. */
export function contentTypes(contentType: unknown, setting: string): readonly string[] {
  if (isStringList(contentType)) return typeof contentType === 'string' ? [contentType] : contentType;
  throw new ConfigError(`${setting}: the content type must be a string or an array of strings, not ${describeValue(contentType)}`);
}
