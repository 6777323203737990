import type { Timings } from '../core/timings.js';
import type { ResponseHeaders } from '../model/response-headers.js';
import type { ResultOf, VerbType } from './result-type.js';

/**
 * What a verb called with `withResponse(Type)` resolves to: the status, the reason phrase, the
 * headers and the body converted to `Type` (what a handler returned, when one ran).
 */
export interface WithResponse<B> {
  readonly statusCode: number;
  readonly message: string;
  readonly headers: ResponseHeaders;
  readonly body: B;
  /**
   * When each step of the attempt that got the response happened (`fromServer.timings`): always
   * there on a result the library made; optional so an exception handler can return a result of its own.
   */
  readonly timings?: Timings;
}

/** The result type that {@link withResponse} makes: `Type` (or none), and the response around it. */
export class ResponseOf<T extends VerbType | undefined = undefined> {
  // a private field makes the type nominal: only what withResponse() made is one
  // eslint-disable-next-line no-unused-private-class-members -- read by the type checker, not the code
  readonly #brand = true;

  /** @internal */
  constructor(readonly type: T) {
    Object.freeze(this);
  }
}

/**
 * Wraps a result type so the call resolves to `{ statusCode, message, headers, body }`, `body`
 * converted to `Type` (the parsed body when no `Type` is given). Handlers run as usual: what
 * a handler returns becomes `body` (so it must be a `Type`; `withResponse(nullable(Type))` lets
 * it be `null`), and what an exception handler returns is the whole result.
 *
 * @example
 * const { statusCode, headers, body } = await http.get(withResponse(User), (c) => { c.request.uri.path = '/users/42'; });
 * body.name; // a User
 * headers.get('etag');
 */
export function withResponse<T extends VerbType | undefined = undefined>(type?: T): ResponseOf<T> {
  return new ResponseOf(type as T);
}

/** The body type of `withResponse(T)`: `ResultOf<T>` (`T | null` for `nullable(T)`), or `unknown` without a type. */
export type BodyOf<T> = T extends VerbType ? ResultOf<T> : unknown;
