import { ConfigError } from '../core/errors.js';
import { describeValue } from '../core/describe-value.js';

/**
 * `value` when it is a function; a ConfigError naming `setting` when not, at registration,
 * rather than a TypeError once a response arrives.
 */
export function checkFunction<T>(value: T, setting: string): T {
  if (typeof value !== 'function') throw new ConfigError(`${setting} needs a function, not ${describeValue(value)}`);
  return value;
}
