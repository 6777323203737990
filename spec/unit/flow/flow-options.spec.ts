import { describe, expect, it } from '@jest/globals';
import { HttpBuilder } from '../../../lib/index.js';

describe('flow settings are checked when set', () => {
  it.each([
    ['concurrency', 5, /^client.concurrency must be \{ total\?, perOrigin\? \} or false, not 5/],
    ['concurrency', {}, /^client.concurrency needs total or perOrigin \(or both\)/],
    ['concurrency', { total: 0 }, /^client.concurrency.total must be a whole number >= 1, not 0/],
    ['concurrency', { perOrigin: 1.5 }, /^client.concurrency.perOrigin must be a whole number >= 1, not 1.5/],
    ['concurrency', { max: 3 }, /^client.concurrency has no option 'max' \(known: total, perOrigin\)/],
    ['rateLimit', { requests: 10 }, /^client.rateLimit needs both requests and interval \(ms\)/],
    ['rateLimit', { requests: 10, interval: -1 }, /^client.rateLimit.interval must be a whole number >= 1, not -1/],
    ['rateLimit', { requests: 10, per: 1000 }, /^client.rateLimit has no option 'per'/],
    ['dedupe', 'yes', /^client.dedupe must be true or false, not a string/],
  ] as const)('client.%s = %j is a ConfigError naming it', (name, value, message) => {
    expect(() => HttpBuilder.configure((c) => void ((c.client as unknown as Record<string, unknown>)[name] = value))).toThrow(message);
  });

  it('execution.retry.idempotencyKey must be a boolean', () => {
    expect(() => HttpBuilder.configure((c) => void (c.execution.retry = { idempotencyKey: 'yes' as never }))).toThrow(
      /^execution.retry.idempotencyKey must be true or false, not a string/,
    );
  });

  it('they are client-level settings', async () => {
    const http = HttpBuilder.configure();
    await expect(http.get((c) => void (c.client.concurrency = { total: 1 }))).rejects.toThrow(/client.concurrency is a client-level setting/);
    await http.close();
  });
});
