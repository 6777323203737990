import { describe, expect, it } from '@jest/globals';
import { DEFAULT_RETRY_MS, MAX_WAIT_MS, MIN_WAIT_MS, reconnectWait } from '../../lib/stream-reconnect-wait.js';

describe('reconnectWait(): the wait before Stream.events connects again', () => {
  it('is the last retry: value, 3000 ms when the server sent none', () => {
    expect(DEFAULT_RETRY_MS).toBe(3000);
    expect(reconnectWait(undefined, 0)).toBe(3000);
    expect(reconnectWait(1500, 0)).toBe(1500);
  });

  it('doubles for each failure in a row, up to 60 s', () => {
    expect([0, 1, 2, 3, 4, 5].map((failures) => reconnectWait(undefined, failures))).toEqual([3000, 6000, 12_000, 24_000, 48_000, 60_000]);
    expect(reconnectWait(500, 3)).toBe(4000);
    expect(MAX_WAIT_MS).toBe(60_000);
  });

  it('never waits less than 100 ms: retry: 0 makes no hot loop, and doubles from the floor', () => {
    expect(MIN_WAIT_MS).toBe(100);
    expect(reconnectWait(0, 0)).toBe(100);
    expect(reconnectWait(20, 0)).toBe(100);
    expect(reconnectWait(0, 2)).toBe(400);
  });

  it('caps a server retry above 60 s, and any count of failures (no overflow, no NaN)', () => {
    expect(reconnectWait(300_000, 0)).toBe(60_000);
    expect(reconnectWait(Number('9'.repeat(400)), 0)).toBe(60_000); // Infinity from a long run of digits
    expect(reconnectWait(3000, 5000)).toBe(60_000); // 2 ** 5000 is Infinity
  });
});
