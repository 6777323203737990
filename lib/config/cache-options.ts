import { utf8Length } from '../core/bytes.js';
import { ConfigError } from '../core/errors.js';
import { describeValue } from '../core/describe-value.js';
import { isRecord } from '../core/scalar.js';

/**
 * One stored response, as plain data (it survives `JSON.stringify`/`JSON.parse`): what a
 * {@link CacheStore} keeps. Treat it as opaque; `size` is what it counts against `maxBytes`.
 */
export interface CacheEntry {
  /** The format's version: a value of another version is deleted when read. */
  readonly v: 3;
  /** The request's URL, the values of credential-like query parameters replaced by digests. */
  readonly url: string;
  /**
   * A digest (HMAC-SHA-256, see `secret`) of the credentials of the request it answered (`Authorization`, `Cookie`,
   * credential-like headers), never their values; absent for a response every request may get
   * (`public`, or to a request without credentials).
   */
  readonly credentials?: string;
  /**
   * A digest of how the client that stored it connects (its client certificate, Unix socket or
   * local address), when it sets any of them: only a client that connects alike gets it.
   */
  readonly connection?: string;
  /**
   * The mark (random) the last unsafe request (POST, PUT, PATCH, DELETE) that changed the URL
   * left under its shared key, as it was when this entry was stored: an entry stored for other
   * credentials without the URL's current mark no longer answers.
   */
  readonly invalidated?: string;
  /** The response's status; 0 for an entry that is only the mark of an unsafe request (`invalidated`), with no response. */
  readonly statusCode: number;
  readonly message: string;
  /** Header name/value pairs as received, less those of the exchange only (`Set-Cookie`, `Authentication-Info`). */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The body as received (before decompression, unless `decoded`), base64. */
  readonly body: string;
  /** `true` when the transport had already undone `Content-Encoding` (fetch). */
  readonly decoded: boolean;
  readonly httpVersion: '1.1' | '2.0';
  /** The freshness and revalidation state (http-cache-semantics' `CachePolicy.toObject()`). */
  readonly policy: unknown;
  /** Bytes of the body and headers: what the entry counts against `maxBytes`. */
  readonly size: number;
}

/**
 * Where a cache keeps its entries: the default is an in-memory LRU; give your own for a shared
 * or persistent cache. Each method may return a promise. A store that throws (or rejects) never
 * fails a request: the cache is skipped for it, and a warning goes through `execution.logger`.
 * Keys and entries hold no credential values: a response only some credentials may get is kept
 * under its URL and a digest of them (`<url> hmac:...`); any other under its URL. A store kept
 * across processes needs `secret` (the digests' key) to find its credentialed entries again.
 *
 * @example
 * const entries = new Map<string, string>();
 * c.client.cache = {
 *   store: {
 *     get: (key) => { const text = entries.get(key); return text === undefined ? undefined : JSON.parse(text); },
 *     set: (key, entry) => void entries.set(key, JSON.stringify(entry)),
 *     delete: (key) => void entries.delete(key),
 *   },
 * };
 */
export interface CacheStore {
  get(key: string): CacheEntry | undefined | Promise<CacheEntry | undefined>;
  set(key: string, entry: CacheEntry): unknown;
  delete(key: string): unknown;
}

/** `client.cache` as an object: bounds for the default in-memory store, or a store of your own. */
export interface CacheOptions {
  /** How many responses the in-memory store keeps (least recently used go first); default 1000. */
  readonly maxEntries?: number;
  /** How many bytes of responses the in-memory store keeps; default 50 MiB. A larger response is not stored. */
  readonly maxBytes?: number;
  /** Your own store (then `maxEntries` does not apply; `maxBytes` still bounds one response). */
  readonly store?: CacheStore;
  /**
   * The key of the HMAC that digests credentials in keys and entries (at least 16 bytes; keep
   * it out of the store). Without it, a random key of this process: give one for a store that
   * outlives the process (a file, Redis), or its credentialed entries are never found again.
   */
  readonly secret?: string | Uint8Array;
}

/** `client.cache`: `true` for the defaults, options, or `false` (no cache, the default). */
export type CacheChoice = boolean | CacheOptions;

/** The options a cache is made from, checked; one object per `client.cache = ...`, shared by the clients derived from that client. */
export interface ResolvedCacheOptions {
  readonly maxEntries: number;
  readonly maxBytes: number;
  readonly store: CacheStore | undefined;
  readonly secret: string | Uint8Array | undefined;
}

/** The options of `client.cache = true`: a new object each time, as a client's cache is one per object. */
export function defaultCacheOptions(): ResolvedCacheOptions {
  return Object.freeze({ maxEntries: 1000, maxBytes: 50 * 2 ** 20, store: undefined, secret: undefined });
}

/** `client.cache` checked when set: `undefined` for `false`. */
export function resolveCacheChoice(value: unknown): ResolvedCacheOptions | undefined {
  if (value === false) return undefined;
  if (value === true) return defaultCacheOptions();
  if (!isRecord(value)) throw new ConfigError(`client.cache must be true, false or { maxEntries?, maxBytes?, store?, secret? }, not ${describeValue(value)}`);
  for (const key of Object.keys(value)) {
    if (!OPTIONS.includes(key)) throw new ConfigError(`client.cache: '${key}' is no option (${OPTIONS.join(', ')})`);
  }
  const { maxEntries = 1000, maxBytes = 50 * 2 ** 20, store, secret } = value as CacheOptions;
  checkCount(maxEntries, 'maxEntries');
  checkCount(maxBytes, 'maxBytes');
  if (store !== undefined) {
    for (const method of ['get', 'set', 'delete'] as const) {
      if (typeof (store as unknown as Record<string, unknown> | null)?.[method] !== 'function')
        throw new ConfigError(`client.cache.store needs get, set and delete methods (${method} is missing)`);
    }
  }
  checkSecret(secret);
  // a copy: bytes the caller changes later would change every digest
  return Object.freeze({ maxEntries, maxBytes, store, secret: secret instanceof Uint8Array ? Uint8Array.from(secret) : secret });
}

const OPTIONS = ['maxEntries', 'maxBytes', 'store', 'secret'];

/** A secret too short to key the HMAC well is refused; its value is never shown, only its kind and length. */
function checkSecret(secret: unknown): void {
  if (secret === undefined) return;
  const bytes = typeof secret === 'string' ? utf8Length(secret) : secret instanceof Uint8Array ? secret.byteLength : undefined;
  if (bytes === undefined) throw new ConfigError(`client.cache.secret must be a string or a Uint8Array of at least 16 bytes, not ${describeValue(secret)}`);
  if (bytes < 16) throw new ConfigError(`client.cache.secret must be at least 16 bytes long, not ${bytes}`);
}

function checkCount(value: unknown, name: string): void {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new ConfigError(`client.cache.${name} must be a whole number of at least 1, not ${describeValue(value, true)}`);
  }
}
