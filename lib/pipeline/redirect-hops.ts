import { isStreamed, type WireRequest, type WireResponse } from '../model/backend.js';
import type { Send, WireCall } from './plan.js';
import { RedirectError } from '../core/errors.js';
import { sameOrigin, targetOfUrl } from './build-url.js';
import { firstHeader } from '../model/response-headers.js';
import { urlForMessage } from '../core/redact.js';
import { beforeRedirect } from './hooked-attempt.js';
import { redirectLocation } from './redirect-location.js';

// Following redirects, as the redirect stage (redirects.ts) does once a response is one to
// follow: loaded with the optional stages' work (stage-work.ts) by the first such response.

/** Dropped on every hop to another origin, besides `execution.redirects.sensitiveHeaders`. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie'];
// what describes the body, dropped with it (RFC 9110 §15.4.4): its Content-Encoding too (request.compress sets one)
const BODY_HEADERS = new Set(['content-type', 'content-length', 'transfer-encoding', 'content-encoding']);

/** The hops from `firstResponse`, a redirect to `firstLocation`, to the response that is none to follow. */
export async function hopOn(next: Send, first: WireRequest, firstResponse: WireResponse, firstLocation: string, call: WireCall): Promise<WireResponse> {
  const options = call.plan.execution.redirects;
  let wire = first;
  let response = firstResponse;
  let location: string | undefined = firstLocation;
  for (let hops = 0; location !== undefined; hops++) {
    let hop;
    try {
      hop = nextHop(wire, response.statusCode, location, options.sensitiveHeaders);
    } catch (error) {
      await finish(response, wire.method); // a refused Location must not keep the 3xx's connection checked out
      throw error;
    }
    if (hop === undefined) return response;
    await finish(response, wire.method);
    if (hops >= options.max) {
      throw new RedirectError(`more than ${options.max} redirects (the last one from ${urlForMessage(wire.url)} to ${urlForMessage(hop.url)})`);
    }
    if (call.plan.execution.hooks) hop = await beforeRedirect(call, wire, hop, response.statusCode);
    wire = call.last = hop;
    response = await next(wire, call);
    location = redirectLocation(response);
  }
  return response;
}

/** The request for the next hop, or `undefined` when this redirect must not be followed. */
function nextHop(wire: WireRequest, status: number, location: string, sensitive: readonly string[]): WireRequest | undefined {
  let url: URL;
  try {
    url = new URL(location, wire.url);
  } catch {
    throw new RedirectError(`the redirect from ${urlForMessage(wire.url)} has an invalid Location '${urlForMessage(location)}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new RedirectError(`the redirect from ${urlForMessage(wire.url)} goes to a '${url.protocol.slice(0, -1)}' URL: only http and https are followed`);
  }
  // credentials in a Location are never sent (they would be the server's choice of identity)
  url.username = '';
  url.password = '';
  url.hash = '';
  const target = targetOfUrl(url);
  const crossOrigin = !sameOrigin(target, wire);
  const toGet = ((status === 301 || status === 302) && wire.method === 'POST') || (status === 303 && wire.method !== 'HEAD');
  const body = toGet ? undefined : wire.body;
  if (body !== undefined && (crossOrigin || isStreamed(body))) return undefined;
  const drop = new Set([...(crossOrigin ? [...CREDENTIAL_HEADERS, ...sensitive] : []), ...(toGet ? BODY_HEADERS : [])]);
  const headers: Record<string, string> = {};
  for (const name in wire.headers) if (!drop.has(name.toLowerCase())) headers[name] = wire.headers[name];
  return { ...wire, ...target, method: toGet ? 'GET' : wire.method, headers, body };
}

/** A 3xx body this small is read to its end rather than discarded... */
const SMALL_BODY = 64 * 1024;
/** ...when it arrives within this many ms (it normally comes with the headers): a stalled one is discarded, not waited for. */
const SMALL_BODY_WAIT = 100;

/**
 * Done with a 3xx (followed or refused): a small body is read to its end, so its connection is
 * back in the pool for the next hop or request (a discard drains in the background, and a
 * request sent at once would open a second connection); anything else is discarded.
 */
async function finish(response: WireResponse, method: string): Promise<void> {
  const length = Number(firstHeader(response.headers, 'content-length') ?? NaN);
  if (method === 'HEAD' || !(length <= SMALL_BODY)) return response.discard();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const read = (async () => {
    for await (const chunk of response.body) void chunk;
  })();
  const ended = await Promise.race([
    read.then(
      () => true,
      () => false, // a broken 3xx body does not stop the redirect: the next hop gets a connection of its own
    ),
    new Promise<boolean>((resolve) => (timer = setTimeout(resolve, SMALL_BODY_WAIT, false))),
  ]);
  clearTimeout(timer);
  if (!ended) response.discard();
}
