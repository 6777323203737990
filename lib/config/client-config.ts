import type { Telemetry } from './telemetry.js';
import type { PublicOnlyChoice } from './public-only.js';
import type { PublicOnlyPolicy } from '../model/backend.js';
import type { CookieJar } from 'tough-cookie';
import type { Backend, ConnectionOptions } from '../model/backend.js';
import { ConfigError } from '../core/errors.js';
import { describeValue } from '../core/describe-value.js';
import { assertClientLevel, type Scope } from './scope.js';
import type { CacheChoice, ResolvedCacheOptions } from './cache-options.js';
import { settingChecks } from './platform-checks.js';
import { checkConcurrency, checkDedupe, checkRateLimit, type ConcurrencyOptions, type FlowLayer, type RateLimitOptions } from './flow-options.js';

/** The backends that come with the library, by name. */
export type BackendName = 'native' | 'undici' | 'axios' | 'got' | 'fetch';

/** A backend by name, or your own {@link Backend} object. */
export type BackendChoice = BackendName | Backend;

/**
 * `client.proxy`: `'env'` (the default: `http_proxy`, `https_proxy`, `all_proxy` and `no_proxy` as
 * curl reads them), a proxy URL for every request (`http://`, `https://`, `socks5://`,
 * `socks5h://`), the same with exemptions, or `false` (never a proxy).
 */
// eslint-disable-next-line @typescript-eslint/no-redundant-type-constituents -- 'env' is spelled out for readers and editors' completion
export type ProxyChoice = 'env' | string | URL | { readonly url?: string | URL; readonly noProxy?: readonly string[] } | false;

/** `client.cookies`: on (the client's own jar), off, or your own tough-cookie jar. */
export type CookiesChoice = boolean | CookieJar;

/**
 * Client-level settings: `c.client` in `HttpBuilder.configure()`.
 *
 * @example
 * HttpBuilder.configure((c) => { c.client.backend = 'native'; });
 */
export class ClientConfig {
  #backend: BackendChoice | undefined;
  #cookies: CookiesChoice | undefined;
  #proxy: ProxyChoice | undefined;
  #connection: ConnectionOptions | undefined;
  #http2: boolean | undefined;
  #cache: CacheChoice | undefined;
  #telemetry: Telemetry | false | undefined;
  #publicOnly: PublicOnlyChoice | undefined;
  #resolvedPublicOnly: PublicOnlyPolicy | undefined;
  #resolvedCache: ResolvedCacheOptions | undefined;
  #flow: FlowLayer | undefined;

  constructor(private readonly scope: Scope) {}

  /**
   * The transport: `'native'` (default, `node:http`/`node:https`), `'undici'` (the fastest),
   * `'axios'`, `'got'`, `'fetch'` (the package is loaded on first use; install it yourself), or a
   * {@link Backend} object.
   */
  get backend(): BackendChoice | undefined {
    return this.#backend;
  }
  set backend(value: BackendChoice | undefined) {
    assertClientLevel(this.scope, 'client.backend');
    this.#backend = value;
  }

  /**
   * `true` keeps a cookie jar for this client: `Set-Cookie` is stored (domain, path, expiry,
   * `Secure` honoured) and sent back on later requests and redirects. Clients derived from
   * this one share the jar. A tough-cookie `CookieJar` of your own is used instead of one
   * made by the client, so you can persist it or share it with other code (as got's
   * `cookieJar` option); `true` in a derived client keeps the jar it inherits.
   *
   * @example
   * const jar = new CookieJar(); // from 'tough-cookie'
   * HttpBuilder.configure((c) => { c.client.cookies = jar; });
   */
  get cookies(): CookiesChoice | undefined {
    return this.#cookies;
  }
  set cookies(value: CookiesChoice | undefined) {
    assertClientLevel(this.scope, 'client.cookies');
    if (value !== undefined && typeof value !== 'boolean' && !isCookieJar(value)) {
      throw new ConfigError(`client.cookies must be true, false or a tough-cookie CookieJar, not ${describeValue(value)}`);
    }
    this.#cookies = value;
  }

  /**
   * How connections are made and kept, on every backend: `maxSockets` per origin (further
   * requests wait in order), `keepAlive` (default `true`), `idleTimeout` (ms, default 4000),
   * `socketPath` (a Unix domain socket; the URL still gives `Host` and path), `lookup`, `family`
   * (4 or 6), `localAddress`. A derived client's settings merge over its parent's, member by member.
   *
   * @example
   * HttpBuilder.configure((c) => {
   *   c.request.uri = 'http://localhost/v1.43';
   *   c.client.connection = { socketPath: '/var/run/docker.sock', maxSockets: 4 };
   * });
   */
  get connection(): ConnectionOptions | undefined {
    return this.#connection;
  }
  set connection(value: ConnectionOptions | undefined) {
    assertClientLevel(this.scope, 'client.connection');
    this.#connection = value === undefined ? undefined : settingChecks().connection(value);
  }

  /**
   * `true`: https connections offer ALPN `h2, http/1.1` and speak HTTP/2 where the server picks it
   * (requests to one origin multiplexed on one connection), HTTP/1.1 otherwise; plain http stays
   * HTTP/1.1. `fromServer.httpVersion` says which. The axios backend cannot speak HTTP/2: with it,
   * `true` is a ConfigError.
   *
   * @example
   * HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.com'; c.client.http2 = true; });
   */
  get http2(): boolean | undefined {
    return this.#http2;
  }
  set http2(value: boolean | undefined) {
    assertClientLevel(this.scope, 'client.http2');
    if (value !== undefined && typeof value !== 'boolean') throw new ConfigError(`client.http2 must be true or false, not ${describeValue(value)}`);
    this.#http2 = value;
  }

  /**
   * A private HTTP cache (RFC 9111) for GET and HEAD, shared by this client and the clients
   * derived from it: `true` (an in-memory LRU of 1000 responses and 50 MiB), `{ maxEntries?,
   * maxBytes?, store? }`, or `false` (the default). Fresh responses are answered without a
   * request, stale ones revalidated (`If-None-Match`, `If-Modified-Since`); `fromServer.cache`
   * says `'hit'`, `'revalidated'` or `'miss'`. See docs/caching.md.
   *
   * @example
   * HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.com'; c.client.cache = true; });
   */
  get cache(): CacheChoice | undefined {
    return this.#cache;
  }
  set cache(value: CacheChoice | undefined) {
    assertClientLevel(this.scope, 'client.cache');
    this.#resolvedCache = value === undefined ? undefined : settingChecks().cache(value);
    this.#cache = value;
  }

  /**
   * Tracing and metrics for every attempt: `openTelemetry()` from `httpbuilder-ts/opentelemetry`
   * (a span per attempt, the trace context sent, the request duration histogram), a
   * {@link Telemetry} of your own, or `false` (the default: nothing is computed). See docs/observability.md.
   *
   * @example
   * import { openTelemetry } from 'httpbuilder-ts/opentelemetry';
   * HttpBuilder.configure((c) => { c.request.uri = 'https://api.example.com'; c.client.telemetry = openTelemetry(); });
   */
  get telemetry(): Telemetry | false | undefined {
    return this.#telemetry;
  }
  set telemetry(value: Telemetry | false | undefined) {
    assertClientLevel(this.scope, 'client.telemetry');
    if (value !== undefined && value !== false && typeof (value as Partial<Telemetry> | null)?.startAttempt !== 'function') {
      throw new ConfigError(
        `client.telemetry must be openTelemetry(...) or an object with a startAttempt(attempt) method, or false, not ${describeValue(value)}`,
      );
    }
    this.#telemetry = value;
  }

  /**
   * Connect only to public unicast addresses: loopback, private, link-local (cloud metadata),
   * CGNAT, ULA and the other special ranges are refused with `AddressBlockedError` before
   * anything is sent, on the address each connection is about to dial (every redirect hop, DNS
   * rebinding included). `{ allow: [...] }` lets IPs, CIDR ranges and host names (exact) through.
   * For clients that fetch URLs their users give. See docs/tls.md.
   *
   * @example
   * HttpBuilder.configure((c) => { c.client.publicOnly = true; });
   * HttpBuilder.configure((c) => { c.client.publicOnly = { allow: ['10.20.0.0/16', 'intranet.example'] }; });
   */
  get publicOnly(): PublicOnlyChoice | undefined {
    return this.#publicOnly;
  }
  set publicOnly(value: PublicOnlyChoice | undefined) {
    assertClientLevel(this.scope, 'client.publicOnly');
    this.#resolvedPublicOnly = value === undefined ? undefined : settingChecks().publicOnly(value);
    this.#publicOnly = value;
  }

  /** @internal `client.publicOnly` checked (undefined: not set here, or `false`). */
  get resolvedPublicOnly(): PublicOnlyPolicy | undefined {
    return this.#resolvedPublicOnly;
  }

  /**
   * At most this many calls in flight at once, in all (`total`) and per origin (`perOrigin`): a
   * call counts from its first attempt until its body is read (a `Stream` until it is closed);
   * further calls wait in order, and the wait counts in `execution.timeout.total`. Shared by the
   * clients derived from this one that do not set their own. `client.connection.maxSockets`
   * bounds connections instead. A call that makes another call through the same client while it
   * holds its slot (a token function, a handler) waits for a slot it may never get: mind the limit.
   * See docs/flow-control.md.
   *
   * @example
   * HttpBuilder.configure((c) => { c.client.concurrency = { total: 50, perOrigin: 6 }; });
   */
  get concurrency(): ConcurrencyOptions | false | undefined {
    return this.#flow?.concurrency;
  }
  set concurrency(value: ConcurrencyOptions | false | undefined) {
    assertClientLevel(this.scope, 'client.concurrency');
    this.#setFlow({ concurrency: value === undefined ? undefined : checkConcurrency(value) });
  }

  /**
   * At most `requests` attempts per `interval` ms to each origin (in any window of that length);
   * further attempts wait their turn. Every attempt counts: retries, redirect hops, auth rounds.
   *
   * @example
   * HttpBuilder.configure((c) => { c.client.rateLimit = { requests: 10, interval: 1000 }; });
   */
  get rateLimit(): RateLimitOptions | false | undefined {
    return this.#flow?.rateLimit;
  }
  set rateLimit(value: RateLimitOptions | false | undefined) {
    assertClientLevel(this.scope, 'client.rateLimit');
    this.#setFlow({ rateLimit: value === undefined ? undefined : checkRateLimit(value) });
  }

  /**
   * `true`: concurrent identical GETs (same URL, same headers and credentials, no body) share one
   * exchange; each caller gets its own result, converted for it.
   *
   * @example
   * HttpBuilder.configure((c) => { c.client.dedupe = true; });
   */
  get dedupe(): boolean | undefined {
    return this.#flow?.dedupe;
  }
  set dedupe(value: boolean | undefined) {
    assertClientLevel(this.scope, 'client.dedupe');
    this.#setFlow({ dedupe: value === undefined ? undefined : checkDedupe(value) });
  }

  #setFlow(change: FlowLayer): void {
    const flow = { ...this.#flow, ...change };
    this.#flow = Object.values(flow).some((value) => value !== undefined) ? flow : undefined;
  }

  /** @internal `client.concurrency`, `rateLimit` and `dedupe` as this block set them (undefined: none). */
  get flowSet(): FlowLayer | undefined {
    return this.#flow;
  }

  /** @internal `client.cache` checked (undefined: not set here, or `false`). */
  get resolvedCache(): ResolvedCacheOptions | undefined {
    return this.#resolvedCache;
  }

  /**
   * The proxy requests go through. `'env'` (default) reads `https_proxy`/`HTTPS_PROXY`,
   * `http_proxy`/`HTTP_PROXY`, then `all_proxy`/`ALL_PROXY`, and `no_proxy`/`NO_PROXY` when the client is made (lower case wins).
   * A URL (`'http://[user:pass@]host:port'`, `https://` for TLS to the proxy, `socks5://` or `socks5h://`) sends every
   * request through it; `{ url, noProxy }` exempts hosts (`'*'`, a host and its subdomains,
   * `host:port`, an IP, an IPv4 CIDR), and `{ noProxy }` alone takes the environment's proxies
   * with these exemptions instead of `no_proxy`; `false` never uses a proxy. http targets go in absolute
   * form, https ones through a `CONNECT` tunnel; through a `socks5://` or `socks5h://` proxy both
   * go through a SOCKS5 tunnel. The URL's credentials answer the proxy's `407` (Basic or Digest),
   * or log in to a SOCKS5 proxy (RFC 1929), and are never shown: errors and logs say `http://***@host:port`.
   *
   * @example
   * HttpBuilder.configure((c) => {
   *   c.client.proxy = { url: 'http://alice:secret@proxy.internal:3128', noProxy: ['localhost', '.internal'] };
   * });
   */
  get proxy(): ProxyChoice | undefined {
    return this.#proxy;
  }
  set proxy(value: ProxyChoice | undefined) {
    assertClientLevel(this.scope, 'client.proxy');
    if (value !== undefined && !isProxyChoice(value)) {
      throw new ConfigError(`client.proxy must be 'env', a proxy URL (string or URL), { url?, noProxy? } or false, not ${describeValue(value)}`);
    }
    this.#proxy = value;
  }
}

/** The shapes `client.proxy` takes; the URL itself is checked when the client is made. */
function isProxyChoice(value: unknown): value is ProxyChoice {
  if (value === false || typeof value === 'string' || value instanceof URL) return true;
  if (typeof value !== 'object' || value === null) return false;
  const { url, noProxy } = value as { url?: unknown; noProxy?: unknown };
  return (
    (url === undefined || typeof url === 'string' || url instanceof URL) &&
    (noProxy === undefined || (Array.isArray(noProxy) && noProxy.every((entry) => typeof entry === 'string')))
  );
}

/** A tough-cookie jar, by shape: one from the application's own copy of tough-cookie is as good. */
function isCookieJar(value: unknown): value is CookieJar {
  const jar = value as Partial<CookieJar> | null;
  return (
    typeof jar === 'object' && jar !== null && typeof jar.getCookies === 'function' && typeof jar.setCookie === 'function' && typeof jar.store === 'object'
  );
}
