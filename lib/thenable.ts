/** Whether `value` is a promise or promise-like (what a user's block, encoder or parser may return). */
export function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
