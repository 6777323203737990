/**
 * A contender that could not complete: where it failed and why. The run goes on without it.
 *
 * @module
 */

/** Why and where a contender stopped. */
export interface Failure {
  /** `"open"`, `"warm-up"` or `"round N"`. */
  readonly stage: string;
  /** {@link describeError} of what was thrown. */
  readonly error: string;
}

/** `"Name [code]: message"`, with the causes' messages appended (a missing package hides in `cause`). */
export function describeError(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 4; depth++) {
    const { name, message, code, cause } = e as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown };
    const label = typeof name === 'string' ? name : 'Error';
    const text = typeof message === 'string' ? message : typeof e === 'string' ? e : `non-Error thrown: ${typeof e}`;
    parts.push(`${label}${typeof code === 'string' ? ` [${code}]` : ''}: ${text}`);
    e = cause;
  }
  return parts.join(' ← caused by ');
}
