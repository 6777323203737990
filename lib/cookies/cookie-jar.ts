import type { CookieJar } from 'tough-cookie';
import type { WireRequest, WireResponse } from '../model/backend.js';

/**
 * A client's cookie jar (`client.cookies = true`), on tough-cookie (RFC 6265: domain, path,
 * expiry, `Secure`, public suffixes). tough-cookie is loaded the first time a jar is used, so
 * clients without one never pay for it.
 */
export class ClientCookieJar {
  #jar: Promise<CookieJar> | undefined;

  /**
   * `wire` with the jar's cookies for its URL in front of the request's own `Cookie` header
   * (the request's win: a name set by the caller is sent once, with the caller's value).
   */
  async withCookies(wire: WireRequest): Promise<WireRequest> {
    const jar = await this.#load();
    const stored = jar.getCookiesSync(wire.url);
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
      jar.setCookieSync(value, url, { ignoreError: true });
    }
  }

  #load(): Promise<CookieJar> {
    // a service is not a browser: `Secure` means https, on loopback addresses too
    return (this.#jar ??= import('tough-cookie').then(({ CookieJar }) => new CookieJar(undefined, { allowSecureOnLocal: false })));
  }
}
