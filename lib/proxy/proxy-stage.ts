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
 * absolute form, so the proxy's `407` comes back here: answered with `Proxy-Authorization` from
 * the proxy URL's credentials, once per fresh challenge. An https request's `CONNECT` is the
 * backend's tunnel, which answers its 407 itself with the same credentials.
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
    // a caller's own Proxy-Authorization is theirs to manage
    if (wire.secure || Object.keys(wire.headers).some(isProxyAuthorization)) return await next(wire, call);
    return await answerProxy(next, wire, call, route);
  } catch (error) {
    throw named(toTransportError(error, wire.url), route);
  }
}

async function answerProxy(next: Send, wire: WireRequest, call: WireCall, route: ProxyRoute): Promise<WireResponse> {
  const answers = route.answers(wire.method, absoluteForm(wire));
  let response = await next(withProxyAuthorization(wire, answers.first), call);
  let answered = answers.first !== undefined;
  while (response.statusCode === 407) {
    response.discard();
    const header = answers.retry(headerValues(response.headers, 'proxy-authenticate'));
    if (header === undefined) throw proxyRefused(route, `the request to ${urlForMessage(wire.url)}`, response, answered);
    if (isStreamed(wire.body)) {
      throw new ProxyError(
        `the proxy ${route.shown} asked for credentials, but the request body is a stream that cannot be sent again: send it as bytes (later requests answer the proxy up front)`,
        407,
      );
    }
    answered = true;
    response = await next(withProxyAuthorization(wire, header), call);
  }
  return response;
}

/** A failure to reach the target through the proxy says which proxy it went through. */
function named(error: Error, route: ProxyRoute): Error {
  if (!(error instanceof NetworkError) || error.message.includes(route.shown)) return error;
  return new NetworkError(`${error.message} through the proxy ${route.shown}`, error.reason, { cause: error.cause });
}

function isProxyAuthorization(name: string): boolean {
  return name.toLowerCase() === 'proxy-authorization';
}

function withProxyAuthorization(wire: WireRequest, header: string | undefined): WireRequest {
  return header === undefined ? wire : { ...wire, headers: { ...wire.headers, 'Proxy-Authorization': header } };
}
