import type * as Undici from 'undici';
import { ConfigError } from '../core/errors.js';
import type { Backend, TransportOptions } from '../model/backend.js';
import { DEFAULT_STALL_MS } from '../config/execution-options.js';
import { createFetchBackend } from './fetch.js';
import { globalFetchTransport, needsNoPool, type FetchTransport, type ProxyDispatchers } from './fetch-transport.js';
import { importPeer } from './optional-peer.js';
import { fetchInUse } from './fetch-response.js';
import { hasDispatcher } from './undici-check.js';
import { runtimeName } from '../core/runtime-name.js';
import { multiplexing, undiciAgentOptions, withConnector, type Versions } from './undici-limits.js';
import { attemptDispatcher } from './undici-timings.js';

/**
 * The `fetch` backend as the node entry makes it: on undici 7's fetch and pools when undici is
 * installed (and is the real one: Bun's built-in `undici` is not), else on the global fetch.
 *
 * @example
 * const backend = await createNodeFetchBackend({ tls: undefined, connection: undefined });
 */
export function createNodeFetchBackend(options: TransportOptions): Promise<Backend> {
  return createFetchBackend(options, undiciTransport);
}

/**
 * The fetch transport on undici 7, or on the global fetch when undici is not installed or has
 * no Dispatcher (Bun's), as long as `options` need no pool of the client's own.
 *
 * @param load How undici is imported (a test passes a module of its own).
 */
export async function undiciTransport(options: TransportOptions, load: () => Promise<unknown> = () => import('undici')): Promise<FetchTransport> {
  let undici: typeof Undici;
  try {
    undici = (await importPeer('undici', 'fetch', load)) as typeof Undici;
  } catch (error) {
    // the global fetch has no pool of its own to take TLS or connection settings
    if (needsNoPool(options) && error instanceof ConfigError) {
      return globalFetchTransport(
        options,
        'without undici',
        "the fetch backend needs the 'undici' package for proxies (npm install undici), or set client.proxy = false",
      );
    }
    throw error;
  }
  if (hasDispatcher(undici)) return onUndici(undici, options);
  const runtime = runtimeName();
  const lacking = runtime === 'Bun' ? "Bun's built-in undici has no Agent" : `the 'undici' module loaded on ${runtime} is not undici 7`;
  return globalFetchTransport(
    options,
    `on ${runtime}`,
    `the fetch backend on ${runtime} cannot go through a proxy (${lacking}): use the 'native' backend, or set client.proxy = false`,
  );
}

function onUndici(undici: typeof Undici, options: TransportOptions): FetchTransport {
  fetchInUse(true);
  // one Agent (one pool, so maxSockets holds) per connect timeout, made with the default response
  // and read limits; other limits go on each dispatch (undici-timings.ts attemptDispatcher)
  const agents = new Map<number, Undici.Agent>();
  let proxies: Promise<ProxyDispatchers> | undefined;
  const versions: Versions = { byOrigin: new Map() };
  const agentFor = (connectTimeout: number): Undici.Agent => {
    let agent = agents.get(connectTimeout);
    if (!agent) {
      const agentOptions = undiciAgentOptions(options, connectTimeout, DEFAULT_STALL_MS, DEFAULT_STALL_MS);
      const made = withConnector(options.tls, agentOptions, undici.buildConnector, options.http2 ? versions : undefined);
      agents.set(connectTimeout, (agent = new undici.Agent(made)));
      if (options.http2) multiplexing(agent, made, versions);
    }
    return agent;
  };
  return {
    versions: options.http2 ? versions : undefined,
    fetch: undici.fetch as unknown as typeof globalThis.fetch,
    Headers: undici.Headers as unknown as typeof globalThis.Headers,
    prepared: new WeakMap(),
    ownTimeouts: false,
    dispatcher: (request) => {
      const { connectTimeout = 0, headersTimeout = 0, bodyTimeout = 0, timings } = request;
      // limits other than the Agent's go on each dispatch (no Agent per limit)
      const limits = headersTimeout === DEFAULT_STALL_MS && bodyTimeout === DEFAULT_STALL_MS ? undefined : { headersTimeout, bodyTimeout };
      return attemptDispatcher(agentFor(connectTimeout), timings, limits);
    },
    proxies: () => (proxies ??= import('./undici-proxy.js').then((module) => timedProxies(new module.UndiciProxies(undici, options.tls, options.connection)))),
    destroy: async () => {
      await Promise.all([...agents.values(), ...(proxies ? [await proxies] : [])].map((agent) => agent.destroy()));
    },
  };
}

/** `proxies` whose dispatchers time each attempt, as the direct ones do. */
function timedProxies(proxies: ProxyDispatchers): ProxyDispatchers {
  return {
    dispatcher: (route, request) => attemptDispatcher(proxies.dispatcher(route, request), request.timings),
    destroy: () => proxies.destroy(),
  };
}
