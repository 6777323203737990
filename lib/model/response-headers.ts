/** Every value of header `name` (lower case) among raw `pairs`, in order: for stages that look at one or two headers of a wire response. */
export function headerValues(pairs: ReadonlyArray<readonly [string, string]>, name: string): string[] {
  const values: string[] = [];
  for (const [key, value] of pairs) if (sameName(key, name)) values.push(value);
  return values;
}

/** The first value of header `name` (lower case) among raw `pairs`, or `undefined`. */
export function firstHeader(pairs: ReadonlyArray<readonly [string, string]>, name: string): string | undefined {
  for (const [key, value] of pairs) if (sameName(key, name)) return value;
  return undefined;
}

/**
 * Response headers as received: case-insensitive lookup, every value kept, iterable in order.
 *
 * @example
 * fromServer.headers.get('content-type');   // 'application/json'
 * fromServer.headers.getAll('set-cookie');  // ['a=1', 'b=2']
 * for (const [name, value] of fromServer.headers) console.log(name, value);
 */
export class ResponseHeaders implements Iterable<readonly [string, string]> {
  readonly #pairs: ReadonlyArray<readonly [string, string]>;

  constructor(pairs: ReadonlyArray<readonly [string, string]>) {
    this.#pairs = pairs;
  }

  /** Every value of `name` joined by `, `, or `null` when absent. */
  get(name: string): string | null {
    // the usual answer (one value, or none) without an array: a response is asked a few times per request
    const lower = name.toLowerCase();
    const pairs = this.#pairs;
    for (let i = 0; i < pairs.length; i++) {
      if (!sameName(pairs[i][0], lower)) continue;
      for (let j = i + 1; j < pairs.length; j++) if (sameName(pairs[j][0], lower)) return this.#lookup(lower).join(', ');
      return pairs[i][1];
    }
    return null;
  }

  /** Every value of `name`, in order. */
  getAll(name: string): string[] {
    return this.#lookup(name.toLowerCase());
  }

  // a scan, no index: a response is asked for a handful of headers (cheaper than building a map per response)
  #lookup(lower: string): string[] {
    const values: string[] = [];
    for (const [key, value] of this.#pairs) if (sameName(key, lower)) values.push(value);
    return values;
  }

  /** Whether the response has the header. */
  has(name: string): boolean {
    return this.get(name) !== null;
  }

  [Symbol.iterator](): Iterator<readonly [string, string]> {
    return this.#pairs[Symbol.iterator]();
  }

  /** Plain object (names lower case, repeated values joined), for logs and JSON. */
  toJSON(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [key] of this.#pairs) out[key.toLowerCase()] ??= this.get(key) ?? '';
    return out;
  }
}

/** Whether header name `key` (any case) is `lower`; names of another length are skipped without lower-casing them. */
function sameName(key: string, lower: string): boolean {
  return key.length === lower.length && (key === lower || key.toLowerCase() === lower);
}
