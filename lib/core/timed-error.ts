import { HttpBuilderError } from './errors.js';
import type { Timings } from './timings.js';

/**
 * @internal `error` with the timings of the attempt it came from, unless it has some already
 * (not enumerable, so a logged error stays as short as it was).
 */
export function withTimings<E>(error: E, timings: Timings | undefined): E {
  if (timings !== undefined && error instanceof HttpBuilderError && error.timings === undefined) {
    Object.defineProperty(error, 'timings', { value: timings, configurable: true, writable: true });
  }
  return error;
}
