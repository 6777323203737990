import type { Cookie, CookieJar } from 'tough-cookie';
import type { WireRequest, WireResponse } from '../model/backend.js';

// What a client's jar does to each exchange (cookie-jar.ts holds the jar): loaded at the first
// request of a client with `client.cookies`, so that an application without a jar never loads it.

/** A client's own jar, on tough-cookie (loaded now). A service is not a browser: `Secure` means https, on loopback addresses too. */
export async function newJar(): Promise<CookieJar> {
  const { CookieJar } = await import('tough-cookie');
  return new CookieJar(undefined, { allowSecureOnLocal: false });
}

/**
 * `wire` with the jar's cookies for its URL in front of the request's own `Cookie` header
 * (the request's win: a name set by the caller is sent once, with the caller's value).
 */
export async function withCookies(jar: CookieJar, wire: WireRequest): Promise<WireRequest> {
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

/** Stores the response's `Set-Cookie` headers for `url` in the jar `load` gives (asked for only when there is one); ones the rules refuse are ignored. */
export async function storeCookies(load: () => Promise<CookieJar>, url: string, response: WireResponse): Promise<void> {
  let jar: CookieJar | undefined;
  for (const [name, value] of response.headers) {
    if (name.toLowerCase() !== 'set-cookie') continue;
    jar ??= await load();
    // a refused cookie is the server's mistake, not the request's failure (browsers ignore it too)
    if (jar.store.synchronous) jar.setCookieSync(value, url, { ignoreError: true });
    else await jar.setCookie(value, url, { ignoreError: true });
  }
}
