/**
 * A value now, or a promise of it: what a step returns when it may or may not have to wait
 * (a parser that answers at once, a user's block that is async). Steps return a promise only
 * when something is really pending, so the usual synchronous case costs no microtask.
 */
export type MaybePromise<T> = T | PromiseLike<T>;

/** Whether `value` is a promise or promise-like (what a user's block, encoder or parser may return). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/**
 * `call(a, b)`, a synchronous throw as a rejection (a custom backend's `send`, so the retry rules
 * see it too). Two fixed arguments, not a rest list: no array per call.
 *
 * @example
 * promised(next, wire, call).catch(retry);
 */
export function promised<A, B, R>(call: (a: A, b: B) => Promise<R>, a: A, b: B): Promise<R> {
  try {
    return call(a, b);
  } catch (error) {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- pass on exactly what was thrown
    return Promise.reject(error);
  }
}
