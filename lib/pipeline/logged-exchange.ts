import type { WireRequest, WireResponse } from '../model/backend.js';
import { NetworkError, TimeoutError } from '../core/errors.js';
import { firstHeader } from '../model/response-headers.js';
import type { Send, WireCall } from './plan.js';
import { toTransportError } from '../model/transport-error.js';
import { redactUrl } from '../core/redact.js';

// The logging stage's work (request-log.ts holds the stage): loaded at the first exchange of a
// call with `execution.logger` (deferred-stage.ts), so that an application that logs nothing never loads it.

/** One wire exchange with its two lines: when the request goes out, and when its head arrives or it fails. */
export async function logged(next: Send, wire: WireRequest, call: WireCall): Promise<WireResponse> {
  const log = call.plan.execution.logger!;
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
