import type { FromServer } from '../model/from-server.js';

/**
 * Handles a response: returns the result (or a promise of it). Also called with `this` = fromServer.
 * `R` is what it may return: anything in a block without a result type; in the block of
 * `verb(Type, block)` a value of that type, so the call's type cannot lie (see `HttpConfig`).
 *
 * @example
 * c.response.success((fromServer, body) => `${fromServer.statusCode}: ${String(body)}`);
 * c.response.failure(function (this: FromServer) { return this.statusCode; });
 */
export type ResponseHandler<R = unknown> = (this: FromServer, fromServer: FromServer, body: unknown) => R | PromiseLike<R>;

/**
 * Receives any error of the exchange; what it returns becomes the result, what it throws propagates.
 * `R` is what it may return, as for {@link ResponseHandler}.
 */
export type ExceptionHandler<R = unknown> = (error: unknown) => R | PromiseLike<R>;

/** The handlers of one level (request or client). */
export interface HandlerTier {
  readonly when: ReadonlyMap<number, ResponseHandler>;
  readonly success: ResponseHandler | undefined;
  readonly failure: ResponseHandler | undefined;
  readonly exception: ExceptionHandler | undefined;
}

export const NO_HANDLERS: HandlerTier = Object.freeze({
  when: new Map<number, ResponseHandler>(),
  success: undefined,
  failure: undefined,
  exception: undefined,
});
