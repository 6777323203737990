import { ConfigError } from '../core/errors.js';
import type { Parser } from '../content/parsers.js';
import type { ExceptionHandler, HandlerTier, ResponseHandler } from './handlers.js';
import { NO_HANDLERS } from './handlers.js';
import { checkFunction } from './callbacks.js';
import { stringList } from '../core/scalar.js';
import { checkPagination, type PaginationOptions } from './pagination.js';

/**
 * How to handle the response: `c.response` inside a configuration block.
 *
 * Dispatch: `when(status)`, then `success`/`failure` at request level; the same at client
 * level; then the default (success returns the parsed body, failure throws `HttpException`).
 *
 * `R` is what the response handlers may return and `E` what the exception handler may: anything
 * in a client block or a block without a result type; in the block of `verb(Type, block)`, a
 * value of that type (see `HttpConfig`), so `get(User, (c) => c.response.when(404, () => null))`
 * does not compile (`get(nullable(User), ...)` does, typed `User | null`).
 *
 * @example
 * c.response.when(404, () => null);
 * c.response.success((fromServer, body) => body);
 * c.response.parser('text/date', async (fromServer) => new Date(await fromServer.text()));
 */
// R and E are for the type checker only: what runs and what is stored is the same for every R and E
export class ResponseConfig<R = unknown, E = R> {
  #when: Map<number, ResponseHandler> | undefined;
  #success: ResponseHandler | undefined;
  #failure: ResponseHandler | undefined;
  #exception: ExceptionHandler | undefined;
  /** @internal */
  parsers: Map<string, Parser> | undefined;
  /** @internal */
  pagination: PaginationOptions | undefined;

  /** Runs for status < 400. */
  success(handler: ResponseHandler<R>): void {
    this.#success = checkFunction(handler, 'response.success()');
  }

  /** Runs for status >= 400. */
  failure(handler: ResponseHandler<R>): void {
    this.#failure = checkFunction(handler, 'response.failure()');
  }

  /** Runs for exactly that status (number or numeric string); `'success'`/`'failure'` are the two above. */
  when(code: number | string, handler: ResponseHandler<R>): void {
    if (code === 'success') return this.success(handler);
    if (code === 'failure') return this.failure(handler);
    const status = typeof code === 'number' ? code : /^\d{3}$/.test(code) ? Number(code) : NaN;
    if (!Number.isInteger(status) || status < 100 || status > 999) {
      throw new ConfigError(`response.when(): '${String(code)}' is not a status code, 'success' or 'failure'`);
    }
    (this.#when ??= new Map()).set(status, checkFunction(handler, `response.when(${status})`));
  }

  /** Receives any error of the exchange; its return value becomes the result. Re-throw to propagate. */
  exception(handler: ExceptionHandler<E>): void {
    this.#exception = checkFunction(handler, 'response.exception()');
  }

  /** Registers a parser for one or more content types. */
  parser(contentType: string | readonly string[], parse: Parser): void {
    checkFunction(parse, 'response.parser()');
    this.parsers ??= new Map();
    for (const type of stringList(contentType, 'response.parser(): the content type')) this.parsers.set(type.toLowerCase(), parse);
  }

  /**
   * How `http.paginate()` finds each page's items and the next page (see {@link PaginationOptions}).
   *
   * @example
   * c.response.paginate({ items: (body) => (body as { results: unknown[] }).results, maxPages: 5 });
   */
  paginate(options: PaginationOptions): void {
    this.pagination = checkPagination(options);
  }

  /** @internal */
  tier(): HandlerTier {
    if (!this.#when && !this.#success && !this.#failure && !this.#exception) return NO_HANDLERS;
    return { when: this.#when ?? new Map(), success: this.#success, failure: this.#failure, exception: this.#exception };
  }
}
