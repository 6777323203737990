import { ConfigError } from '../core/errors.js';
import { isThenable } from '../core/maybe-promise.js';

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
