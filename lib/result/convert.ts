import { asBuffer, fromUtf8, NodeBuffer, utf8 } from '../core/bytes.js';
import { ResultTypeError } from '../core/errors.js';
import { describeValue } from '../core/describe-value.js';
import type { ClassType, Mapper, ResultType } from './result-type.js';
import { isStandardSchema, type StandardResult, type StandardSchemaV1 } from './standard-schema.js';
import '../content/shared-chunk.js'; // loads with the client's modules in one chunk

type Converter = (value: unknown) => unknown;

// the types here are those converted.ts's hasConverter() names

const CONVERTERS = new Map<unknown, Converter>([
  [String, toStringValue],
  [Number, toNumber],
  [Boolean, toBoolean],
  [Date, toDate],
  [Object, (value) => value],
  [Uint8Array, (value) => toBytes(value, 'Uint8Array')],
]);
// `Buffer` is a result type where the runtime has one (Node, Bun, Deno)
if (NodeBuffer) CONVERTERS.set(NodeBuffer, (value) => toBytes(value, 'Buffer'));

const FAIL = Symbol('cannot convert');

/**
 * Converts a handler's result to the requested type. `null`/`undefined` (no body) stay `null`.
 * A value that cannot be converted rejects with ResultTypeError naming both types.
 */
export function convertResult(value: unknown, type: ResultType | undefined, mapper?: Mapper): unknown {
  if (type === undefined) return value;
  if (value === null || value === undefined) return null;
  if (isStandardSchema(type)) return validate(value, type);
  const converter = CONVERTERS.get(type);
  if (!converter && mapper && !isInstance(value, type)) return mapper.read(value, type);
  const converted = converter ? converter(value) : toInstance(value, type);
  if (converted === FAIL) throw notConvertible(value, type);
  return converted;
}

function notConvertible(value: unknown, type: ResultType): ResultTypeError {
  return new ResultTypeError(`the result (${describeValue(value, true)}) cannot be converted to ${(type as { name?: string }).name ?? 'the result type'}`);
}

function toStringValue(value: unknown): unknown {
  if (typeof value === 'string') return value;
  if (ArrayBuffer.isView(value)) return fromUtf8(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return value.toISOString();
  return FAIL;
}

function toNumber(value: unknown): unknown {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') {
    const number = Number(value.trim());
    return Number.isNaN(number) ? FAIL : number;
  }
  return FAIL;
}

function toBoolean(value: unknown): unknown {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') {
    const text = value.trim().toLowerCase();
    if (text === 'true') return true;
    if (text === 'false') return false;
  }
  return FAIL;
}

function toDate(value: unknown): unknown {
  if (value instanceof Date) return value;
  if (typeof value === 'string' || typeof value === 'number') {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? FAIL : date;
  }
  return FAIL;
}

/** Bytes without a copy: a `Buffer` for the `Buffer` type, a plain `Uint8Array` (never a Buffer) for `Uint8Array`. */
function toBytes(value: unknown, target: 'Buffer' | 'Uint8Array'): unknown {
  let bytes: Uint8Array;
  if (value instanceof Uint8Array) bytes = value;
  else if (ArrayBuffer.isView(value)) bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  else if (typeof value === 'string') bytes = utf8(value);
  else return FAIL;
  if (target === 'Buffer') return asBuffer(bytes);
  return bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Builds an instance of a class as the result types do (the mapping module's default mapper):
 * the value itself if it is one already, `Type.fromJSON(value)` when that exists, else a plain
 * object copied onto the prototype. Anything else rejects with ResultTypeError naming both types.
 */
export function buildInstance(value: unknown, type: ClassType): unknown {
  const built = toInstance(value, type);
  if (built === FAIL) throw notConvertible(value, type);
  return built;
}

function isInstance(value: unknown, type: ClassType): boolean {
  return typeof value === 'object' && value !== null && Object.prototype.isPrototypeOf.call(type.prototype as object, value);
}

/** A class: the value itself if it is one already, `Type.fromJSON(value)` when that exists, else a plain object copied onto the prototype. */
function toInstance(value: unknown, type: ClassType): unknown {
  if (isInstance(value, type)) return value;
  if ('fromJSON' in type && typeof type.fromJSON === 'function') return type.fromJSON(value);
  if (typeof value !== 'object' || Array.isArray(value)) return FAIL;
  // own properties copied as such: Object.assign would run the `__proto__` setter of a JSON
  // key and hand back an object that is not a `type` at all
  return Object.defineProperties(Object.create(type.prototype as object) as object, Object.getOwnPropertyDescriptors(value));
}

function validate(value: unknown, schema: StandardSchemaV1): unknown {
  const result = schema['~standard'].validate(value);
  // bound, not an arrow made per call: docs/performance.md, "Arrows made per request"
  return result instanceof Promise ? result.then(validated.bind(undefined, schema)) : validated(schema, result);
}

function validated(schema: StandardSchemaV1, outcome: unknown): unknown {
  const vendor = String(schema['~standard'].vendor);
  // a schema of the caller's making may hand back anything: a wrong shape is named, not a TypeError
  const result = outcome as StandardResult<unknown> | null;
  const issues: unknown = typeof result === 'object' && result !== null ? result.issues : null;
  if (issues === null || (issues !== undefined && !Array.isArray(issues))) {
    throw new ResultTypeError(
      `the schema (${vendor}) returned ${describeValue(outcome)}${issues === null ? '' : ' whose issues are not a list'}, not a Standard Schema result`,
    );
  }
  if (issues === undefined) return (result as { value: unknown }).value;
  throw new ResultTypeError(`the result does not match the schema (${vendor}): ${(issues as unknown[]).map(issueText).join('; ')}`);
}

/** `path.to.field: message`; a segment is a key or `{ key }` (null and odd segments shown as text). */
function issueText(issue: unknown): string {
  const { message, path } = (issue ?? {}) as { message?: unknown; path?: unknown };
  const segments = Array.isArray(path) ? path.map((part: unknown) => String(typeof part === 'object' && part !== null && 'key' in part ? part.key : part)) : [];
  return segments.length > 0 ? `${segments.join('.')}: ${String(message)}` : String(message);
}
