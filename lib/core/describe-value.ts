/**
 * What a value is, for an error message: `null`, `undefined`, `an array`, `an object`,
 * `an instance of Map`, `the function parse`, `an anonymous function`, `a symbol`, `a number`.
 * Nothing of the value's content is shown unless `preview` is asked for (a header value or a
 * body may hold a secret); with it, a string, number, boolean or bigint shows its start:
 * `a number (42)`, `a string ("abc")`.
 *
 * @example
 * throw new ConfigError(`request.headers must be a plain object, not ${describeValue(headers)}`);
 */
export function describeValue(value: unknown, preview = false): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return value.name ? `the function ${value.name}` : 'an anonymous function';
  if (typeof value === 'object') {
    const name: unknown = (value as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== '' && name !== 'Object' ? `an instance of ${name}` : 'an object';
  }
  // JSON for a string (quoted, control characters escaped), String() for the rest (JSON has no bigint)
  const shown = !preview ? undefined : typeof value === 'string' ? JSON.stringify(value) : isPrintable(value) ? String(value) : undefined;
  if (shown === undefined) return `a ${typeof value}`;
  return `a ${typeof value} (${shown.length > 60 ? `${shown.slice(0, 57)}...` : shown})`;
}

function isPrintable(value: unknown): value is number | boolean | bigint {
  return typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint';
}

/**
 * A setting's bad value, for a `ConfigError`: a number or boolean as itself (`0`, `-1`, `1.5`,
 * `NaN`, `Infinity`, `true`: "not a number" would say the wrong thing about `0`), anything else
 * as {@link describeValue} shows it, without its content: a string never shows (a proxy URL set
 * in the wrong place holds a password), though an empty one says so.
 *
 * @example
 * throw new ConfigError(`client.connection.maxSockets must be at least 1, not ${describeSetting(0)}`); // "... not 0"
 * describeSetting('http://user:secret@proxy:3128'); // "a string"
 */
export function describeSetting(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === '' ? 'an empty string' : describeValue(value);
}
