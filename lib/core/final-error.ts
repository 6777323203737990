/** Set on an error whose cause a new attempt would not fix; not enumerable, so neither shown nor serialized. */
const FINAL: unique symbol = Symbol('httpbuilder-ts.final');

/**
 * Marks `error` final: the retry policy passes it on at once, whatever its kind says (a
 * `NetworkError` from a server that failed to prove itself must not be asked again).
 *
 * @example
 * throw finalError(new NetworkError('the server could not prove itself', 'other'));
 */
export function finalError<E extends Error>(error: E): E {
  Object.defineProperty(error, FINAL, { value: true });
  return error;
}

/** Whether {@link finalError} marked `error`. */
export function isFinal(error: Error): boolean {
  return FINAL in error;
}
