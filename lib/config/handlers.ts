import type { FromServer } from '../model/from-server.js';

/**
 * Handles a response: returns the result (or a promise of it). Also called with `this` = fromServer.
 *
 * @example
 * c.response.success((fromServer, body) => `${fromServer.statusCode}: ${String(body)}`);
 * c.response.failure(function (this: FromServer) { return this.statusCode; });
 */
export type ResponseHandler = (this: FromServer, fromServer: FromServer, body: unknown) => unknown;

/** Receives any error of the exchange; what it returns becomes the result, what it throws propagates. */
export type ExceptionHandler = (error: unknown) => unknown;

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
