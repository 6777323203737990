import { ConfigError } from '../core/errors.js';
import { describeValue } from '../core/describe-value.js';
import { isRecord } from '../core/scalar.js';
import type { FromServer } from '../model/from-server.js';
import type { RequestConfig } from './request-config.js';
import { checkFunction } from './callbacks.js';

/**
 * A block that changes the request of the previous page into the next one (it runs on the same
 * request configuration again): typically a cursor, `c.request.uri.query.cursor = body.next`.
 */
export type NextPageBlock = (config: { readonly request: RequestConfig }) => unknown;

/**
 * How `http.paginate()` walks pages: `c.response.paginate({...})`, at client or request level
 * (the nearest level wins, option by option).
 *
 * @example
 * c.response.paginate({
 *   items: (body) => (body as { data: unknown[] }).data,
 *   next: (fromServer, body) => {
 *     const cursor = (body as { next_cursor?: string }).next_cursor;
 *     return cursor ? (c) => { c.request.uri.query.cursor = cursor; } : undefined;
 *   },
 *   maxPages: 10,
 * });
 */
export interface PaginationOptions {
  /** The page's items, from its parsed body (default: the body itself, which must then be an array; no body is no items). */
  readonly items?: (body: unknown, fromServer: FromServer) => readonly unknown[] | Promise<readonly unknown[]>;
  /**
   * The next page: a URL (resolved against the page's URL), a {@link NextPageBlock}, or
   * `undefined` to stop. Default: the `Link` header's `rel="next"` target.
   */
  readonly next?: (fromServer: FromServer, body: unknown) => string | NextPageBlock | undefined | Promise<string | NextPageBlock | undefined>;
  /** At most this many pages are requested (default 10,000; `Infinity`: no cap); the walk ends quietly after the last. */
  readonly maxPages?: number;
  /** At most this many items are yielded (no page is requested once they are); default and `Infinity`: no cap. */
  readonly maxItems?: number;
}

/** `options` checked when registered, so a typo fails before anything is sent. */
export function checkPagination(options: unknown): PaginationOptions {
  if (!isRecord(options)) throw new ConfigError(`response.paginate() needs an options object, not ${describeValue(options)}`);
  for (const key of Object.keys(options)) {
    if (!OPTION_NAMES.includes(key)) throw new ConfigError(`response.paginate(): '${key}' is no option (items, next, maxPages, maxItems)`);
  }
  const { items, next, maxPages, maxItems } = options as PaginationOptions;
  if (items !== undefined) checkFunction(items, 'response.paginate({ items })');
  if (next !== undefined) checkFunction(next, 'response.paginate({ next })');
  checkCount(maxPages, 'maxPages');
  checkCount(maxItems, 'maxItems');
  return Object.freeze({ ...options });
}

const OPTION_NAMES = ['items', 'next', 'maxPages', 'maxItems'];

function checkCount(value: unknown, name: string): void {
  if (value === undefined) return;
  if (value === Infinity) return; // no cap
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new ConfigError(`response.paginate({ ${name} }) must be a whole number of at least 1 (or Infinity), not ${describeValue(value, true)}`);
  }
}

/** `layer`'s options over `base`'s, option by option (a request's `maxPages` keeps the client's `items`). */
export function mergePagination(base: PaginationOptions | undefined, layer: PaginationOptions | undefined): PaginationOptions | undefined {
  if (layer === undefined) return base;
  return base === undefined ? layer : Object.freeze({ ...base, ...layer });
}
