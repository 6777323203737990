import type { WireRequest } from '../backends/backend.js';
import { ConfigError, NetworkError, TimeoutError } from '../errors.js';
import { firstHeader } from './response-headers.js';
import type { Send } from './retry.js';
import { toTransportError } from './transport-error.js';
import { isThenable } from '../thenable.js';
import { redactUrl } from '../config/uri-config.js';

/**
 * Where debug lines go: a function taking one line, or a logger object with a `debug` method
 * (`console`, pino, winston, ...).
 *
 * @example
 * c.execution.logger = (line) => process.stderr.write(`${line}\n`);
 * c.execution.logger = pinoInstance;   // lines go to pino.debug
 */
export type Logger = ((line: string) => void) | { debug(message: string): unknown };

/** A resolved sink: one call per line. */
export type LogLine = (line: string) => void;

/**
 * Wraps one wire round trip so it logs a line when the request goes out and one when its
 * response headers arrive (or it fails): method, URL, status, time, bytes. Every wire exchange
 * gets its pair — each redirect hop, retry and auth challenge. Headers are never logged, and the
 * URL's credentials and credential-like query values are redacted.
 */
export function loggedSend(send: Send, log: LogLine): Send {
  return async (wire) => {
    const url = redactUrl(wire.url);
    log(`→ ${wire.method} ${url}${requestSize(wire)}`);
    const started = performance.now();
    const elapsed = () => `${(performance.now() - started).toFixed(1)} ms`;
    let response;
    try {
      response = await send(wire);
    } catch (error) {
      log(`✗ ${wire.method} ${url} ${elapsed()} ${failure(error, wire.url)}`);
      throw error;
    }
    const length = firstHeader(response.headers, 'content-length');
    log(`← ${response.status} ${wire.method} ${url} ${elapsed()} ${length === undefined ? 'length unknown' : `${length} B`}`);
    return response;
  };
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
 * `execution.logger` as a sink; `false` turns logging off (also the `DEBUG` one). The sink never
 * throws: a logger's failure (thrown, or a rejected promise from an async one) must not fail,
 * retry or crash a request — it is reported once as a process warning instead.
 */
export function toLogLine(logger: Logger | false): LogLine | undefined {
  if (logger === false) return undefined;
  if (typeof logger === 'function') return safely((line) => logger(line));
  if (typeof logger === 'object' && logger !== null && typeof logger.debug === 'function') return safely((line) => logger.debug(line));
  throw new ConfigError('execution.logger must be a function (line) => void, an object with a debug(line) method, or false');
}

let warned = false;

function safely(write: (line: string) => unknown): LogLine {
  const report = (error: unknown) => {
    if (warned) return;
    warned = true;
    process.emitWarning(`execution.logger failed, its lines are dropped: ${(error as Error | undefined)?.message ?? String(error)}`, 'HttpBuilderWarning');
  };
  return (line) => {
    try {
      const returned = write(line);
      if (isThenable(returned)) Promise.resolve(returned).catch(report);
    } catch (error) {
      report(error);
    }
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
