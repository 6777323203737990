import { proxies } from '../proxy/proxy-stage.js';
import { proxyRouterFor } from '../proxy/router.js';
import type { Send, WireCall } from './plan.js';
import { useNodeStages } from './platform-stages.js';
import { loadOnce } from '../core/load-once.js';
import type { WireRequest, WireResponse } from '../model/backend.js';

// The cache (http-cache-semantics, node:crypto, node:stream) is loaded by the first request of a
// client with client.cache: a client without one (most of them) never loads it.
const cacheModule = loadOnce(() => import('../cache/node-cache.js'));

/**
 * The cache stage's place in the wire stages: a call of a client without a cache passes on (as
 * the cache stage itself would), one with a cache goes through the cache stage, made over `next`
 * once (the client loaded its module before its first request: `plan.cache` is set only then).
 */
function caching(next: Send): Send {
  let cachedSend: Send | undefined;
  return function sendMaybeCached(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    if (call.plan.cache === undefined) return next(wire, call);
    if (cachedSend === undefined && cacheModule.loaded !== undefined) cachedSend = cacheModule.loaded.caching(next);
    return cachedSend ? cachedSend(wire, call) : cacheModule().then(() => sendMaybeCached(wire, call));
  };
}

// Registered on import, by the node platform; a browser bundle never imports this module.
useNodeStages({
  proxies,
  caching,
  proxyRouterFor,
  loadCache: (options, tls, connection, publicOnly) => cacheModule().then(({ cacheFor }) => cacheFor(options, tls, connection, publicOnly)),
});
