import type { HandlerTier, ResponseHandler } from '../config/handlers.js';
import { HttpException } from '../core/errors.js';
import { standardReason } from '../core/reason-phrase.js';
import type { FromServer } from '../model/from-server.js';

/**
 * Picks the handler for a response: at each level (request, then client) `when(status)`, then
 * `success` (< 400) or `failure` (>= 400); then the default.
 */
export function dispatch(fromServer: FromServer, body: unknown, tiers: readonly HandlerTier[], method: string, cause?: Error): unknown {
  const handler = pick(fromServer.statusCode, tiers);
  if (handler) return handler.call(fromServer, fromServer, body);
  if (fromServer.statusCode < 400) return body;
  throw new HttpException(fromServer.statusCode, reasonOf(fromServer), fromServer.headers, body, { method, url: fromServer.uri }, { cause });
}

function pick(status: number, tiers: readonly HandlerTier[]): ResponseHandler | undefined {
  for (const tier of tiers) {
    const handler = tier.when.get(status) ?? (status < 400 ? tier.success : tier.failure);
    if (handler) return handler;
  }
  return undefined;
}

/** The server's reason phrase; the standard one when it sent none. */
function reasonOf(fromServer: FromServer): string {
  return fromServer.message || standardReason(fromServer.statusCode) || `HTTP ${fromServer.statusCode}`;
}
