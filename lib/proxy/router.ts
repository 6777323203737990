import type { ProxyChoice } from '../config/client-config.js';
import { ConfigError } from '../core/errors.js';
import type { Backend, ConnectionOptions } from '../model/backend.js';
import type { ProxyAnswers, ProxyRoute, SocksLogin } from '../model/proxy-route.js';
import { parseNoProxy, type NoProxy } from './no-proxy.js';
import { ProxyAuthorization } from './proxy-auth.js';
import { readProxyEnvironment } from './proxy-env.js';
import { parseProxyUrl, type ProxyAddress, type SocksVersion } from './proxy-url.js';

/** Where a request goes: its scheme, host as written in the URL, and port. */
export interface Destination {
  readonly secure: boolean;
  readonly hostname: string;
  readonly port: number;
}

/** Origins whose decision is remembered; beyond this the memo starts over (a crawler must not grow it forever). */
const MEMO_LIMIT = 1024;

/**
 * A client's proxy decision, per target: made once from `client.proxy` (and the environment,
 * read when the client is made), then asked for each hop. `undefined` from {@link proxyRouter}
 * means every request goes direct, at no cost per request.
 */
export class ProxyRouter {
  readonly #http: ProxyRoute | undefined;
  readonly #https: ProxyRoute | undefined;
  readonly #exempt: NoProxy | undefined;
  readonly #memo = new Map<string, ProxyRoute | null>();
  /** The last origin asked about and its answer: a client's requests mostly go to one origin (no key string per request). */
  #last: { readonly to: Destination; readonly route: ProxyRoute | null } | undefined;

  constructor(http: ProxyRoute | undefined, https: ProxyRoute | undefined, exempt: NoProxy | undefined) {
    this.#http = http;
    this.#https = https;
    this.#exempt = exempt;
  }

  /** The proxy for a request to `to`, or `undefined` to go direct. */
  route(to: Destination): ProxyRoute | undefined {
    const last = this.#last;
    if (last !== undefined && last.to.hostname === to.hostname && last.to.port === to.port && last.to.secure === to.secure) return last.route ?? undefined;
    const key = `${to.secure ? 'https' : 'http'}://${to.hostname}:${to.port}`;
    let route = this.#memo.get(key);
    if (route === undefined) {
      const proxy = to.secure ? this.#https : this.#http;
      route = proxy === undefined || this.#exempt?.matches(to.hostname, to.port) ? null : proxy;
      if (this.#memo.size >= MEMO_LIMIT) this.#memo.clear();
      this.#memo.set(key, route);
    }
    // its own copy of the three fields: `to` is a whole wire request, which is not kept
    this.#last = { to: { secure: to.secure, hostname: to.hostname, port: to.port }, route };
    return route ?? undefined;
  }
}

/**
 * The router for a `client.proxy` choice; `undefined` when no request can go through a proxy
 * (`false`, or `'env'` with no proxy variable set). Throws ConfigError for a proxy URL or a
 * `no_proxy` entry that is not one, naming where it came from.
 *
 * @example
 * proxyRouter({ url: 'http://proxy:3128', noProxy: ['.internal'] })?.route({ secure: true, hostname: 'api.example.com', port: 443 });
 */
export function proxyRouter(choice: ProxyChoice | undefined, env: Readonly<Record<string, string | undefined>> = process.env): ProxyRouter | undefined {
  if (choice === false) return undefined;
  const { url, noProxy } = typeof choice === 'object' && !(choice instanceof URL) ? choice : { url: choice, noProxy: undefined };
  const exempt = noProxy && parseNoProxy(noProxy, 'client.proxy.noProxy');
  if (url !== undefined && url !== 'env') {
    const route = new Route(parseProxyUrl(url, 'client.proxy'));
    return new ProxyRouter(route, route, exempt);
  }
  const found = readProxyEnvironment(env);
  // curl's order: the scheme's own variable, then all_proxy/ALL_PROXY
  const httpVariable = found.http ?? found.all;
  const httpsVariable = found.https ?? found.all;
  if (!httpVariable && !httpsVariable) return undefined;
  const http = httpVariable && parseProxyUrl(httpVariable.value, httpVariable.variable);
  const https = httpsVariable && parseProxyUrl(httpsVariable.value, httpsVariable.variable);
  // one proxy named by both variables is one proxy: its challenge answers either scheme's requests
  const httpRoute = http && new Route(http);
  const httpsRoute = https && (http && sameProxy(http, https) ? httpRoute : new Route(https));
  return new ProxyRouter(httpRoute, httpsRoute, exempt ?? (found.noProxy && parseNoProxy(found.noProxy.value, found.noProxy.variable)));
}

/**
 * {@link proxyRouter} for a pool whose transport is `backend`: a backend that does not follow
 * `WireRequest.proxy` (a Backend object of your own) gets no router for the environment's
 * proxies, and a ConfigError for an explicit one, rather than a request that would go direct.
 */
export function proxyRouterFor(choice: ProxyChoice | undefined, backend: Backend, connection?: ConnectionOptions): ProxyRouter | undefined {
  const router = proxyRouter(choice);
  if (router === undefined) return undefined;
  const explicit = typeof choice === 'string' ? choice !== 'env' : choice instanceof URL || (typeof choice === 'object' && choice.url !== undefined);
  // a Unix socket is a local peer: the environment's proxies do not apply to it, an explicit one cannot
  if (connection?.socketPath !== undefined) {
    if (!explicit) return undefined;
    throw new ConfigError('client.proxy and client.connection.socketPath cannot be combined: a request to a Unix domain socket goes to it directly');
  }
  if (backend.proxies === true) return router;
  if (!explicit) return undefined;
  throw new ConfigError(
    `client.proxy is set, but the backend '${backend.name}' does not follow it (a Backend object declares proxies: true when its send() honours WireRequest.proxy): set client.proxy = false, or use a built-in backend`,
  );
}

function sameProxy(a: ProxyAddress, b: ProxyAddress): boolean {
  return a.secure === b.secure && a.socks === b.socks && a.hostname === b.hostname && a.port === b.port && a.user === b.user && a.password === b.password;
}

/** One proxy of a client: its address for backends, its credentials' answers kept private. */
class Route implements ProxyRoute {
  readonly secure: boolean;
  readonly hostname: string;
  readonly port: number;
  readonly shown: string;
  readonly hasCredentials: boolean;
  readonly socks: SocksVersion | undefined;
  readonly #authorization: ProxyAuthorization;
  readonly #login: SocksLogin | undefined;

  constructor(address: ProxyAddress) {
    this.secure = address.secure;
    this.socks = address.socks;
    // a getter's object, not a field: the password stays out of inspect(), JSON and spreading
    this.#login = address.socks && address.user !== undefined ? { user: address.user, password: address.password ?? '' } : undefined;
    this.hostname = address.hostname;
    this.port = address.port;
    this.shown = address.shown;
    this.hasCredentials = address.user !== undefined;
    this.#authorization = new ProxyAuthorization(address.user === undefined ? undefined : { user: address.user, password: address.password ?? '' });
  }

  answers(method: string, uri: string): ProxyAnswers {
    return this.#authorization.answers(method, uri);
  }

  socksLogin(): SocksLogin | undefined {
    return this.#login;
  }
}
