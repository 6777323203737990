import type { Backend, PublicOnlyPolicy, TransportOptions, WireRequest, WireResponse } from '../model/backend.js';
import { AddressPolicy } from './address-policy.js';
import dns from 'node:dns';
import type { LookupFunction } from '../model/backend.js';

/**
 * `client.publicOnly` on a built-in backend: the transport settings it is made with carry a
 * `lookup` that refuses what the policy refuses (every new connection's name resolution, so
 * every redirect hop and a rebinding name too), and the backend returned checks what no lookup
 * sees before anything is sent: an IP literal host, and a target sent through a proxy (resolved
 * by the client first). The proxies' own hosts are let through when the transport dials the proxy
 * (node's agent for absolute-form requests resolves it with the lookup's own for proxies; the
 * other dials to a proxy make no checked lookup), never as a target's.
 * (A `client.connection.socketPath` beside it is refused by registry.ts, before this module loads.)
 */
export function withAddressPolicy(policy: PublicOnlyPolicy, options: TransportOptions, make: (options: TransportOptions) => Backend): Backend {
  const addresses = new AddressPolicy(policy);
  const lookup = options.connection?.lookup ?? (dns.lookup as LookupFunction);
  const backend = make({ ...options, connection: { ...options.connection, lookup: addresses.lookup(lookup) } });
  return new GuardedBackend(backend, addresses, lookup);
}

class GuardedBackend implements Backend {
  readonly name: string;
  readonly proxies: boolean | undefined;

  constructor(
    readonly inner: Backend,
    private readonly addresses: AddressPolicy,
    private readonly lookup: LookupFunction,
  ) {
    this.name = inner.name;
    this.proxies = inner.proxies;
  }

  async send(request: WireRequest): Promise<WireResponse> {
    this.addresses.checkLiteral(request.hostname);
    if (request.proxy !== undefined) {
      this.addresses.exempt(request.proxy.hostname);
      await this.addresses.checkResolved(request.hostname, this.lookup);
    }
    return this.inner.send(request);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
