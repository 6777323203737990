import { setOwn } from './own-property.js';

/** A `Content-Type` value split into its media type (lower case) and parameters. */
export interface MediaType {
  /** `type/subtype`, lower case, no parameters. */
  readonly type: string;
  /** Parameter names lower case; `charset` values lower case too. */
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Parses `text/plain; charset="ISO-8859-1"` into `{ type: 'text/plain', params: { charset: 'iso-8859-1' } }`
 * (frozen: the same answer is shared by every response with that header).
 */
export function parseMediaType(value: string): MediaType {
  // a response's Content-Type is parsed on every request, and servers send a handful of them
  return value.length > MAX_REMEMBERED_LENGTH ? parsed(value) : remembered(knownMediaTypes, value, parsed);
}

const MAX_REMEMBERED_LENGTH = 200;
const knownMediaTypes = new Map<string, MediaType>();

function parsed(value: string): MediaType {
  let at = value.indexOf(';');
  if (at < 0) at = value.length;
  const type = value.slice(0, at).trim().toLowerCase();
  const params: Record<string, string> = {};
  // one pass, `at` on a ';': a quoted-string value may hold ';' and '\' escapes (RFC 9110 §5.6.4,
  // `boundary="a;b"`), so parameters are not split on every ';'
  while (at < value.length) {
    let end = at + 1;
    while (end < value.length && value[end] !== ';' && value[end] !== '=') end++;
    if (value[end] !== '=') {
      at = end; // no '=': not a parameter
      continue;
    }
    const name = value
      .slice(at + 1, end)
      .trim()
      .toLowerCase();
    let start = end + 1;
    while (value[start] === ' ' || value[start] === '\t') start++;
    let paramValue: string | undefined;
    if (value[start] === '"') {
      paramValue = '';
      for (end = start + 1; end < value.length && value[end] !== '"'; end++) {
        if (value[end] === '\\' && end + 1 < value.length) end++;
        paramValue += value[end];
      }
    }
    // after a quoted-string, anything up to the next ';' is ignored
    const next = value.indexOf(';', paramValue === undefined ? start : end);
    at = next < 0 ? value.length : next;
    paramValue ??= value.slice(start, at).trim();
    // a `__proto__` parameter is kept as one (setOwn)
    setOwn(params, name, name === 'charset' ? paramValue.toLowerCase() : paramValue);
  }
  return Object.freeze({ type, params: Object.freeze(params) });
}

/**
 * The registry keys to try for a media type, most specific first:
 * `application/vnd.acme+json` → itself, `*\/*+json`, `application/*`, `*\/*`.
 */
export function lookupKeys(type: string): readonly string[] {
  return remembered(knownKeys, type, (known) => Object.freeze(keysOf(known)));
}

/** lookupKeys per media type, computed once: a lookup per response is on every request's path. */
const knownKeys = new Map<string, readonly string[]>();

const MAX_REMEMBERED = 256;

/** `make(key)`, computed once per key; a server inventing new media types must not grow `known` forever. */
function remembered<V>(known: Map<string, V>, key: string, make: (key: string) => V): V {
  let value = known.get(key);
  if (value === undefined) {
    value = make(key);
    if (known.size >= MAX_REMEMBERED) known.clear();
    known.set(key, value);
  }
  return value;
}

function keysOf(type: string): string[] {
  const keys = [type];
  const plus = type.lastIndexOf('+');
  if (plus > 0) keys.push(`*/*${type.slice(plus)}`);
  const slash = type.indexOf('/');
  if (slash > 0) keys.push(`${type.slice(0, slash)}/*`);
  keys.push('*/*');
  return keys;
}

/**
 * A {@link lookup} in a list of levels, else in `defaults`, remembered per list and type: every
 * request looks up its encoder and its response's parser, and the requests of a client that
 * register none of their own share the client's list. Each lookup made here remembers on its
 * own, so lists of encoders and of parsers can never answer for each other. Sound because no
 * level map changes once merged into a list (mergeSettings copies them).
 *
 * @example
 * const parserFor = rememberedLookup(DEFAULT_LEVEL);
 * parserFor(plan.parsers, 'application/json');
 */
export function rememberedLookup<V>(
  defaults: ReadonlyArray<ReadonlyMap<string, V>>,
): (levels: ReadonlyArray<ReadonlyMap<string, V>>, type: string) => V | undefined {
  const foundByLevels = new WeakMap<object, Map<string, V | undefined>>();
  return (levels, type) => {
    let found = foundByLevels.get(levels);
    if (found === undefined) foundByLevels.set(levels, (found = new Map<string, V | undefined>()));
    return remembered(found, type, (known) => lookup(levels, known) ?? lookup(defaults, known));
  };
}

/**
 * Finds the entry for `type` level by level (nearest first), each level by its most specific
 * key first: a request's `*\/*` parser beats a client's `application/json` one.
 */
export function lookup<V>(levels: ReadonlyArray<ReadonlyMap<string, V>>, type: string): V | undefined {
  const keys = lookupKeys(type);
  for (const level of levels) {
    for (const key of keys) {
      const found = level.get(key);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}
