import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { verbArguments } from '../../lib/verb-arguments.js';

class Plain {}

describe('verbArguments: telling a result type from a block', () => {
  const block = () => undefined;

  it.each([
    ['String', String],
    ['Number', Number],
    ['Date', Date],
    ['Object', Object],
    ['Buffer', Buffer],
    ['Uint8Array', Uint8Array],
    ['an ES class', Plain],
    ['a zod schema', z.string()],
  ])('%s is a result type', (_name, type) => {
    expect(verbArguments('get', type, block)).toEqual({ type, block });
  });

  it.each([
    ['an arrow function', () => undefined],
    ['a function expression', function () {}],
    ['an async function', async () => {}],
    ['a bound function', function () {}.bind(null)],
  ])('%s is a block', (_name, fn) => {
    expect(verbArguments('get', fn, undefined)).toEqual({ type: undefined, block: fn });
  });

  it('nothing is nothing', () => {
    expect(verbArguments('get', undefined, undefined)).toEqual({ type: undefined, block: undefined });
  });
});
