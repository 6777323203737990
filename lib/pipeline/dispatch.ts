import type { HandlerTier, ResponseHandler } from '../config/handlers.js';
import { HttpException } from '../core/errors.js';
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

const REASONS: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  407: 'Proxy Authentication Required',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  418: "I'm a Teapot",
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  505: 'HTTP Version Not Supported',
  507: 'Insufficient Storage',
  508: 'Loop Detected',
  511: 'Network Authentication Required',
};

/** The server's reason phrase; the standard one when it sent none (HTTP/2-style empty reasons). */
function reasonOf(fromServer: FromServer): string {
  return fromServer.message || REASONS[fromServer.statusCode] || `HTTP ${fromServer.statusCode}`;
}
