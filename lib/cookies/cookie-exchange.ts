import type { Cookie, CookieJar } from 'tough-cookie';
import type { WireRequest, WireResponse } from '../model/backend.js';
import type { Send, WireCall } from '../pipeline/plan.js';
import type { ClientCookieJar } from './cookie-jar.js';

// The cookie stage's work (cookie-stage.ts holds the stage): loaded at the first request of a
// client with `client.cookies`, so that an application without a jar never loads it.

/** One wire exchange of a call with `client.cookies`: the jar's cookies for its URL sent, the response's `Set-Cookie` stored. */
export async function exchangeCookies(next: Send, wire: WireRequest, call: WireCall): Promise<WireResponse> {
  const jar = call.plan.jar!;
  const response = await next(await withCookies(await jar.jar(), wire), call);
  await storeCookies(jar, wire.url, response);
  return response;
}

/**
 * `wire` with the jar's cookies for its URL in front of the request's own `Cookie` header
 * (the request's win: a name set by the caller is sent once, with the caller's value).
 */
async function withCookies(jar: CookieJar, wire: WireRequest): Promise<WireRequest> {
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
async function storeCookies(client: ClientCookieJar, url: string, response: WireResponse): Promise<void> {
  let jar: CookieJar | undefined;
  for (const [name, value] of response.headers) {
    if (name.toLowerCase() !== 'set-cookie') continue;
    jar ??= await client.jar();
    // a refused cookie is the server's mistake, not the request's failure (browsers ignore it too)
    if (jar.store.synchronous) jar.setCookieSync(value, url, { ignoreError: true });
    else await jar.setCookie(value, url, { ignoreError: true });
  }
}
