import { parseHttpDate } from '../core/http-date.js';

/**
 * A `Retry-After` value in ms (RFC 9110 §10.2.3): delay-seconds (digits only) or an HTTP-date,
 * 0 for a date past; `undefined` when absent or anything else (`-1`, `1.5`, `soon`), so the
 * backoff applies rather than an immediate retry.
 *
 * @example
 * retryAfterDelay('120'); // 120000
 * retryAfterDelay('-1'); // undefined
 */
export function retryAfterDelay(header: string | undefined, now = Date.now()): number | undefined {
  const value = header?.trim();
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = parseHttpDate(value, now);
  return date === undefined ? undefined : Math.max(date - now, 0);
}
