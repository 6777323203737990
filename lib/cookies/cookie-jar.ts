import type { CookieJar } from 'tough-cookie';
import { loadOnce } from '../core/load-once.js';
import type { WireRequest, WireResponse } from '../model/backend.js';

// what a jar does to each exchange (cookie-exchange.ts, and tough-cookie behind it) is loaded by
// the first request of a client with `client.cookies`: an application without a jar never loads it
const cookieExchange = loadOnce(() => import('./cookie-exchange.js'));

/** One wrapper per application jar, so that every client given it (and its derived clients) shares one. */
const wrappers = new WeakMap<CookieJar, ClientCookieJar>();

/**
 * A client's cookie jar (`client.cookies`), on tough-cookie (RFC 6265: domain, path, expiry,
 * `Secure`, public suffixes): the client's own, or a `CookieJar` the application gave. The
 * client's own is made, and tough-cookie loaded, the first time it is used, so clients without
 * one never pay for it.
 */
export class ClientCookieJar {
  #jar: Promise<CookieJar> | undefined;

  /** @param jar the application's jar; without one, the jar is made on first use. */
  constructor(jar?: CookieJar) {
    if (jar !== undefined) this.#jar = Promise.resolve(jar);
  }

  /**
   * The jar for a `client.cookies` setting: `true` is the pool's own (made once and kept in
   * `shared`, which derived clients share); an application's jar gets its one wrapper.
   *
   * @example
   * const jar = ClientCookieJar.of(settings.cookieJar, pool.cookies);
   */
  static of(setting: true | CookieJar, shared: { jar?: ClientCookieJar }): ClientCookieJar {
    if (setting === true) return (shared.jar ??= new ClientCookieJar());
    let wrapper = wrappers.get(setting);
    if (wrapper === undefined) wrappers.set(setting, (wrapper = new ClientCookieJar(setting)));
    return wrapper;
  }

  /**
   * `wire` with the jar's cookies for its URL in front of the request's own `Cookie` header
   * (the request's win: a name set by the caller is sent once, with the caller's value).
   */
  async withCookies(wire: WireRequest): Promise<WireRequest> {
    const exchange = cookieExchange.loaded ?? (await cookieExchange());
    return exchange.withCookies(await this.#load(), wire);
  }

  /** Stores the response's `Set-Cookie` headers for `url`; ones the rules refuse (another domain, a public suffix) are ignored. */
  async store(url: string, response: WireResponse): Promise<void> {
    const exchange = cookieExchange.loaded ?? (await cookieExchange());
    return exchange.storeCookies(this.#load.bind(this), url, response);
  }

  #load(): Promise<CookieJar> {
    return (this.#jar ??= cookieExchange().then((exchange) => exchange.newJar()));
  }
}
