import type { RequestRecord } from './request-record.js';

/** Performs the request and resolves to its result. */
export type Next = (request: RequestRecord) => Promise<unknown>;

/**
 * Wraps a call: `next(request)` performs it; what the interceptor returns is the result.
 *
 * @example
 * c.execution.interceptor('GET', async (request, next) => `Response: ${String(await next(request))}`);
 */
export type Interceptor = (request: RequestRecord, next: Next) => unknown;

/** Chains the interceptors registered for `method` around `core`, first registered outermost. */
export function chain(
  interceptors: ReadonlyArray<{ readonly methods: ReadonlySet<string>; readonly intercept: Interceptor }>,
  method: string,
  core: Next,
): Next {
  let next = core;
  for (let i = interceptors.length - 1; i >= 0; i--) {
    const { methods, intercept } = interceptors[i];
    if (!methods.has(method)) continue;
    const inner = next;
    next = async (request) => await intercept(request, inner);
  }
  return next;
}
