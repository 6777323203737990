import { Readable } from 'node:stream';
import CachePolicy from 'http-cache-semantics';
import type { CacheEntry, CacheStore, ResolvedCacheOptions } from '../config/cache-options.js';
import type { LogLine } from '../config/logger.js';
import type { WireResponse } from '../model/backend.js';
import { redactUrl } from '../core/redact.js';
import { MemoryStore } from './memory-store.js';

/** A stored entry, and the freshness and revalidation state it was stored with. */
export interface Stored {
  readonly entry: CacheEntry;
  readonly policy: CachePolicy;
}

/** Where a response came from, as `fromServer.cache` says. */
export type CacheOutcome = 'hit' | 'revalidated' | 'miss';

/**
 * A client's cache: its store, and the rules for reading and writing it. One per `client.cache`
 * setting, shared by the clients derived from that client ({@link cacheFor}). A store's failure is
 * never the request's: it is reported (through the logger, else once as a process warning) and
 * the cache is skipped.
 */
export class ResponseCache {
  readonly store: CacheStore;
  readonly maxBytes: number;
  #warned = false;

  constructor(options: ResolvedCacheOptions) {
    this.store = options.store ?? new MemoryStore(options.maxEntries, options.maxBytes);
    this.maxBytes = options.maxBytes;
  }

  /**
   * The entry stored for `url` with its policy, or undefined: also when the store failed, or holds
   * something that is no entry of this format (a stale file, another version): that is reported too.
   */
  async get(url: string, log: LogLine | undefined): Promise<Stored | undefined> {
    const entry = await this.#safely('get', url, log, () => this.store.get(keyOf(url)));
    if (entry === undefined || entry === null) return undefined;
    return this.#safely('get', url, log, () => {
      if (!isEntry(entry)) throw new Error('the stored value is no cache entry');
      return { entry, policy: CachePolicy.fromObject(entry.policy as CachePolicy.CachePolicyObject) };
    }) as Promise<Stored | undefined>;
  }

  async set(url: string, entry: CacheEntry, log: LogLine | undefined): Promise<void> {
    await this.#safely('set', url, log, () => this.store.set(keyOf(url), entry));
  }

  async delete(url: string, log: LogLine | undefined): Promise<void> {
    await this.#safely('delete', url, log, () => this.store.delete(keyOf(url)));
  }

  async #safely(operation: string, url: string, log: LogLine | undefined, run: () => unknown): Promise<unknown> {
    try {
      return await run();
    } catch (error) {
      const message = `cache: the store's ${operation} failed for ${redactUrl(url)}, so the cache is skipped: ${(error as Error | undefined)?.message ?? String(error)}`;
      if (log) log(message);
      else if (!this.#warned) {
        this.#warned = true;
        process.emitWarning(message, 'HttpBuilderWarning');
      }
      return undefined;
    }
  }
}

const caches = new WeakMap<ResolvedCacheOptions, ResponseCache>();

/** The cache made for these options: the same one for every client that inherited them. */
export function cacheFor(options: ResolvedCacheOptions): ResponseCache {
  let cache = caches.get(options);
  if (cache === undefined) caches.set(options, (cache = new ResponseCache(options)));
  return cache;
}

/** The store's key: the URL without its fragment (a HEAD is answered from the GET's entry). */
function keyOf(url: string): string {
  const hash = url.indexOf('#');
  return hash === -1 ? url : url.slice(0, hash);
}

function isEntry(value: unknown): value is CacheEntry {
  return typeof value === 'object' && value !== null && (value as CacheEntry).v === 1 && typeof (value as CacheEntry).body === 'string';
}

/** A response's headers as http-cache-semantics reads them: lower-case names, repeated values joined (`set-cookie` kept apart). */
export function policyHeaders(pairs: ReadonlyArray<readonly [string, string]> | Readonly<Record<string, string>>): CachePolicy.Headers {
  const headers: Record<string, string | string[]> = {};
  const entries: ReadonlyArray<readonly [string, string]> = Array.isArray(pairs) ? pairs : Object.entries(pairs as Readonly<Record<string, string>>);
  for (const [name, value] of entries) {
    const lower = name.toLowerCase();
    const seen = headers[lower];
    if (lower === 'set-cookie') headers[lower] = [...((seen as string[] | undefined) ?? []), value];
    else headers[lower] = seen === undefined ? value : `${seen as string}, ${value}`;
  }
  return headers;
}

/** http-cache-semantics' headers as name/value pairs. */
function headerPairs(headers: CachePolicy.Headers): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(headers)) {
    if (Array.isArray(value)) for (const item of value) pairs.push([name, item]);
    else if (value !== undefined) pairs.push([name, value]);
  }
  return pairs;
}

/** The entry for a response whose body is `body` (as it came off the wire). */
export function entryOf(url: string, response: WireResponse, body: Buffer, policy: CachePolicy): CacheEntry {
  return sized({
    v: 1,
    url,
    statusCode: response.statusCode,
    message: response.message,
    headers: response.headers.map(([name, value]) => [name, value] as const),
    body: body.toString('base64'),
    decoded: response.decoded,
    httpVersion: response.httpVersion ?? '1.1',
    policy: policy.toObject(),
  });
}

/** `entry` with its `size`: the body as stored, and the headers twice (as received, and in the policy). */
export function sized(entry: Omit<CacheEntry, 'size'>): CacheEntry {
  let headerBytes = 0;
  for (const [name, value] of entry.headers) headerBytes += name.length + value.length + 4;
  return { ...entry, size: entry.body.length + 2 * headerBytes };
}

/**
 * The response an entry answers with: its status and body, and `headers` (the policy's: `Age`
 * set, a 304's headers merged in). Nothing to discard: no connection is behind it.
 */
export function responseOf(entry: CacheEntry, headers: CachePolicy.Headers, method: string, cache: CacheOutcome): WireResponse {
  const body = method === 'HEAD' ? Buffer.alloc(0) : Buffer.from(entry.body, 'base64');
  // a stored Set-Cookie is not set again: it could put back a cookie the jar has replaced since
  const { 'set-cookie': _, ...kept } = headers;
  return {
    statusCode: entry.statusCode,
    message: entry.message,
    headers: headerPairs(kept),
    body: oneChunk(body),
    decoded: entry.decoded,
    httpVersion: entry.httpVersion,
    cache,
    discard() {},
    readAll: () => Promise.resolve(body),
  };
}

function oneChunk(body: Buffer): AsyncIterable<Uint8Array> {
  return Readable.from(body.length > 0 ? [body] : []);
}
