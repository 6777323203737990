import { NetworkError, ProxyError } from '../core/errors.js';
import { urlForMessage } from '../core/redact.js';
import { isStreamed, type WireRequest, type WireResponse } from '../model/backend.js';
import { absoluteForm, proxyRefused, type ProxyRoute } from '../model/proxy-route.js';
import { headerValues } from '../model/response-headers.js';
import { toTransportError } from '../model/transport-error.js';
import type { Send, WireCall } from '../pipeline/plan.js';

/**
 * The proxy stage: decides per hop whether the request goes through a proxy (`client.proxy`,
 * `no_proxy`) and marks it for the backend (`wire.proxy`). An http request goes to the proxy in
 * absolute form with `Proxy-Authorization` from the proxy URL's credentials (Basic up front until
 * the proxy asks for Digest; hooks do not see it), so the proxy's `407` comes back here: answered
 * once per fresh challenge. An https request's `CONNECT` is the backend's tunnel, which sends and answers the
 * same credentials itself; so is every request's SOCKS5 tunnel (its RFC 1929 login included).
 */
export function proxies(next: Send): Send {
  return function sendRouted(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    const route = call.plan.pool.router?.route(wire);
    // not async: a direct request (the usual kind) pays no extra promise for this stage
    return route === undefined ? next(wire, call) : throughProxy(next, { ...wire, proxy: route }, call, route);
  };
}

async function throughProxy(next: Send, wire: WireRequest, call: WireCall, route: ProxyRoute): Promise<WireResponse> {
  try {
    // https: the tunnel answers the proxy itself; SOCKS: every request is tunnelled, logged in by the backend
    if (wire.secure || route.socks !== undefined) return await next(wire, call);
    // no credentials to answer with, or a caller's own Proxy-Authorization (theirs to manage): a 407 stands
    const own = hasProxyAuthorization(wire.headers);
    if (own || !route.hasCredentials) return standing(await next(wire, call), wire, route, own);
    return await answerProxy(next, wire, call, route);
  } catch (error) {
    throw named(toTransportError(error, wire.url), route);
  }
}

async function answerProxy(next: Send, wire: WireRequest, call: WireCall, route: ProxyRoute): Promise<WireResponse> {
  const answers = route.answers(wire.method, absoluteForm(wire));
  let response = await next(withProxyAuthorization(wire, answers.first, call), call);
  while (response.statusCode === 407) {
    const header = answers.retry(headerValues(response.headers, 'proxy-authenticate'));
    if (header === undefined) return standing(response, wire, route, answers.refusedCredentials);
    response.discard();
    if (isStreamed(wire.body)) {
      throw new ProxyError(
        `the proxy ${route.shown} asked for credentials, but the request body is a stream that cannot be sent again: send it as bytes (later requests answer the proxy up front)`,
        407,
      );
    }
    response = await next(withProxyAuthorization(wire, header, call), call);
  }
  return response;
}

/** `response`, unless it is a 407 nothing more will answer: then the ProxyError. */
function standing(response: WireResponse, wire: WireRequest, route: ProxyRoute, answered: boolean): WireResponse {
  if (response.statusCode !== 407) return response;
  response.discard();
  throw proxyRefused(route, `the request to ${urlForMessage(wire.url)}`, response, answered);
}

/**
 * A failure to reach the target through the proxy says which proxy it went through: its message
 * ends with it. Each transport failure of an attempt passes here once (a hook's throw travels
 * wrapped, not as a NetworkError), so it is always added: never decided from the text, which
 * may contain the proxy's URL anyway (`http://127.0.0.1:1` begins `http://127.0.0.1:18080/x`).
 */
function named(error: Error, route: ProxyRoute): Error {
  if (!(error instanceof NetworkError)) return error;
  return new NetworkError(`${error.message} through the proxy ${route.shown}`, error.reason, { cause: error.cause });
}

function hasProxyAuthorization(headers: Readonly<Record<string, string>>): boolean {
  for (const name in headers) if (name.length === 19 && name.toLowerCase() === 'proxy-authorization') return true;
  return false;
}

/** `wire` with the proxy's credentials, which the call keeps note of: the hook stage hides them from hooks. */
function withProxyAuthorization(wire: WireRequest, header: string | undefined, call: WireCall): WireRequest {
  call.proxyAuthorization = header;
  return header === undefined ? wire : { ...wire, headers: { ...wire.headers, 'Proxy-Authorization': header } };
}
