import { describeSetting } from '../core/describe-value.js';
import { ConfigError } from '../core/errors.js';
import { isIPv4, isIPv6 } from '../core/host-literals.js';
import { isRecord } from '../core/scalar.js';
import type { ConnectionOptions } from '../model/backend.js';

const MEMBERS = new Set(['maxSockets', 'keepAlive', 'idleTimeout', 'socketPath', 'lookup', 'family', 'localAddress']);

/**
 * `client.connection` checked member by member, so a bad value is a ConfigError naming it when
 * it is set, before anything is sent (a transport would throw it deep inside, or ignore it).
 *
 * @example
 * checkConnection({ maxSockets: 6, idleTimeout: 10_000 });
 */
export function checkConnection(value: unknown): ConnectionOptions {
  if (!isRecord(value)) throw new ConfigError(`client.connection must be an object, not ${describeSetting(value)}`);
  for (const key of Object.keys(value)) {
    if (!MEMBERS.has(key)) throw new ConfigError(`client.connection has no setting '${key}' (${[...MEMBERS].join(', ')})`);
  }
  const { maxSockets, keepAlive, idleTimeout, socketPath, lookup, family, localAddress } = value;
  const where = (member: string) => `client.connection.${member}`;
  if (maxSockets !== undefined && !(Number.isInteger(maxSockets) && (maxSockets as number) >= 1) && maxSockets !== Infinity)
    throw new ConfigError(`${where('maxSockets')} must be a whole number of at least 1 (or Infinity), not ${describeSetting(maxSockets)}`);
  if (keepAlive !== undefined && typeof keepAlive !== 'boolean')
    throw new ConfigError(`${where('keepAlive')} must be true or false, not ${describeSetting(keepAlive)}`);
  if (idleTimeout !== undefined && !(typeof idleTimeout === 'number' && Number.isInteger(idleTimeout) && idleTimeout >= 1 && idleTimeout <= 2 ** 31 - 1))
    throw new ConfigError(`${where('idleTimeout')} must be a whole number of milliseconds from 1 to 2^31-1, not ${describeSetting(idleTimeout)}`);
  if (socketPath !== undefined && (typeof socketPath !== 'string' || socketPath === '' || socketPath.includes('\0')))
    throw new ConfigError(`${where('socketPath')} must be the path of a Unix domain socket, not ${describeSetting(socketPath)}`);
  if (lookup !== undefined && typeof lookup !== 'function')
    throw new ConfigError(`${where('lookup')} must be a dns.lookup-compatible function, not ${describeSetting(lookup)}`);
  if (family !== undefined && family !== 4 && family !== 6) throw new ConfigError(`${where('family')} must be 4 or 6, not ${describeSetting(family)}`);
  if (localAddress !== undefined && !(typeof localAddress === 'string' && (isIPv4(localAddress) || isIPv6(localAddress))))
    throw new ConfigError(`${where('localAddress')} must be an IPv4 or IPv6 address, not ${describeSetting(localAddress)}`);
  return Object.freeze({ ...(value as ConnectionOptions) });
}
