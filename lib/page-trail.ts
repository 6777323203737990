import { HttpBuilderError } from './core/errors.js';
import { KeyHash } from './core/key-hash.js';
import { urlForMessage } from './core/redact.js';
import type { RequestRecord } from './model/request-record.js';

/**
 * The requests a walk has sent, to stop one that comes back to a page it fetched: a page that
 * names itself as next (often an empty last page), A → B → A, or B redirected back to A. A
 * request is its URL (query included, fragment not), its headers and its body when it is held
 * in memory (a cursor in a header or in a JSON body makes a new request at the same URL); a
 * page whose body streams is not checked. Only a fixed-size hash of each request is kept (no
 * header value, no token): a collision of two requests (odds below 2^-40 for a walk of 10^10 pages)
 * would at most end a walk early.
 * @internal
 */
export class PageTrail {
  readonly #pages = new Map<string, number>();

  /** Notes page `page`'s request; throws `ERR_PAGINATION_LOOP` when the walk sent it before. */
  visit(record: RequestRecord, page: number): void {
    const key = requestKey(record.url, record);
    if (key === undefined) return;
    const earlier = this.#pages.get(key);
    if (earlier !== undefined) throw loopError(`the next page ${urlForMessage(withoutFragment(record.url))} was already fetched as page ${earlier}`);
    this.#pages.set(key, page);
  }

  /**
   * Notes the URL page `page` came from after redirects: fetched too. The `ERR_PAGINATION_LOOP`
   * error to end the walk with when a redirect took the page back to an earlier one.
   */
  arrived(url: string, record: RequestRecord, page: number): Error | undefined {
    const key = requestKey(url, record);
    if (key === undefined) return undefined;
    const earlier = this.#pages.get(key);
    if (earlier === undefined) this.#pages.set(key, page);
    else if (earlier !== page) {
      const [from, to] = [record.url, url].map((u) => urlForMessage(withoutFragment(u)));
      return loopError(`page ${page} (${from}) was redirected to ${to}, already fetched as page ${earlier}`);
    }
    return undefined;
  }
}

function loopError(what: string): HttpBuilderError {
  const error = new HttpBuilderError(`paginate(): ${what} of this walk: the pages link in a loop, so the walk stops`);
  (error as { code: string }).code = 'ERR_PAGINATION_LOOP'; // no class of its own
  return error;
}

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}

/** The hash of the request to `url` with `record`'s headers and body; `undefined` when its body streams. */
function requestKey(url: string, record: RequestRecord): string | undefined {
  const body = bodyContent(record.body);
  if (body === undefined) return undefined;
  const key = new KeyHash().text(withoutFragment(url));
  const names = Object.keys(record.headers).sort();
  for (const name of names) key.text(name.toLowerCase()).text(record.headers[name]);
  key.text(record.contentType ?? '');
  return (typeof body === 'string' ? key.text(body) : key.bytes(body)).digest();
}

/** A body held in memory, as text or bytes to hash; `undefined` for one that streams (or cannot be told apart). */
function bodyContent(body: unknown): string | Uint8Array | undefined {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (typeof body === 'number' || typeof body === 'boolean') return JSON.stringify(body);
  if (body instanceof Uint8Array) return body;
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body instanceof URLSearchParams) return body.toString();
  const prototype: unknown = typeof body === 'object' ? Object.getPrototypeOf(body) : undefined;
  if (!Array.isArray(body) && prototype !== Object.prototype && prototype !== null) return undefined;
  try {
    return JSON.stringify(body); // a plain object or array: its JSON
  } catch {
    return undefined; // a cycle, a BigInt: the encoder will say
  }
}
