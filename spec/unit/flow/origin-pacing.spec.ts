import { describe, expect, it } from '@jest/globals';
import { OriginPacing } from '../../../lib/pipeline/origin-pacing.js';

const A = 'https://a.example:443';

describe('OriginPacing', () => {
  it('is idle without a rate limit or a pause; a pause makes attempts to that origin wait', () => {
    const pacing = new OriginPacing(undefined);
    expect(pacing.idle).toBe(true);
    pacing.pause(A, 500);
    expect(pacing.idle).toBe(false);
    const wait = pacing.wait(A) as number;
    expect(wait - performance.now()).toBeGreaterThan(400);
    expect(pacing.wait('https://b.example:443') as number).toBeLessThanOrEqual(performance.now());
  });

  it('with a rate limit, the turn after `requests` waits for the first to settle, then a whole interval', async () => {
    const pacing = new OriginPacing({ requests: 2, interval: 100 });
    const turns = [pacing.take(A)!, pacing.take(A)!];
    const third = pacing.wait(A);
    expect(third).toBeInstanceOf(Promise); // the first is still in flight
    const settledAt = performance.now();
    turns[0].settle(settledAt);
    await third;
    expect(pacing.wait(A)).toBe(settledAt + 100);
  });

  it('is idle again once every pause is over (the fast path comes back)', async () => {
    const pacing = new OriginPacing(undefined);
    pacing.pause(A, 10);
    expect(pacing.idle).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(pacing.idle).toBe(true);
  });
});
