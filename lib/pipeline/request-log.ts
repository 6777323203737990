import type { WireRequest, WireResponse } from '../model/backend.js';
import { runStageWork } from './deferred-stage.js';
import type { Send, WireCall } from './plan.js';
import type { LogLine } from '../config/logger.js';

/**
 * The logging stage: with `execution.logger` set, a line when the request goes out and one when
 * its response headers arrive (or it fails): method, URL, status, time, bytes. Every wire
 * exchange gets its pair — each redirect hop, retry and auth challenge. Headers are never
 * logged, and the URL's credentials and credential-like query values are redacted.
 */
export function logging(next: Send): Send {
  return function loggedSend(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    // what it writes (logged-exchange.ts) is loaded by the first call with a logger
    return call.plan.execution.logger ? runStageWork('logged', next, wire, call) : next(wire, call);
  };
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
