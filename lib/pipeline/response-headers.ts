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
    const values = this.getAll(name);
    return values.length === 0 ? null : values.join(', ');
  }

  /** Every value of `name`, in order. */
  getAll(name: string): string[] {
    const lower = name.toLowerCase();
    const values: string[] = [];
    for (const [key, value] of this.#pairs) if (key.toLowerCase() === lower) values.push(value);
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
