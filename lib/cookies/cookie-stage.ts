import type { WireRequest, WireResponse } from '../model/backend.js';
import type { Send, WireCall } from '../pipeline/plan.js';
import type { ClientCookieJar } from './cookie-jar.js';

/**
 * The cookie stage: with `client.cookies` on, each wire exchange (every hop, retry and auth
 * round) carries the jar's cookies for its URL, and the response's `Set-Cookie` are stored.
 */
export function cookies(next: Send): Send {
  return function sendWithCookies(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    const jar = call.plan.jar;
    return jar ? exchangeCookies(next, jar, wire, call) : next(wire, call);
  };
}

async function exchangeCookies(next: Send, jar: ClientCookieJar, wire: WireRequest, call: WireCall): Promise<WireResponse> {
  const response = await next(await jar.withCookies(wire), call);
  await jar.store(wire.url, response);
  return response;
}
