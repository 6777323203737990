import type { ConfigBlock } from './config/http-config.js';
import { NodeBuffer } from './core/bytes.js';
import { describeValue } from './core/describe-value.js';
import { ConfigError, ResultTypeError } from './core/errors.js';
import { hasConverter } from './result/converted.js';
import { NullableOf, type HandlerValueOf, type ResultOf, type ResultType, type VerbType } from './result/result-type.js';
import { isStandardSchema } from './result/standard-schema.js';
import type { StreamOf } from './result/stream-of.js';
import { ResponseOf, type BodyOf, type WithResponse } from './result/with-response.js';

/** A verb's first argument: a result type (maybe `nullable()`, maybe wrapped in `withResponse()`), a configuration block, or nothing. */
export type VerbArgument = VerbType | ResponseOf<VerbType | undefined> | ConfigBlock | undefined;

/**
 * The result of a verb called with `first`: `ResultOf<Type>` for a result type, the response
 * with its body for `withResponse(Type)`, `AsyncIterable<T>` for a block that returns
 * `Stream.lines(c)` (`ndjson`, `events`: see `httpbuilder-ts/stream`), `unknown` for another block or nothing.
 */
export type ResultFor<A> =
  A extends ResponseOf<infer T>
    ? WithResponse<BodyOf<T>>
    : A extends VerbType
      ? ResultOf<A>
      : A extends (...args: never[]) => infer R
        ? StreamResult<Awaited<R>>
        : unknown;

/** What a block returning `R` makes the call resolve to: the items of a `Stream` it returns, else `unknown`. */
export type StreamResult<R> = R extends StreamOf<infer T> ? AsyncIterable<T> : unknown;

/** What HEAD resolves to: as {@link ResultFor}, but a body is always absent, so `null` is possible (a Stream is empty instead). */
export type HeadResultFor<A> =
  A extends ResponseOf<infer T> ? WithResponse<BodyOf<T> | null> : ResultFor<A> extends AsyncIterable<unknown> ? ResultFor<A> : ResultFor<A> | null;

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
    known =
      (fn as unknown) === NodeBuffer || (source.includes('[native code]') && !fn.name.startsWith('bound '))
        ? 'built-in'
        : /^class[\s{]/.test(source)
          ? 'class'
          : false;
    classified.set(fn, known);
  }
  return known;
}

/**
 * The block a verb takes after `first`: its handlers may return only what the call's type says
 * (see {@link HandlerValueOf}), so `get(User, (c) => c.response.when(404, () => null))` does not
 * compile. With `withResponse(Type)`, response handlers give the body and the exception handler
 * the whole result. `Absent` is what a response without a body adds (`null` for HEAD). Not
 * distributed over a union: `get(A | B, block)` lets handlers return an A or a B. A type cast to
 * `never` (or left open: `undefined` in it) leaves the handlers unchecked, as its result is.
 */
export type BlockFor<A, Absent = never> = [A] extends [never]
  ? ConfigBlock
  : [A] extends [ResponseOf<infer T>]
    ? ConfigBlock<HandlerValueOf<T> | Absent, WithResponse<BodyOf<T> | Absent>>
    : [A] extends [VerbType]
      ? ConfigBlock<HandlerValueOf<A> | Absent>
      : ConfigBlock;

/** A verb's arguments, sorted out: the result type, whether it is wrapped in `withResponse()`, the block. */
export interface VerbArguments {
  readonly type: ResultType | undefined;
  readonly withResponse: boolean;
  readonly block: ConfigBlock | undefined;
}

/** Splits a verb's arguments into result type and block, rejecting anything else (before sending). */
export function verbArguments(verb: string, first: unknown, second: unknown): VerbArguments {
  if (first === undefined || first === null) return { type: undefined, withResponse: false, block: asBlock(verb, second) };
  if (first instanceof ResponseOf) {
    const inner: unknown = (first as ResponseOf<VerbType | undefined>).type;
    return { type: inner === undefined ? undefined : resultType(verb, inner, 'withResponse()'), withResponse: true, block: asBlock(verb, second) };
  }
  if (typeof first === 'function' && tokenKind(first as (...args: never[]) => unknown) === false) {
    const fn = first as (...args: never[]) => unknown;
    if (second !== undefined)
      throw new ResultTypeError(`${verb}(): '${fn.name || 'anonymous function'}' is not a class or built-in constructor, so it cannot be a result type`);
    return { type: undefined, withResponse: false, block: fn as unknown as ConfigBlock };
  }
  if (typeof first === 'string') {
    // an axios habit (http.get('/users/1')): the text is not echoed, it may be a URL with a password
    throw new ConfigError(
      `${verb}(): the first argument is a string; the URL goes in the block: ${verb}((c) => { c.request.uri.path = '...'; }) (c.request.uri.path, or c.request.uri for a whole URL)`,
    );
  }
  return { type: resultType(verb, first, 'the first argument'), withResponse: false, block: asBlock(verb, second) };
}

/** `value` as a result type: a Standard Schema, a built-in constructor with a converter, or a class. */
export function resultType(verb: string, value: unknown, where: string): ResultType {
  if (isStandardSchema(value)) {
    // a schema that cannot validate would fail only once the response is in
    const standard: unknown = value['~standard'];
    if (typeof standard !== 'object' || standard === null || typeof (standard as { validate?: unknown }).validate !== 'function') {
      throw new ResultTypeError(`${verb}(): ${where} has '~standard' but no validate function there: not a Standard Schema`);
    }
    return value;
  }
  if (typeof value === 'function') {
    const fn = value as (...args: never[]) => unknown;
    const kind = tokenKind(fn);
    // any other (Map, Array, Promise, ...) would come back as a broken instance, after the request
    if (kind === 'built-in' && !hasConverter(fn)) {
      throw new ResultTypeError(
        `${verb}(): ${fn.name || 'this built-in constructor'} is not a result type: use String, Number, Boolean, Date, Object, Buffer, Uint8Array, a class of your own or a Standard Schema`,
      );
    }
    if (kind !== false) return fn as unknown as ResultType;
    throw new ResultTypeError(
      `${verb}(): '${fn.name || 'anonymous function'}' in ${where} is not a class or built-in constructor, so it cannot be a result type`,
    );
  }
  // nullable(Type) types the call `Type | null`; what runs is Type's conversion, which keeps null as null
  if (value instanceof NullableOf) return resultType(verb, (value as NullableOf).type, 'nullable()');
  const expected = where === 'the first argument' ? 'a configuration block, a class' : 'a class';
  throw new ResultTypeError(`${verb}(): ${where} must be ${expected}, a built-in constructor or a Standard Schema, not ${describeValue(value, true)}`);
}

function asBlock(verb: string, value: unknown): ConfigBlock | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'function') return value as ConfigBlock;
  throw new ResultTypeError(`${verb}(): the second argument must be a configuration block, not ${describeValue(value, typeof value !== 'string')}`);
}
