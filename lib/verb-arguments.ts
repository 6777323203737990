import type { ConfigBlock } from './config/http-config.js';
import { describeValue } from './core/describe-value.js';
import { ResultTypeError } from './core/errors.js';
import { hasConverter } from './result/convert.js';
import type { ResultOf, ResultType } from './result/result-type.js';
import { isStandardSchema } from './result/standard-schema.js';

/** A verb's first argument: a result type, a configuration block, or nothing. */
export type VerbArgument = ResultType | ConfigBlock | undefined;

/** The result of a verb called with `first`: `ResultOf<Type>` for a result type, `unknown` for a block or nothing. */
export type ResultFor<A> = A extends ResultType ? ResultOf<A> : unknown;

/** What a function passed to a verb is: a built-in constructor (native code, `Buffer`), an ES class, or (`false`) a block. */
type TokenKind = 'built-in' | 'class' | false;

const classified = new WeakMap<object, TokenKind>();

function tokenKind(fn: (...args: never[]) => unknown): TokenKind {
  // arrows, async functions and methods have no prototype: never constructors, and a fresh
  // arrow per call would otherwise miss the cache and pay for toString() every request
  if (fn.prototype === undefined) return false;
  let known = classified.get(fn);
  if (known === undefined) {
    const source = Function.prototype.toString.call(fn);
    known = (fn as unknown) === Buffer || (source.includes('[native code]') && !fn.name.startsWith('bound ')) ? 'built-in' : /^class[\s{]/.test(source) ? 'class' : false;
    classified.set(fn, known);
  }
  return known;
}

/** Splits a verb's arguments into result type and block, rejecting anything else (before sending). */
export function verbArguments(verb: string, first: unknown, second: unknown): { type: ResultType | undefined; block: ConfigBlock | undefined } {
  if (first === undefined || first === null) return { type: undefined, block: asBlock(verb, second) };
  if (isStandardSchema(first)) {
    // a schema that cannot validate would fail only once the response is in
    const standard: unknown = first['~standard'];
    if (typeof standard !== 'object' || standard === null || typeof (standard as { validate?: unknown }).validate !== 'function') {
      throw new ResultTypeError(`${verb}(): the first argument has '~standard' but no validate function there: not a Standard Schema`);
    }
    return { type: first, block: asBlock(verb, second) };
  }
  if (typeof first === 'function') {
    const fn = first as (...args: never[]) => unknown;
    const kind = tokenKind(fn);
    // any other (Map, Array, Promise, ...) would come back as a broken instance, after the request
    if (kind === 'built-in' && !hasConverter(fn)) {
      throw new ResultTypeError(`${verb}(): ${fn.name || 'this built-in constructor'} is not a result type: use String, Number, Boolean, Date, Object, Buffer, Uint8Array, a class of your own or a Standard Schema`);
    }
    if (kind !== false) return { type: fn as unknown as ResultType, block: asBlock(verb, second) };
    if (second !== undefined) throw new ResultTypeError(`${verb}(): '${fn.name || 'anonymous function'}' is not a class or built-in constructor, so it cannot be a result type`);
    return { type: undefined, block: fn as unknown as ConfigBlock };
  }
  throw new ResultTypeError(
    `${verb}(): the first argument must be a configuration block, a class, a built-in constructor or a Standard Schema, not ${describeValue(first, typeof first !== 'string')}`,
  );
}

function asBlock(verb: string, value: unknown): ConfigBlock | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'function') return value as ConfigBlock;
  throw new ResultTypeError(`${verb}(): the second argument must be a configuration block, not ${describeValue(value, typeof value !== 'string')}`);
}
