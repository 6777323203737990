import fc from 'fast-check';
import { Readable } from 'node:stream';
import type { WireResponse } from '../../lib/model/backend.js';
import { HttpBuilderError } from '../../lib/core/errors.js';
import { FromServer } from '../../lib/model/from-server.js';

/**
 * Shared pieces of the property tests in spec/fuzz: a fixed seed (the same inputs on every run,
 * so a failure reproduces), hostile string builders and the prototype-pollution check (the ReDoS
 * check is linear-time.ts). `FUZZ_SEED=<n> npm test -- spec/fuzz` explores other inputs.
 */
export const SEED = process.env.FUZZ_SEED === undefined ? 0x6_2024 : Number(process.env.FUZZ_SEED);

/** fast-check parameters: fixed seed, `numRuns` per property. */
export function runs(numRuns: number): fc.Parameters<unknown> {
  return { seed: SEED, numRuns };
}

/** Keys that have broken parsers that write `object[key] = value`. */
export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'] as const;

/** Any UTF-16 code unit: lone surrogates, NUL, CR, LF, DEL, Latin-1 and the rest. */
export const anyCodeUnit: fc.Arbitrary<string> = fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code));

/** RFC 9110 tchar. */
export const TCHARS = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".split('');

/** A token (RFC 9110): one or more tchars, or one of the keys that break naive parsers. */
export function token(maxLength = 10): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.string({ unit: fc.constantFrom(...TCHARS), minLength: 1, maxLength }) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTO_KEYS) },
  );
}

const COMMON = [...PROTO_KEYS, ' ', '\t', '"', '\\', '=', ',', ';', '%', '&', 'a', 'Z', '0', '\r\n', '\u0000', 'é', '😀'];

/**
 * One unit of hostile text: three times in four a fragment (of `fragments` or the common
 * syntax characters), else any UTF-16 code unit. One integer per unit keeps generation cheap.
 */
export function hostileUnit(fragments: readonly string[]): fc.Arbitrary<string> {
  const table = [...fragments, ...COMMON];
  return fc.integer({ min: 0, max: 0x3ffff }).map((n) => (n >> 16 === 3 ? String.fromCharCode(n & 0xffff) : table[n % table.length]));
}

/**
 * Text a hostile server or caller could send: mostly fragments that mean something to the
 * parser under test, plus any code unit at all (lone surrogates, NUL, CR, LF); up to a few KB.
 */
export function hostileText(fragments: readonly string[], maxUnits = 1500): fc.Arbitrary<string> {
  return fc.string({ unit: hostileUnit(fragments), maxLength: maxUnits, size: 'large' });
}

/** Fails unless `error` is one of the library's own typed errors. */
export function expectTyped(error: unknown): void {
  if (!(error instanceof HttpBuilderError)) throw new Error(`expected an HttpBuilderError, got ${String(error)}`, { cause: error });
}

// what the built-in prototypes look like before any test runs
const WATCHED = [Object.prototype, Array.prototype, Function.prototype, String.prototype] as const;
const SNAPSHOT = WATCHED.map((proto) => describeOwn(proto));

function describeOwn(target: object): Map<PropertyKey, PropertyDescriptor | undefined> {
  return new Map(Reflect.ownKeys(target).map((key) => [key, Object.getOwnPropertyDescriptor(target, key)]));
}

/** Fails when a built-in prototype gained, lost or changed a property, or `{}` inherits anything new. */
export function expectPrototypesUntouched(): void {
  // plain checks, no expect(): this runs once per generated input
  WATCHED.forEach((proto, i) => {
    const before = SNAPSHOT[i];
    const keys = Reflect.ownKeys(proto);
    if (keys.length !== before.size) throw new Error(`a built-in prototype now has ${keys.length} own properties, not ${before.size}`);
    for (const key of keys) {
      const now = Object.getOwnPropertyDescriptor(proto, key);
      const old = before.get(key);
      if (!old || !Object.is(now?.value, old.value) || now?.get !== old.get || now?.set !== old.set)
        throw new Error(`a built-in prototype's ${String(key)} changed`);
    }
  });
  if (Object.getPrototypeOf(Object.prototype) !== null) throw new Error('Object.prototype got a prototype');
}

/** `{ key: value }` with every key an own data property, `__proto__` included (what JSON.parse builds). */
export function own<V>(entries: Iterable<readonly [string, V]>): Record<string, V> {
  return Object.fromEntries(entries);
}

/** A 200 response with this Content-Type and body, as a backend hands it to the pipeline. */
export function response(contentType: string, body: Uint8Array | string): FromServer {
  const wire: WireResponse = {
    statusCode: 200,
    message: 'OK',
    headers: [['Content-Type', contentType]],
    body: Readable.from([typeof body === 'string' ? Buffer.from(body) : body]),
    decoded: false,
    discard: () => undefined,
  };
  return new FromServer(wire, 'GET', 'http://127.0.0.1/fuzz');
}

/** `JSON.parse(text)` typed as what the caller assigns it to (a config object with a `__proto__` key, say). */
export function fromJson<T>(text: string): T {
  return JSON.parse(text) as T;
}
