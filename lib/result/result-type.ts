import { ConfigError, ResultTypeError } from '../errors.js';
import type { ConfigBlock } from '../config/http-config.js';
import { isStandardSchema, type StandardSchemaV1 } from './standard-schema.js';
import { describeValue } from '../describe-value.js';
import { hasConverter } from './convert.js';

/** What may stand as the first argument of a verb to type its result: a constructor or a Standard Schema. */
export type ResultType = (abstract new (...args: never[]) => unknown) | FromJson | StandardSchemaV1;

/** A class (its constructor may be private) that builds its instances with a static `fromJSON`. */
export interface FromJson {
  readonly prototype: unknown;
  fromJSON(value: unknown): unknown;
}

/** A class a result may be built as: anything `ResultType` accepts except a Standard Schema. */
export type ClassType = (abstract new (...args: never[]) => unknown) | FromJson;

/**
 * Builds class instances from parsed values and turns values into JSON text (the mapping
 * module's default builds them as the result types do). Registered per content type with
 * `c.context(contentType, MAPPER_ID, mapper)` or `Mapping.mapper(c, mapper)`.
 *
 * @example
 * const mapper: Mapper = { read: (value, Type) => new (Type as typeof User)(value), write: (value) => JSON.stringify(value) };
 */
export interface Mapper {
  /** Builds an instance of `type` from the parsed body (or whatever the handlers returned). */
  read(value: unknown, type: ClassType): unknown;
  /** Returns the JSON text for a request body. */
  write(value: unknown): string;
}

/** The context id under which a content type's {@link Mapper} is stored (also `Mapping.MAPPER_ID`). */
export const MAPPER_ID: unique symbol = Symbol.for('httpbuilder-ts.mapper');

/** Throws a ConfigError naming `where` unless `value` is a {@link Mapper}: one without `read` would fail only once a response is in. */
export function checkMapper(value: unknown, where: string): asserts value is Mapper {
  const mapper = value as Partial<Mapper> | null;
  if (typeof mapper !== 'object' || mapper === null || typeof mapper.read !== 'function' || typeof mapper.write !== 'function') {
    throw new ConfigError(`${where}: a mapper is an object with read(value, Type) and write(value) functions, not ${describeValue(value)}`);
  }
}

/**
 * The TypeScript result of `verb(Type, block)`.
 *
 * @example
 * const n: number = await http.get(Number);
 * const user: User = await http.get(User, (c) => { c.request.uri.path = '/users/1'; });
 */
export type ResultOf<T> = T extends { readonly '~standard': { readonly types?: { readonly output: infer O } | undefined } }
  ? O
  : T extends StringConstructor
    ? string
    : T extends NumberConstructor
      ? number
      : T extends BooleanConstructor
        ? boolean
        : T extends ObjectConstructor
          ? unknown
          : T extends { fromJSON(value: unknown): infer R }
            ? R
            : T extends abstract new (...args: never[]) => infer I
              ? I
              : unknown;

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

/** Whether this type takes the body as text or bytes, skipping the content-type parser. */
export function rawBodyKind(type: ResultType | undefined): 'text' | 'bytes' | undefined {
  if (type === String) return 'text';
  if (type === Buffer || type === Uint8Array) return 'bytes';
  return undefined;
}
