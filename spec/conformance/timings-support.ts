import { expect } from '@jest/globals';
import type { Timings } from '../../lib/index.js';

/** Resolves after `ms`. */
export const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Every instant set is on the performance clock, in order, and each phase is the gap between its two instants. */
export function expectConsistent(t: Timings): void {
  const order = [t.start, t.socket, t.lookup, t.connect, t.secureConnect, t.upload, t.response, t.end].filter((v) => v !== undefined);
  expect([...order].sort((a, b) => a - b)).toEqual(order);
  for (const phase of Object.values(t.phases)) expect(phase).toBeGreaterThanOrEqual(0);
  expect(t.phases.total).toBeCloseTo((t.end ?? t.error!) - t.start, 6);
  if (t.error !== undefined) expect(t.error).toBeGreaterThanOrEqual(Math.max(...order));
}
