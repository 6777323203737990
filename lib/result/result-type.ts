import { NodeBuffer } from '../core/bytes.js';
import { ConfigError } from '../core/errors.js';
import type { StandardSchemaV1 } from './standard-schema.js';
import { describeValue } from '../core/describe-value.js';

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

/** The result type that {@link nullable} makes: `Type`, or `null`. */
export class NullableOf<T extends ResultType = ResultType> {
  // a private field makes the type nominal: only what nullable() made is one
  // eslint-disable-next-line no-unused-private-class-members -- read by the type checker, not the code
  readonly #brand = true;

  /** @internal */
  constructor(readonly type: T) {
    Object.freeze(this);
  }
}

/**
 * Wraps a result type so the call is typed `Type | null`: its handlers may then return `null`
 * (a 404 as "no such thing"), which `verb(Type, block)` does not let them. The result is
 * converted to `Type` as usual, and `null` (or a response without a body) stays `null`.
 * Also inside `withResponse(nullable(Type))`, typing `body` so.
 *
 * @example
 * const user = await http.get(nullable(User), (c) => {
 *   c.request.uri.path = '/users/7';
 *   c.response.when(404, () => null);
 * }); // User | null
 */
export function nullable<T extends ResultType>(type: T): NullableOf<T> {
  return new NullableOf(type);
}

/** What a verb takes as its `Type`: a {@link ResultType}, or one wrapped in `nullable()`. */
export type VerbType = ResultType | NullableOf<ResultType>;

/**
 * The TypeScript result of `verb(Type, block)` (`Type | null` for `nullable(Type)`).
 *
 * @example
 * const n: number = await http.get(Number);
 * const user: User = await http.get(User, (c) => { c.request.uri.path = '/users/1'; });
 */
export type ResultOf<T> =
  T extends NullableOf<infer U>
    ? ResultOf<U> | null
    : T extends { readonly '~standard': { readonly types?: { readonly output: infer O } | undefined } }
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

/**
 * What a handler in the block of `verb(Type, block)` may return (or a promise of it): a value of
 * that type, so the call's type cannot lie. For a Standard Schema, its input type (the schema
 * validates what the handler returns); `null` only with `nullable(Type)`.
 *
 * @example
 * await http.get(User, (c) => c.response.when(404, () => new User()));          // compiles
 * await http.get(User, (c) => c.response.when(404, () => null));                // does not
 * await http.get(nullable(User), (c) => c.response.when(404, () => null));      // User | null
 */
export type HandlerValueOf<T> =
  T extends NullableOf<infer U>
    ? HandlerValueOf<U> | null
    : T extends { readonly '~standard': { readonly types?: { readonly input: infer I } | undefined } }
      ? I
      : ResultOf<T>;

/** Whether this type takes the body as text or bytes, skipping the content-type parser. */
export function rawBodyKind(type: ResultType | undefined): 'text' | 'bytes' | undefined {
  if (type === String) return 'text';
  // NodeBuffer, not the Buffer global: a browser has none, and naming it would throw
  if (type === Uint8Array || (type !== undefined && type === NodeBuffer)) return 'bytes';
  return undefined;
}
