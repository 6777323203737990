import { describe, expect, it } from '@jest/globals';
import { CallSlots } from '../../../lib/pipeline/call-slots.js';

const A = 'https://a.example:443';
const B = 'https://b.example:443';

describe('CallSlots (client.concurrency)', () => {
  it('gives free slots at once, then serves waiters in order as slots come back', async () => {
    const slots = new CallSlots({ total: 2 });
    expect(slots.take(A, undefined)).toBeUndefined();
    expect(slots.take(A, undefined)).toBeUndefined();
    const order: string[] = [];
    const third = slots.take(A, undefined)!.then(() => order.push('third'));
    const fourth = slots.take(B, undefined)!.then(() => order.push('fourth'));
    slots.give(A);
    await third;
    expect(order).toEqual(['third']);
    slots.give(A);
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
  });

  it('a waiter for a busy origin does not hold back one for another origin', async () => {
    const slots = new CallSlots({ total: 3, perOrigin: 1 });
    expect(slots.take(A, undefined)).toBeUndefined();
    const secondA = slots.take(A, undefined);
    expect(secondA).toBeInstanceOf(Promise);
    // B has room: it goes at once, past the waiting A
    expect(slots.take(B, undefined)).toBeUndefined();
    slots.give(A);
    await secondA;
  });
});
