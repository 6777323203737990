import { describe, expect, it } from '@jest/globals';
import { CallSlots } from '../../../lib/pipeline/call-slots.js';

const A = 'https://a.example:443';
const B = 'https://b.example:443';
const OPEN = new AbortController().signal;

describe('CallSlots (client.concurrency)', () => {
  it('gives free slots at once, then serves waiters in order as slots come back', async () => {
    const slots = new CallSlots({ total: 2 });
    expect(slots.take(A, undefined, OPEN)).toBeUndefined();
    expect(slots.take(A, undefined, OPEN)).toBeUndefined();
    const order: string[] = [];
    const third = slots.take(A, undefined, OPEN)!.then(() => order.push('third'));
    const fourth = slots.take(B, undefined, OPEN)!.then(() => order.push('fourth'));
    slots.give(A);
    await third;
    expect(order).toEqual(['third']);
    slots.give(A);
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
  });

  it('a waiter for a busy origin does not hold back one for another origin', async () => {
    const slots = new CallSlots({ total: 3, perOrigin: 1 });
    expect(slots.take(A, undefined, OPEN)).toBeUndefined();
    const secondA = slots.take(A, undefined, OPEN);
    expect(secondA).toBeInstanceOf(Promise);
    // B has room: it goes at once, past the waiting A
    expect(slots.take(B, undefined, OPEN)).toBeUndefined();
    slots.give(A);
    await secondA;
  });

  it('a waiter stops waiting when its pool is closed, and leaves the line', async () => {
    const slots = new CallSlots({ total: 1 });
    const closing = new AbortController();
    expect(slots.take(A, undefined, OPEN)).toBeUndefined();
    const waiting = slots.take(A, undefined, closing.signal)!;
    const next = slots.take(A, undefined, OPEN)!;
    closing.abort(new Error('closed'));
    await expect(waiting).rejects.toThrow('closed');
    slots.give(A);
    await next; // the slot went to the next in line, not to the one that left
  });
});
