/**
 * What `Stream.lines(c)`, `Stream.ndjson(c, Type)` and `Stream.events(c)` return: a block that
 * returns it types the call's result as `AsyncIterable<T>`.
 *
 * @example
 * const lines = await http.get((c) => Stream.lines(c)); // AsyncIterable<string>
 */
export class StreamOf<T> {
  /** The type of the items, for the type checker only: never set. */
  declare readonly itemType?: T;
  // a private field makes the type nominal: only what the stream module made is one
  // eslint-disable-next-line no-unused-private-class-members -- read by the type checker, not the code
  readonly #brand = true;

  /** @internal */
  constructor() {
    Object.freeze(this);
  }
}
