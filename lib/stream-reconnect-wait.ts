// How long `Stream.events(c, { reconnect: true })` waits before it connects again.

/** The reconnection time (ms) until the server sets one with `retry:`, as in browsers' EventSource. */
export const DEFAULT_RETRY_MS = 3000;

/** The longest wait (ms): a larger `retry:`, or one doubled past it, waits this long. */
export const MAX_WAIT_MS = 60_000;

/** The shortest wait (ms): a server sending `retry: 0` and closing at once gets no hot loop of requests. */
export const MIN_WAIT_MS = 100;

/**
 * The wait before the next connection: the last `retry:` value (3000 ms when the server sent
 * none), at least {@link MIN_WAIT_MS}, doubled for each failure in a row (`failures`: attempts
 * that got no stream, or a 2xx stream that ended with no byte; one that gave any byte, a comment
 * included, sets it back to 0), at most {@link MAX_WAIT_MS}.
 *
 * @example
 * reconnectWait(undefined, 0); // 3000
 * reconnectWait(500, 2);       // 2000
 * reconnectWait(0, 0);         // 100
 */
export function reconnectWait(retry: number | undefined, failures: number): number {
  const base = Math.max(retry ?? DEFAULT_RETRY_MS, MIN_WAIT_MS);
  // 2 ** a large count is Infinity: the cap holds
  return Math.min(base * 2 ** failures, MAX_WAIT_MS);
}
