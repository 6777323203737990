import type { ResolvedCacheOptions } from '../config/cache-options.js';
import type { CookiesChoice, ProxyChoice } from '../config/client-config.js';
import { ConfigError } from '../core/errors.js';
import { webRuntimeName } from '../core/runtime-name.js';
import type { Backend, ConnectionOptions, PublicOnlyPolicy, TlsOptions } from '../model/backend.js';
import type { ResponseCache } from '../cache/response-cache.js';
import type { ProxyRouter } from '../proxy/router.js';
import type { Stage } from './plan.js';

/**
 * What the node platform adds to the wire stages (node-stages.ts registers it): proxies, which
 * only node's transports can follow, and the RFC 9111 cache, built on node:crypto and node:stream.
 * The browser/Workers build has neither (no stage, no module in its bundle): the runtime's own
 * network stack picks proxies, and its own HTTP cache applies to `fetch`.
 * @internal
 */
export interface NodeStages {
  /** the proxy stage, between authorization and cookies */
  readonly proxies: Stage;
  /** the cache stage, between cookies and hooks; it passes a call on unless its client has a cache */
  readonly caching: Stage;
  /** the router of a pool over `backend` (`client.proxy` and the environment's proxies); `undefined`: always direct */
  proxyRouterFor(choice: ProxyChoice | undefined, backend: Backend, connection: ConnectionOptions | undefined): ProxyRouter | undefined;
  /** the cache of a client with `client.cache`, its module loaded at that client's first request */
  loadCache(
    options: ResolvedCacheOptions,
    tls: TlsOptions | undefined,
    connection: ConnectionOptions | undefined,
    publicOnly: PublicOnlyPolicy | undefined,
  ): Promise<ResponseCache>;
}

let node: NodeStages | undefined;

/** @internal Plugs in node's proxies and cache (the node platform does, on import). */
export function useNodeStages(given: NodeStages): void {
  node = given;
}

/** @internal Node's proxies and cache, or `undefined` in the browser/Workers build. */
export function nodeStages(): NodeStages | undefined {
  return node;
}

/** @internal A pool's proxy router: node's, or {@link webProxyRouter} in the browser/Workers build. */
export function proxyRouterOf(choice: ProxyChoice | undefined, backend: Backend, connection: ConnectionOptions | undefined): ProxyRouter | undefined {
  return node ? node.proxyRouterFor(choice, backend, connection) : webProxyRouter(choice);
}

/**
 * @internal The browser/Workers build's proxies: none. The environment's proxy variables are
 * not read (there is no environment); an explicit `client.proxy` is a ConfigError naming the runtime.
 */
export function webProxyRouter(choice: ProxyChoice | undefined): undefined {
  if (choice === undefined || choice === false || choice === 'env') return undefined;
  if (typeof choice === 'object' && !(choice instanceof URL) && (choice.url === undefined || choice.url === 'env')) return undefined;
  throw new ConfigError(
    `client.proxy is set, but ${webRuntimeName()} sends requests through its own network stack, which picks the proxy (this build has no proxy support): leave client.proxy unset or false`,
  );
}

/**
 * @internal What a client of the browser/Workers build cannot have, checked when it is made:
 * `client.cache` (the runtime's own HTTP cache applies), and in a browser `client.cookies` (the
 * browser manages cookies: fetch may neither read `Set-Cookie` nor send `Cookie` there).
 */
export function checkWebClient(settings: { readonly cache: ResolvedCacheOptions | undefined; readonly cookieJar: CookiesChoice }): void {
  const runtime = webRuntimeName();
  if (settings.cache !== undefined) {
    throw new ConfigError(
      `client.cache needs node:crypto and node:stream, which ${runtime} does not have: leave it off (the runtime's own HTTP cache applies to fetch)`,
    );
  }
  if (settings.cookieJar !== false && runtime === 'a browser') {
    throw new ConfigError(
      "client.cookies is on, but a browser manages cookies itself (fetch may neither read Set-Cookie nor send Cookie there): leave it off, and use fetch's credentials mode for the browser's cookies",
    );
  }
}
