import { ConfigError } from '../core/errors.js';
import type { TransportOptions, WireRequest } from '../model/backend.js';
import type { ProxyRoute } from '../model/proxy-route.js';
import { fetchInUse } from './fetch-response.js';
import { runtimeName } from '../core/runtime-name.js';

// What the fetch backend runs on: undici 7's fetch and pools (undici-fetch.ts, which the node
// registry passes in), or the runtime's own global fetch (Bun, browsers, Workers, node without
// undici). No `node:` import, and no undici: a browser bundle of the backend pulls neither.

/** What the backend needs of an undici 7 `Agent`: a dispatcher that can be destroyed. */
export interface Dispatcher {
  destroy(): Promise<void>;
}

/** What the backend needs of `UndiciProxies` (undici-proxy.ts, which is loaded only for a proxied request). */
export interface ProxyDispatchers {
  dispatcher(route: ProxyRoute, request: WireRequest): Dispatcher;
  destroy(): Promise<void>;
}

/** The `Versions` of undici-limits.ts: the HTTP version ALPN picked per origin. */
export interface OriginVersions {
  readonly byOrigin: Map<string, '1.1' | '2.0'>;
}

/** A fetch function and the pools it runs on. */
export interface FetchTransport {
  readonly fetch: typeof globalThis.fetch;
  /** The `Headers` class of that fetch (undici's own, or the global one): fetch.ts hands fetch instances of it. */
  readonly Headers: typeof globalThis.Headers;
  /** Each frozen header object (a client's shared one) as a `Headers` of this fetch, made on its first request. */
  readonly prepared: WeakMap<object, Headers>;
  /** The pool for a request, with its connect, headers and body timeouts; `undefined` with the global fetch. */
  dispatcher: (request: WireRequest) => Dispatcher | undefined;
  /**
   * `true` when this fetch has no timeouts of its own to be given (the global fetch): the
   * backend then keeps the request's headers and body timeouts itself (fetch-timeouts.ts).
   */
  readonly ownTimeouts: boolean;
  /** With `client.http2`: the version ALPN picked per origin (a fetch Response carries none). */
  versions?: OriginVersions | undefined;
  /** The dispatchers of proxied requests (loaded on the first one); `undefined` with the global fetch. */
  proxies: (() => Promise<ProxyDispatchers>) | undefined;
  /** Why this transport cannot go through a proxy, when it cannot (the message of the ConfigError). */
  readonly noProxy?: string;
  /** The runtime whose global fetch this is (its quirks: a browser follows redirects itself and streams no upload over HTTP/1.1). */
  readonly runtime?: ReturnType<typeof runtimeName>;
  destroy(): Promise<void>;
}

/**
 * Makes the transport for `options`: on undici 7 where it is installed, else on the global
 * fetch (Bun's built-in undici has no Dispatcher). The node entry passes one to
 * `createFetchBackend` (undici-fetch.ts), so that fetch.ts itself never imports undici.
 */
export type UndiciTransportLoader = (options: TransportOptions) => Promise<FetchTransport>;

/** Whether `options` ask for nothing a pool of the backend's own would have to carry (TLS, connection settings, HTTP/2). */
export function needsNoPool(options: TransportOptions): boolean {
  return options.tls === undefined && options.connection === undefined && !options.http2;
}

/**
 * The runtime's own `fetch` on its own pool: it takes no TLS or connection settings and no
 * timeouts (the backend keeps those), and goes through no proxy of the client's.
 *
 * @param where What runs it, for the messages: `'on Bun'`, `'without undici'`, `'here'` ...
 * @param noProxy Why it cannot go through `client.proxy`, and what to do instead.
 */
export function globalFetchTransport(options: TransportOptions, where: string, noProxy: string): FetchTransport {
  if (!needsNoPool(options)) {
    const asked = options.tls !== undefined ? 'execution.tls' : options.connection !== undefined ? 'client.connection' : 'client.http2';
    throw new ConfigError(`${asked}: the fetch backend ${where} runs on the global fetch, which has no pool of its own to take it: use the 'native' backend`);
  }
  const runtime = runtimeName();
  fetchInUse(false, runtime === 'a browser' || runtime === 'Cloudflare Workers');
  return {
    fetch: globalThis.fetch,
    Headers: globalThis.Headers,
    prepared: new WeakMap(),
    dispatcher: () => undefined,
    ownTimeouts: true,
    runtime,
    proxies: undefined,
    noProxy,
    destroy: () => Promise.resolve(),
  };
}
