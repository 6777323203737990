import CachePolicy from 'http-cache-semantics';
import type { CacheEntry, CacheStore, ResolvedCacheOptions } from '../config/cache-options.js';
import type { LogLine } from '../config/logger.js';
import { redactUrl } from '../core/redact.js';
import { isMarker } from './cache-entry.js';
import type { CacheView, Digest, Keying } from './cache-view.js';

/** A stored entry, the freshness and revalidation state it was stored with, and the key it is under. */
export interface Stored {
  readonly entry: CacheEntry;
  readonly policy: CachePolicy;
  readonly key: string;
}

/** What a lookup found: the stored response that answers, and the mark the last unsafe request left on the URL, if the store keeps one. */
export interface Found {
  readonly stored: Stored | undefined;
  readonly invalidated: string | undefined;
}

/** What the clients of one `client.cache` setting share: the store and its digest. */
export interface SharedCache {
  readonly store: CacheStore;
  readonly digest: Digest;
}

/**
 * A client's cache: its store, and the rules for reading and writing it. The store is made once
 * per `client.cache` setting and shared by the clients derived from that client; each way of
 * connecting among them has its own `ResponseCache` over it (`cacheFor`, cache-for.ts). A store's
 * failure is never the request's: it is reported (through the logger, else once as a process
 * warning) and the cache is skipped.
 *
 * Keys: a response every request may get (`public`, or to a request without credentials) is kept
 * under its URL; any other under its URL and the digest of the credentials it was stored for, so
 * each user of a client has their own, and no user gets another's. A client that connects with
 * a client certificate, a Unix socket or a local address of its own puts its digest
 * (cache-for.ts) after the URL: even a public response is its own.
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
   * carries credentials the cache cannot see). An own entry stored before an unsafe request
   * (anyone's) last changed the URL does not answer (RFC 9111 §4.4): it does not carry the mark
   * that request left under the shared key.
   */
  async find(view: CacheView, log: LogLine | undefined, publicOnly = false): Promise<Found> {
    const [ownKey, sharedKey] = [view.credentials === undefined || publicOnly ? undefined : placeOf(view, false), placeOf(view, true)];
    // both at once: a remote store's round trips overlap
    const [own, shared] = await Promise.all([ownKey === undefined ? undefined : this.#read(ownKey, log), this.#read(sharedKey, log)]);
    const invalidated = shared?.invalidated;
    const [ownAnswers, sharedAnswers] = [
      own !== undefined && answers(own, view) && (invalidated === undefined || own.invalidated === invalidated),
      shared !== undefined && answers(shared, view) && (!publicOnly || isPublic(stateOf(shared).rescc)),
    ];
    const stored = ownAnswers ? await this.#loaded(ownKey!, own!, log) : sharedAnswers ? await this.#loaded(sharedKey, shared!, log) : undefined;
    return { stored, invalidated };
  }

  async set(key: string, entry: CacheEntry, log: LogLine | undefined): Promise<void> {
    await this.#safely('set', key, log, () => this.store.set(key, entry));
  }

  async delete(key: string, log: LogLine | undefined): Promise<void> {
    await this.#safely('delete', key, log, () => this.store.delete(key));
  }

  /**
   * The entry (or marker) stored under `key`, or undefined: also when the store failed. A value
   * that is no entry of this format (an earlier version's, whose fields may hold credentials, or
   * anything else) is deleted, quietly: it is no one's answer now.
   */
  async #read(key: string, log: LogLine | undefined): Promise<CacheEntry | undefined> {
    const entry = await this.#safely('get', key, log, () => this.store.get(key));
    if (entry === undefined || entry === null) return undefined;
    if (isEntry(entry)) return entry;
    await this.delete(key, log);
    return undefined;
  }

  /** `entry` with its policy loaded; when that fails, undefined, reported, and the entry deleted. */
  async #loaded(key: string, entry: CacheEntry, log: LogLine | undefined): Promise<Stored | undefined> {
    const stored = await this.#safely('get', key, log, () => ({ entry, policy: CachePolicy.fromObject(stateOf(entry)), key }));
    if (stored === undefined) await this.delete(key, log);
    return stored;
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
 * Whether `entry` may answer `view`: it is a response (no marker), stored through the same
 * connection identity, and is public or was stored for the same credentials (or for none, as
 * the request has none).
 */
function answers(entry: CacheEntry, view: CacheView): boolean {
  if (isMarker(entry) || entry.connection !== view.connection) return false;
  return entry.credentials === view.credentials || isPublic(stateOf(entry).rescc);
}

/** An entry's freshness and revalidation state, as http-cache-semantics keeps it. */
function stateOf(entry: CacheEntry): CachePolicy.CachePolicyObject {
  return entry.policy as CachePolicy.CachePolicyObject;
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
    (entry.invalidated === undefined || typeof entry.invalidated === 'string') &&
    typeof entry.policy === 'object' &&
    entry.policy !== null
  );
}
