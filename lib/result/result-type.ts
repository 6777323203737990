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

/** Whether this type takes the body as text or bytes, skipping the content-type parser. */
export function rawBodyKind(type: ResultType | undefined): 'text' | 'bytes' | undefined {
  if (type === String) return 'text';
  if (type === Buffer || type === Uint8Array) return 'bytes';
  return undefined;
}
