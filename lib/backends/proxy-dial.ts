/**
 * How a checking lookup of `client.publicOnly` (address-policy.ts) carries the lookup for dialling
 * the client's proxies, and how the proxy agents find it: a module of its own, so the proxy agents,
 * which every request of the native backend loads, do not load the address policy (ipaddr.js,
 * node:dns) for a client that never sets `client.publicOnly`.
 * @internal
 */
import type { LookupFunction } from '../model/backend.js';

/** Where a checking lookup keeps the one for dialling the client's proxies. */
const PROXY_DIAL = Symbol('the lookup for dialling a proxy');

/** `checking`, a checking lookup, carrying `toProxies`, the one for dialling the client's proxies. */
export function withProxyDial(checking: LookupFunction, toProxies: LookupFunction): LookupFunction {
  return Object.assign(checking, { [PROXY_DIAL]: toProxies });
}

/**
 * The lookup a transport dials one of the client's proxies with, given `client.connection`'s:
 * under `client.publicOnly` the checking lookup's own for proxies, which lets the hosts of the
 * proxies in use through (`AddressPolicy.exempt`); otherwise `lookup` itself. Only for the
 * connection to the proxy: a target is never resolved with it.
 *
 * @example
 * const options = nodeAgentOptions({ ...connection, lookup: proxyDialLookup(connection.lookup) });
 */
export function proxyDialLookup(lookup: LookupFunction | undefined): LookupFunction | undefined {
  return (lookup as (LookupFunction & { [PROXY_DIAL]?: LookupFunction }) | undefined)?.[PROXY_DIAL] ?? lookup;
}
