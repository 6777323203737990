import { ConfigError } from '../core/errors.js';
import { describeSetting } from '../core/describe-value.js';
import { isRecord } from '../core/scalar.js';

/**
 * `client.concurrency`: how many calls may be in flight at once (a call counts from its first
 * attempt until its body is read); further calls wait in order.
 *
 * @example
 * c.client.concurrency = { total: 50, perOrigin: 6 };
 */
export interface ConcurrencyOptions {
  /** Calls in flight at once across every origin. */
  readonly total?: number;
  /** Calls in flight at once to one origin (scheme, host and port). */
  readonly perOrigin?: number;
}

/**
 * `client.rateLimit`: at most `requests` attempts per `interval` ms to one origin, in any window
 * of that length; further attempts wait for their turn.
 *
 * @example
 * c.client.rateLimit = { requests: 10, interval: 1000 }; // 10 per second per origin
 */
export interface RateLimitOptions {
  readonly requests: number;
  /** Milliseconds. */
  readonly interval: number;
}

/** The flow settings of a client, as merged over its parent's (`undefined`: none of them). */
export interface FlowSettings {
  readonly concurrency: ConcurrencyOptions | undefined;
  readonly rateLimit: RateLimitOptions | undefined;
  readonly dedupe: boolean;
}

/** What one block of `c.client` set of them: a value, or `false` to turn a parent's off. */
export interface FlowLayer {
  concurrency?: ConcurrencyOptions | false;
  rateLimit?: RateLimitOptions | false;
  dedupe?: boolean;
}

/** @internal `client.concurrency` checked when set. */
export function checkConcurrency(value: unknown): ConcurrencyOptions | false {
  if (value === false) return false;
  if (!isRecord(value)) throw new ConfigError(`client.concurrency must be { total?, perOrigin? } or false, not ${describeSetting(value)}`);
  for (const key of Object.keys(value))
    if (key !== 'total' && key !== 'perOrigin') throw new ConfigError(`client.concurrency has no option '${key}' (known: total, perOrigin)`);
  const { total, perOrigin } = value as ConcurrencyOptions;
  if (total === undefined && perOrigin === undefined) throw new ConfigError('client.concurrency needs total or perOrigin (or both)');
  return Object.freeze({ total: atLeastOne(total, 'client.concurrency.total'), perOrigin: atLeastOne(perOrigin, 'client.concurrency.perOrigin') });
}

/** @internal `client.rateLimit` checked when set. */
export function checkRateLimit(value: unknown): RateLimitOptions | false {
  if (value === false) return false;
  if (!isRecord(value)) throw new ConfigError(`client.rateLimit must be { requests, interval } or false, not ${describeSetting(value)}`);
  for (const key of Object.keys(value))
    if (key !== 'requests' && key !== 'interval') throw new ConfigError(`client.rateLimit has no option '${key}' (known: requests, interval)`);
  const { requests, interval } = value as Partial<RateLimitOptions>;
  if (requests === undefined || interval === undefined) throw new ConfigError('client.rateLimit needs both requests and interval (ms)');
  return Object.freeze({ requests: atLeastOne(requests, 'client.rateLimit.requests')!, interval: atLeastOne(interval, 'client.rateLimit.interval')! });
}

/** @internal `client.dedupe` checked when set. */
export function checkDedupe(value: unknown): boolean {
  if (typeof value !== 'boolean') throw new ConfigError(`client.dedupe must be true or false, not ${describeSetting(value)}`);
  return value;
}

/** @internal A derived client's flow settings: each one it set over its parent's. */
export function mergeFlow(base: FlowSettings | undefined, layer: FlowLayer): FlowSettings | undefined {
  const pick = <T>(set: T | false | undefined, inherited: T | undefined) => (set === undefined ? inherited : set || undefined);
  const merged = {
    concurrency: pick(layer.concurrency, base?.concurrency),
    rateLimit: pick(layer.rateLimit, base?.rateLimit),
    dedupe: layer.dedupe ?? base?.dedupe ?? false,
  };
  return merged.concurrency || merged.rateLimit || merged.dedupe ? Object.freeze(merged) : undefined;
}

function atLeastOne(value: unknown, setting: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    throw new ConfigError(`${setting} must be a whole number >= 1, not ${describeSetting(value)}`);
  return value;
}
