import type { CookieJar } from 'tough-cookie';

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
   * The tough-cookie jar: the application's, or the client's own, made (and tough-cookie loaded)
   * now if it was not yet. What the cookie stage does with it is cookie-exchange.ts.
   */
  jar(): Promise<CookieJar> {
    // a service is not a browser: `Secure` means https, on loopback addresses too
    return (this.#jar ??= import('tough-cookie').then(({ CookieJar }) => new CookieJar(undefined, { allowSecureOnLocal: false })));
  }
}
