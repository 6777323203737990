import type { Cookie, CookieJar } from 'tough-cookie';
import type { WireRequest, WireResponse } from '../model/backend.js';

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
    const jar = await this.#load();
    // an application's jar may keep its cookies in an asynchronous store (a file, a database)
    const stored: Cookie[] = jar.store.synchronous ? jar.getCookiesSync(wire.url) : await jar.getCookies(wire.url);
    if (stored.length === 0) return wire;
    const headerName = Object.keys(wire.headers).find((name) => name.toLowerCase() === 'cookie');
    const own = headerName === undefined ? '' : wire.headers[headerName];
    const ownNames = new Set(own.split(';').map((pair) => pair.split('=')[0].trim()));
    const pairs = stored.filter((cookie) => !ownNames.has(cookie.key)).map((cookie) => cookie.cookieString());
    if (own !== '') pairs.push(own);
    const headers: Record<string, string> = {};
    for (const name in wire.headers) if (name !== headerName) headers[name] = wire.headers[name];
    headers[headerName ?? 'Cookie'] = pairs.join('; ');
    return { ...wire, headers };
  }

  /** Stores the response's `Set-Cookie` headers for `url`; ones the rules refuse (another domain, a public suffix) are ignored. */
  async store(url: string, response: WireResponse): Promise<void> {
    let jar: CookieJar | undefined;
    for (const [name, value] of response.headers) {
      if (name.toLowerCase() !== 'set-cookie') continue;
      jar ??= await this.#load();
      // a refused cookie is the server's mistake, not the request's failure (browsers ignore it too)
      if (jar.store.synchronous) jar.setCookieSync(value, url, { ignoreError: true });
      else await jar.setCookie(value, url, { ignoreError: true });
    }
  }

  #load(): Promise<CookieJar> {
    // a service is not a browser: `Secure` means https, on loopback addresses too
    return (this.#jar ??= import('tough-cookie').then(({ CookieJar }) => new CookieJar(undefined, { allowSecureOnLocal: false })));
  }
}
