import { HttpConfig } from './config/http-config.js';
import { mergePagination, type PaginationOptions } from './config/pagination.js';
import { linkTo } from './content/link-header.js';
import { describeValue } from './core/describe-value.js';
import { ConfigError, ResultTypeError } from './core/errors.js';
import { urlForMessage } from './core/redact.js';
import type { FromServer } from './model/from-server.js';
import type { RequestRecord } from './model/request-record.js';
import { PageTrail } from './page-trail.js';
import { convertResult } from './result/convert.js';
import { MAPPER_ID, type Mapper } from './result/result-type.js';
import type { VerbArguments } from './verb-arguments.js';
import './pipeline/shared-chunk.js'; // loads with the client's modules in one chunk

/** The response a page's exchange ended with, and its request (for the mapper of its content type). */
export interface PageResponse {
  readonly fromServer: FromServer;
  readonly record: RequestRecord;
}

/** What the walk is told of each page's exchange. */
export interface PageWatch {
  /** The page's request, as the configuration makes it (before interceptors), just before it is sent: a throw stops it unsent. */
  readonly sending: (record: RequestRecord) => void;
  /** The response the page's exchange ended with (after redirects), once its head is in. */
  readonly received: (fromServer: FromServer, record: RequestRecord) => void;
}

/**
 * Sends the request `layer` configures as one page through the client's pipeline: resolves to
 * the page's body (after the handlers), telling `watch` of its request and response.
 */
export type PageSender = (layer: HttpConfig, watch: PageWatch) => Promise<unknown>;

/** Pages requested at most when `maxPages` is not set: a walk ends even when each page names another. */
const DEFAULT_MAX_PAGES = 10_000;

/**
 * The items of every page, one page requested at a time as the loop asks for more: the request
 * the block configures, then the next page's (`next`, by default the `Link: rel="next"` target),
 * on the same configuration changed for it. `client` is the client's own `response.paginate()`.
 */
export async function* paginate(
  send: PageSender,
  { type, withResponse, block }: VerbArguments,
  client: PaginationOptions | undefined,
): AsyncGenerator<unknown, void, undefined> {
  if (withResponse) throw new ResultTypeError('paginate(): withResponse() has no use here (each item is yielded alone); pass the item type itself');
  const layer = new HttpConfig('request');
  if (block) await block.call(layer, layer);
  const options = mergePagination(client, layer.touched.response?.pagination) ?? {};
  const { maxPages = DEFAULT_MAX_PAGES, maxItems = Infinity } = options;
  const trail = new PageTrail();
  let yielded = 0;
  for (let pages = 1; ; pages++) {
    let response: PageResponse | undefined;
    let loop: Error | undefined;
    const watch: PageWatch = {
      sending: (record) => trail.visit(record, pages),
      received: (fromServer, record) => {
        response = { fromServer, record };
        loop = trail.arrived(fromServer.uri, record, pages);
      },
    };
    const body = await send(layer, watch);
    if (loop) throw loop; // redirected back to a page of the walk: its items were yielded already
    for (const item of await itemsOf(body, response, options)) {
      yield type === undefined ? item : await convertResult(item, type, mapperOf(response));
      if (++yielded >= maxItems) return;
    }
    // no response (an interceptor or an exception handler answered without one): nothing names a next page
    if (pages >= maxPages || response === undefined) return;
    const next = await (options.next ?? linkNext)(response.fromServer, body);
    if (next === undefined || next === null) return;
    if (typeof next === 'string') layer.request.uri = nextUrl(next, response);
    else if (typeof next === 'function') await next.call(layer, layer);
    else throw new ConfigError(`response.paginate({ next }) returned ${describeValue(next)}: return a URL string, a block, or undefined to stop`);
  }
}

/** The `Link` header's `rel="next"` target (RFC 8288), resolved against the page's URL. */
function linkNext(fromServer: FromServer): string | undefined {
  return linkTo(fromServer.headers.getAll('link'), 'next', fromServer.uri);
}

async function itemsOf(body: unknown, response: PageResponse | undefined, options: PaginationOptions): Promise<readonly unknown[]> {
  const where = response ? ` of ${urlForMessage(response.fromServer.uri)}` : '';
  if (options.items && response) {
    const items: unknown = await options.items(body, response.fromServer);
    if (!Array.isArray(items)) throw new ResultTypeError(`response.paginate({ items }) returned ${describeValue(items)} for the page${where}, not an array`);
    return items as unknown[];
  }
  if (body === null || body === undefined) return []; // no body: no items
  if (Array.isArray(body)) return body as unknown[];
  throw new ResultTypeError(
    `paginate(): the page${where} is ${describeValue(body)}, not an array of items; say where they are with c.response.paginate({ items: (body) => ... })`,
  );
}

function mapperOf(response: PageResponse | undefined): Mapper | undefined {
  return response && (response.record.context(response.fromServer.contentType, MAPPER_ID) as Mapper | undefined);
}

/**
 * The next page's URL, resolved against the page's (after redirects), and on the origin the page
 * was asked of: a URL the server names is not followed to another origin, where the request's
 * credentials and headers would go with it (a redirect hop drops them; a block can still move there).
 */
function nextUrl(next: string, { fromServer, record }: PageResponse): URL {
  let url: URL;
  try {
    url = new URL(next, fromServer.uri);
  } catch {
    throw new ConfigError(`the next page '${urlForMessage(next)}' is not a URL (nor one relative to the page's)`);
  }
  const origin = new URL(record.url).origin;
  if (url.origin !== origin) {
    throw new ConfigError(
      `the next page ${urlForMessage(url.href)} is on another origin than the page (${origin}): not followed, as the request's credentials would go along; to follow it, return a block from response.paginate({ next }) that sets c.request.uri`,
    );
  }
  return url;
}
