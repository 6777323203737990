/** Every value of header `name` (lower case) among raw `pairs`, in order: for stages that look at one or two headers of a wire response. */
export function headerValues(pairs: ReadonlyArray<readonly [string, string]>, name: string): string[] {
  return pairs.filter(([key]) => key.toLowerCase() === name).map(([, value]) => value);
}

/** The first value of header `name` (lower case) among raw `pairs`, or `undefined`. */
export function firstHeader(pairs: ReadonlyArray<readonly [string, string]>, name: string): string | undefined {
  return pairs.find(([key]) => key.length === name.length && key.toLowerCase() === name)?.[1];
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
    const values = this.#lookup(name);
    if (values === undefined) return null;
    return values.length === 1 ? values[0] : values.join(', ');
  }

  /** Every value of `name`, in order. */
  getAll(name: string): string[] {
    return [...(this.#lookup(name) ?? [])];
  }

  // a scan, no index: a response is asked for a handful of headers, and names of another
  // length are skipped without lower-casing them (cheaper than building a map per response)
  #lookup(name: string): string[] | undefined {
    const lower = name.toLowerCase();
    let values: string[] | undefined;
    for (const [key, value] of this.#pairs) {
      if (key.length === lower.length && (key === lower || key.toLowerCase() === lower)) (values ??= []).push(value);
    }
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
