import type { ResolvedCacheOptions } from '../config/cache-options.js';
import type { ConnectionOptions, PublicOnlyPolicy, TlsOptions } from '../model/backend.js';
import { keyedDigest, type Digest } from './cache-view.js';
import { MemoryStore } from './memory-store.js';
import { ResponseCache, type SharedCache } from './response-cache.js';

/** Per `client.cache` setting: what its clients share, and the cache of each connection identity over it. */
const caches = new WeakMap<ResolvedCacheOptions, SharedCache & { readonly byConnection: Map<string | undefined, ResponseCache> }>();

/**
 * The cache of a client made with these options, `tls` and `connection`: one store for every
 * client that inherited the options, and one `ResponseCache` per connection identity over it.
 * Called once per client.
 */
export function cacheFor(
  options: ResolvedCacheOptions,
  tls: TlsOptions | undefined,
  connection: ConnectionOptions | undefined,
  publicOnly?: PublicOnlyPolicy,
): ResponseCache {
  let shared = caches.get(options);
  if (shared === undefined) {
    const store = options.store ?? new MemoryStore(options.maxEntries, options.maxBytes);
    shared = { store, digest: keyedDigest(options.secret), byConnection: new Map() };
    caches.set(options, shared);
  }
  const identity = connectionIdentity(tls, connection, publicOnly, shared.digest);
  let cache = shared.byConnection.get(identity);
  if (cache === undefined) shared.byConnection.set(identity, (cache = new ResponseCache(options, shared, identity)));
  return cache;
}

/**
 * What of a client's way of connecting changes who the server sees, or which server it is: the
 * client certificate and its key (`execution.tls` `cert`/`key` or `pfx`), which servers it
 * trusts (`ca`, `pins`, `servername`, `rejectUnauthorized: false`: a client that trusts more
 * must not fill the cache of one that trusts less), the Unix socket and the local address
 * (`client.connection`), and the addresses it may reach (`client.publicOnly`: likewise); as a
 * digest, or undefined when the client sets none of them.
 */
function connectionIdentity(
  tls: TlsOptions | undefined,
  connection: ConnectionOptions | undefined,
  publicOnly: PublicOnlyPolicy | undefined,
  digest: Digest,
): string | undefined {
  const policy = publicOnly && `public-only ${publicOnly.allowRanges.join(',')} ${publicOnly.allowHosts.join(',')}`;
  const ca = tls?.ca === undefined || typeof tls.ca === 'string' || tls.ca instanceof Uint8Array ? [tls?.ca] : tls.ca;
  const trust = tls && [tls.pins?.join(','), tls.servername, tls.rejectUnauthorized === false ? 'unchecked' : undefined];
  const parts = [tls?.cert, tls?.key, tls?.pfx, ...ca, ...(trust ?? []), connection?.socketPath, connection?.localAddress, policy];
  if (parts.every((part) => part === undefined)) return undefined;
  const text = (part: string | Uint8Array | undefined) => (part === undefined ? '' : typeof part === 'string' ? part : Buffer.from(part).toString('base64'));
  return digest(`connection\0${parts.map(text).join('\0')}`);
}
