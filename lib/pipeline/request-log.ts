import type { WireRequest, WireResponse } from '../model/backend.js';
import { NetworkError, TimeoutError } from '../core/errors.js';
import { firstHeader } from '../model/response-headers.js';
import type { Send, WireCall } from './plan.js';
import { toTransportError } from '../model/transport-error.js';
import { redactUrl } from '../core/redact.js';
import type { LogLine } from '../config/logger.js';

/**
 * The logging stage: with `execution.logger` set, a line when the request goes out and one when
 * its response headers arrive (or it fails): method, URL, status, time, bytes. Every wire
 * exchange gets its pair — each redirect hop, retry and auth challenge. Headers are never
 * logged, and the URL's credentials and credential-like query values are redacted.
 */
export function logging(next: Send): Send {
  return function loggedSend(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    const log = call.plan.execution.logger;
    return log ? logged(next, log, wire, call) : next(wire, call);
  };
}

async function logged(next: Send, log: LogLine, wire: WireRequest, call: WireCall): Promise<WireResponse> {
  const url = redactUrl(wire.url);
  log(`→ ${wire.method} ${url}${wire.proxy ? ` via ${wire.proxy.shown}` : ''}${requestSize(wire)}`);
  const started = performance.now();
  const elapsed = () => `${(performance.now() - started).toFixed(1)} ms`;
  let response;
  try {
    response = await next(wire, call);
  } catch (error) {
    log(`✗ ${wire.method} ${url} ${elapsed()} ${failure(error, wire.url)}`);
    throw error;
  }
  const length = firstHeader(response.headers, 'content-length');
  log(`← ${response.statusCode} ${wire.method} ${url} ${elapsed()} ${length === undefined ? 'length unknown' : `${length} B`}`);
  return response;
}

function requestSize(wire: WireRequest): string {
  if (wire.body === undefined) return '';
  return wire.body.length === undefined ? ' (body streamed, length unknown)' : ` (body ${wire.body.length} B)`;
}

/** The error's class and kind only: messages may quote URLs and server text. */
function failure(error: unknown, url: string): string {
  const typed = toTransportError(error, url);
  if (typed instanceof NetworkError) return `${typed.name} (${typed.reason})`;
  if (typed instanceof TimeoutError) return `${typed.name} (${typed.phase})`;
  return typed.name;
}

/**
 * The sink `DEBUG` asks for: lines to stderr, prefixed `httpbuilder`, when `DEBUG` names
 * `httpbuilder` (comma- or space-separated, `*` wildcards, `-name` excludes — as the `debug` package reads it).
 *
 * @example
 * DEBUG=httpbuilder node app.js
 */
export function loggerFromEnvironment(debug: string | undefined): LogLine | undefined {
  if (debug === undefined || !enables(debug, 'httpbuilder')) return undefined;
  return (line) => process.stderr.write(`httpbuilder ${line}\n`);
}

function enables(list: string, name: string): boolean {
  const patterns = list.split(/[\s,]+/).filter((p) => p !== '');
  const matches = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`).test(name);
  if (patterns.some((p) => p.startsWith('-') && matches(p.slice(1)))) return false;
  return patterns.some((p) => !p.startsWith('-') && matches(p));
}
