import type { WireRequest } from '../model/backend.js';

/**
 * A request's timeouts as undici's Agent options (it takes them per Agent, not per fetch), and
 * the key of the Agent that has them. `0` is off, for undici as for the pipeline (undici's own
 * 10 s connect timeout included: none unless asked, as on the other backends).
 */
export function transportLimits(request: WireRequest): { key: string; connectTimeout: number; headersTimeout: number; bodyTimeout: number } {
  const { connectTimeout = 0, headersTimeout = 0, bodyTimeout = 0 } = request;
  return { key: `${connectTimeout} ${headersTimeout} ${bodyTimeout}`, connectTimeout, headersTimeout, bodyTimeout };
}
