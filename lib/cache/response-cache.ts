import CachePolicy from 'http-cache-semantics';
import type { CacheEntry, CacheStore, ResolvedCacheOptions } from '../config/cache-options.js';
import type { LogLine } from '../config/logger.js';
import { redactUrl } from '../core/redact.js';
import type { ConnectionOptions, TlsOptions } from '../model/backend.js';
import { keyedDigest, type CacheView, type Digest, type Keying } from './cache-view.js';
import { MemoryStore } from './memory-store.js';

/** A stored entry, the freshness and revalidation state it was stored with, and the key it is under. */
export interface Stored {
  readonly entry: CacheEntry;
  readonly policy: CachePolicy;
  readonly key: string;
}

/**
 * A client's cache: its store, and the rules for reading and writing it. The store is made once
 * per `client.cache` setting and shared by the clients derived from that client; each way of
 * connecting among them has its own `ResponseCache` over it ({@link cacheFor}). A store's
 * failure is never the request's: it is reported (through the logger, else once as a process
 * warning) and the cache is skipped.
 *
 * Keys: a response every request may get (`public`, or to a request without credentials) is kept
 * under its URL; any other under its URL and the digest of the credentials it was stored for, so
 * each user of a client has their own, and no user gets another's. A client that connects with
 * a client certificate, a Unix socket or a local address of its own puts its digest
 * ({@link connectionIdentity}) after the URL: even a public response is its own.
 */
export class ResponseCache implements Keying {
  readonly store: CacheStore;
  readonly maxBytes: number;
  /** The digest of credentials for this store (keyed with `client.cache.secret`, else this process's random key). */
  readonly digest: Digest;
  /** A digest of how this client connects, when that can change who the server sees or which server it is. */
  readonly connection: string | undefined;
  #warned = false;

  constructor(options: ResolvedCacheOptions, { store, digest }: SharedCache, connection: string | undefined) {
    this.store = store;
    this.maxBytes = options.maxBytes;
    this.digest = digest;
    this.connection = connection;
  }

  /**
   * The stored response that may answer `view`: its credentials' own, else a shared one (public,
   * or for no credentials when it has none); only a public one when `publicOnly` (the request
   * carries credentials the cache cannot see).
   */
  async find(view: CacheView, log: LogLine | undefined, publicOnly = false): Promise<Stored | undefined> {
    // both at once: a remote store's round trips overlap
    const ownKey = view.credentials === undefined || publicOnly ? undefined : placeOf(view, false);
    const [own, shared] = await Promise.all([ownKey === undefined ? undefined : this.#get(ownKey, log), this.#get(placeOf(view, true), log)]);
    if (own !== undefined && answers(own.entry, view)) return own;
    if (shared === undefined || !answers(shared.entry, view)) return undefined;
    return !publicOnly || isPublic((shared.entry.policy as CachePolicy.CachePolicyObject).rescc) ? shared : undefined;
  }

  async set(key: string, entry: CacheEntry, log: LogLine | undefined): Promise<void> {
    await this.#safely('set', key, log, () => this.store.set(key, entry));
  }

  async delete(key: string, log: LogLine | undefined): Promise<void> {
    await this.#safely('delete', key, log, () => this.store.delete(key));
  }

  /**
   * The entry stored under `key` with its policy, or undefined: also when the store failed. A
   * value that is no entry of this format (an earlier version's, whose fields may hold
   * credentials, or anything else) is deleted, quietly: it is no one's answer now. An entry of
   * this format whose state does not load is reported, and deleted.
   */
  async #get(key: string, log: LogLine | undefined): Promise<Stored | undefined> {
    const entry = await this.#safely('get', key, log, () => this.store.get(key));
    if (entry === undefined || entry === null) return undefined;
    const stored = isEntry(entry) ? await this.#loaded(key, entry, log) : undefined;
    if (stored === undefined) await this.delete(key, log);
    return stored;
  }

  /** `entry` with its policy loaded, or undefined (reported) when that fails. */
  #loaded(key: string, entry: CacheEntry, log: LogLine | undefined): Promise<Stored | undefined> {
    return this.#safely('get', key, log, () => ({ entry, policy: CachePolicy.fromObject(entry.policy as CachePolicy.CachePolicyObject), key }));
  }

  async #safely<T>(operation: string, key: string, log: LogLine | undefined, run: () => T): Promise<Awaited<T> | undefined> {
    try {
      return await run();
    } catch (error) {
      const url = key.split(' ')[0];
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

/**
 * The key of a response to `view`: its URL when every request may get it (`shared`, or no
 * credentials), else its URL and credentials; after the URL, the client's connection identity
 * when it has one.
 */
export function placeOf(view: CacheView, shared: boolean): string {
  const url = view.connection === undefined ? view.url : `${view.url} ${view.connection}`;
  return shared || view.credentials === undefined ? url : `${url} ${view.credentials}`;
}

/**
 * Whether a response's `Cache-Control` directives (`rescc`, as http-cache-semantics parses them)
 * say any user may get it: `public` (RFC 9111 §5.2.2.9), and not `private` too — a response that
 * says both, in either order, is private (the safer reading).
 */
export function isPublic(rescc: Readonly<Record<string, unknown>> | undefined): boolean {
  return rescc !== undefined && 'public' in rescc && !('private' in rescc);
}

/**
 * Whether `entry` may answer `view`: it was stored through the same connection identity, and is
 * public or was stored for the same credentials (or for none, as the request has none).
 */
function answers(entry: CacheEntry, view: CacheView): boolean {
  if (entry.connection !== view.connection) return false;
  return entry.credentials === view.credentials || isPublic((entry.policy as CachePolicy.CachePolicyObject).rescc);
}

/** What the clients of one `client.cache` setting share: the store and its digest. */
interface SharedCache {
  readonly store: CacheStore;
  readonly digest: Digest;
}

/** Per `client.cache` setting: what its clients share, and the cache of each connection identity over it. */
const caches = new WeakMap<ResolvedCacheOptions, SharedCache & { readonly byConnection: Map<string | undefined, ResponseCache> }>();

/**
 * The cache of a client made with these options, `tls` and `connection`: one store for every
 * client that inherited the options, and one `ResponseCache` per connection identity over it.
 * Called once per client.
 */
export function cacheFor(options: ResolvedCacheOptions, tls: TlsOptions | undefined, connection: ConnectionOptions | undefined): ResponseCache {
  let shared = caches.get(options);
  if (shared === undefined) {
    const store = options.store ?? new MemoryStore(options.maxEntries, options.maxBytes);
    shared = { store, digest: keyedDigest(options.secret), byConnection: new Map() };
    caches.set(options, shared);
  }
  const identity = connectionIdentity(tls, connection, shared.digest);
  let cache = shared.byConnection.get(identity);
  if (cache === undefined) shared.byConnection.set(identity, (cache = new ResponseCache(options, shared, identity)));
  return cache;
}

/**
 * What of a client's way of connecting changes who the server sees, or which server it is: the
 * client certificate and its key (`execution.tls`), the Unix socket and the local address
 * (`client.connection`); as a digest, or undefined when the client sets none of them.
 */
function connectionIdentity(tls: TlsOptions | undefined, connection: ConnectionOptions | undefined, digest: Digest): string | undefined {
  const parts = [tls?.cert, tls?.key, connection?.socketPath, connection?.localAddress];
  if (parts.every((part) => part === undefined)) return undefined;
  const text = (part: string | Uint8Array | undefined) => (part === undefined ? '' : typeof part === 'string' ? part : Buffer.from(part).toString('base64'));
  return digest(`connection\0${parts.map(text).join('\0')}`);
}

function isEntry(value: unknown): value is CacheEntry {
  const entry = value as CacheEntry;
  return (
    typeof value === 'object' &&
    value !== null &&
    entry.v === 3 &&
    typeof entry.body === 'string' &&
    (entry.credentials === undefined || typeof entry.credentials === 'string') &&
    (entry.connection === undefined || typeof entry.connection === 'string') &&
    typeof entry.policy === 'object' &&
    entry.policy !== null
  );
}
