/** A `Content-Type` value split into its media type (lower case) and parameters. */
export interface MediaType {
  /** `type/subtype`, lower case, no parameters. */
  readonly type: string;
  /** Parameter names lower case; `charset` values lower case too. */
  readonly params: Readonly<Record<string, string>>;
}

/** Parses `text/plain; charset="ISO-8859-1"` into `{ type: 'text/plain', params: { charset: 'iso-8859-1' } }`. */
export function parseMediaType(value: string): MediaType {
  const parts = value.split(';');
  const type = parts[0].trim().toLowerCase();
  const params: Record<string, string> = {};
  for (let i = 1; i < parts.length; i++) {
    const part = parts[i];
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const name = part.slice(0, eq).trim().toLowerCase();
    let paramValue = part.slice(eq + 1).trim();
    if (paramValue.startsWith('"') && paramValue.endsWith('"')) paramValue = paramValue.slice(1, -1);
    params[name] = name === 'charset' ? paramValue.toLowerCase() : paramValue;
  }
  return { type, params };
}

/**
 * The registry keys to try for a media type, most specific first:
 * `application/vnd.acme+json` → itself, `*\/*+json`, `application/*`, `*\/*`.
 */
export function lookupKeys(type: string): string[] {
  const keys = [type];
  const plus = type.lastIndexOf('+');
  if (plus > 0) keys.push(`*/*${type.slice(plus)}`);
  const slash = type.indexOf('/');
  if (slash > 0) keys.push(`${type.slice(0, slash)}/*`);
  keys.push('*/*');
  return keys;
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
