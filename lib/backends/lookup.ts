import type { LookupFunction } from '../model/backend.js';

/**
 * `client.connection.lookup` as node's sockets call it: node 20 asks for every address
 * (`{ all: true }`, for its happy-eyeballs `autoSelectFamily`), where a `dns.lookup`-style
 * function written for one address answers `(err, address, family)`: that answer becomes the
 * list node wants. No `node:` import: the fetch backend uses it too.
 *
 * @example
 * net.connect({ host: 'service.internal', port: 80, lookup: answeringAll(fixed('10.0.0.5')) });
 */
export function answeringAll(lookup: LookupFunction): LookupFunction {
  return (hostname, options: { all?: boolean } | undefined, callback) =>
    lookup(hostname, options, (error: Error | null, address: unknown, family?: number) => {
      if (options?.all && typeof address === 'string') callback(error, [{ address, family: family ?? (address.includes(':') ? 6 : 4) }]);
      else callback(error, address, family);
    });
}
