import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { ConfigError, nullable, ResultTypeError, withResponse } from '../../lib/index.js';
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
    expect(verbArguments('get', type, block)).toEqual({ type, withResponse: false, block });
  });

  it.each([
    ['an arrow function', () => undefined],
    ['a function expression', function () {}],
    ['an async function', async () => {}],
    ['a bound function', function () {}.bind(null)],
  ])('%s is a block', (_name, fn) => {
    expect(verbArguments('get', fn, undefined)).toEqual({ type: undefined, withResponse: false, block: fn });
  });

  it('nothing is nothing', () => {
    expect(verbArguments('get', undefined, undefined)).toEqual({ type: undefined, withResponse: false, block: undefined });
  });

  it('withResponse(Type) is a result type wrapped with the response, withResponse() one without a type', () => {
    expect(verbArguments('get', withResponse(Plain), block)).toEqual({ type: Plain, withResponse: true, block });
    expect(verbArguments('get', withResponse(), undefined)).toEqual({ type: undefined, withResponse: true, block: undefined });
  });

  it('withResponse() of something that is no result type is refused, naming withResponse()', () => {
    expect(() => verbArguments('get', withResponse(Map as never), block)).toThrow(ResultTypeError);
    expect(() => verbArguments('get', withResponse((() => 1) as never), block)).toThrow(/in withResponse\(\) is not a class/);
  });

  it('nullable(Type) is Type (it changes the TypeScript type only), alone or inside withResponse()', () => {
    expect(verbArguments('get', nullable(Plain), block)).toEqual({ type: Plain, withResponse: false, block });
    expect(verbArguments('get', withResponse(nullable(String)), undefined)).toEqual({ type: String, withResponse: true, block: undefined });
  });

  it('nullable() of something that is no result type is refused, naming nullable()', () => {
    expect(() => verbArguments('get', nullable(Map as never), block)).toThrow(/Map is not a result type/);
    expect(() => verbArguments('get', nullable(42 as never), block)).toThrow(
      /get\(\): nullable\(\) must be a class, a built-in constructor or a Standard Schema, not a number \(42\)/,
    );
    expect(() => verbArguments('get', withResponse(nullable((() => 1) as never)), block)).toThrow(/in nullable\(\) is not a class/);
  });

  it('a string (an axios habit) points at c.request.uri.path, without repeating the text', () => {
    let error: unknown;
    try {
      verbArguments('get', 'https://ada:s3cret@api.example.com/users/1', undefined);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(/get\(\): the first argument is a string.*c\.request\.uri\.path/);
    expect((error as Error).message).not.toMatch(/s3cret|users\/1/);
  });
});
