import type { HttpConfig } from '../config/http-config.js';
import type { PaginationOptions } from '../config/pagination.js';
import { redactUrl } from '../core/redact.js';
import { UsageError } from './failure.js';
import { parsePointer, pointAt, type JsonPointer } from './json-pointer.js';

/** Where `--paginate` finds a page's items and the next page's cursor. */
export interface CliPageShape {
  /** `--items <json-pointer>`: the page's array of items (else the page itself). */
  readonly items: JsonPointer | undefined;
  /** `--next <json-pointer>`: the next page's cursor (else the `Link: rel="next"` header). */
  readonly next: JsonPointer | undefined;
  /** `--cursor-param <name>`: the query parameter that sends the cursor; `cursor` unless given. */
  readonly cursorParam: string;
}

/** The pagination options, spread into args.ts's OPTIONS. */
export const PAGE_OPTIONS = {
  items: { type: 'string', multiple: true },
  next: { type: 'string', multiple: true },
  'cursor-param': { type: 'string', multiple: true },
} as const;

/** What parseArgs gave for {@link PAGE_OPTIONS}. */
export interface PageValues {
  readonly items?: string[];
  readonly next?: string[];
  readonly 'cursor-param'?: string[];
}

/**
 * Reads `--items`, `--next` and `--cursor-param` (only with `--paginate`; `--cursor-param` only
 * with `--next`).
 *
 * @throws {UsageError} naming the flag.
 * @example
 * pageShape({ items: ['/items'], next: ['/next_cursor'] }, true);
 * // { items: { text: '/items', tokens: ['items'] }, next: { text: '/next_cursor', ... }, cursorParam: 'cursor' }
 */
export function pageShape(values: PageValues, paginate: boolean): CliPageShape {
  const given = (['items', 'next', 'cursor-param'] as const).filter((name) => values[name] !== undefined);
  for (const name of given) if (values[name]!.length > 1) throw new UsageError(`--${name} given more than once`);
  if (!paginate && given.length > 0) throw new UsageError(`--${given[0]} says how --paginate reads a page: use it with --paginate`);
  const cursorParam = values['cursor-param']?.[0];
  if (cursorParam !== undefined && values.next === undefined)
    throw new UsageError('--cursor-param names the query parameter of --next: give --next <json-pointer>');
  if (cursorParam === '') throw new UsageError('--cursor-param needs a parameter name');
  return {
    items: values.items === undefined ? undefined : parsePointer(values.items[0], '--items'),
    next: values.next === undefined ? undefined : parsePointer(values.next[0], '--next'),
    cursorParam: cursorParam ?? 'cursor',
  };
}

/**
 * Tells `paginate()` where the items and the cursor are (`c.response.paginate`). A pointer that
 * finds no array (`--items`) or no cursor but a string, a number or null (`--next`) is bad
 * input: a {@link UsageError} naming the flag and the page.
 */
export function applyPageShape(c: HttpConfig, shape: CliPageShape): void {
  const { items, next, cursorParam } = shape;
  const options: { -readonly [K in keyof PaginationOptions]: PaginationOptions[K] } = {};
  if (items !== undefined) {
    options.items = (body, fromServer) => {
      const found = pointAt(body, items);
      if (!Array.isArray(found))
        throw new UsageError(`--items ${items.text}: the page ${redactUrl(fromServer.uri)} has ${described(found)} there, not an array`);
      return found as unknown[];
    };
  }
  if (next !== undefined) {
    options.next = (fromServer, body) => {
      const cursor = pointAt(body, next);
      // no cursor (null, missing, '') is the last page, as cursor APIs mark it
      if (cursor === undefined || cursor === null || cursor === '') return undefined;
      if (typeof cursor !== 'string' && typeof cursor !== 'number')
        throw new UsageError(`--next ${next.text}: the page ${redactUrl(fromServer.uri)} has ${described(cursor)} there, not a cursor (a string or a number)`);
      return (page) => void (page.request.uri.query[cursorParam] = String(cursor));
    };
  }
  if (items !== undefined || next !== undefined) c.response.paginate(options);
}

function described(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
