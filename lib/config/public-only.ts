import { describeValue } from '../core/describe-value.js';
import { ConfigError } from '../core/errors.js';
import { domainToASCII, isIPv4, isIPv6, unbracketed } from '../core/host-literals.js';
import type { PublicOnlyPolicy } from '../model/backend.js';

/**
 * `client.publicOnly`: `true` to connect only to public unicast addresses, `{ allow }` to also
 * let through the IPs, CIDR ranges (`10.0.0.0/8`, `fd00::/8`) and host names (exact) listed,
 * `false` (the default) for no policy.
 */
export type PublicOnlyChoice = boolean | { readonly allow?: readonly string[] };

/**
 * `client.publicOnly` checked, each `allow` entry named when it is no IP, CIDR range or host
 * name; `undefined` for `false`.
 *
 * @throws {ConfigError} naming the setting and the entry.
 */
export function resolvePublicOnly(choice: PublicOnlyChoice): PublicOnlyPolicy | undefined {
  if (choice === false) return undefined;
  if (choice === true) return Object.freeze({ allowRanges: [], allowHosts: [] });
  const allow: unknown = typeof choice === 'object' && choice !== null ? choice.allow : undefined;
  const known = typeof choice === 'object' && choice !== null && Object.keys(choice).every((key) => key === 'allow');
  if (!known || (allow !== undefined && !Array.isArray(allow))) {
    throw new ConfigError(`client.publicOnly must be true, false or { allow: [...] } (IPs, CIDR ranges, host names), not ${describeValue(choice)}`);
  }
  const allowRanges: string[] = [];
  const allowHosts: string[] = [];
  for (const entry of (allow ?? []) as unknown[]) {
    if (typeof entry !== 'string') throw new ConfigError(`client.publicOnly.allow entries must be strings, not ${describeValue(entry)}`);
    if (isRange(entry)) allowRanges.push(unbracketed(entry));
    else allowHosts.push(hostName(entry));
  }
  return Object.freeze({ allowRanges: Object.freeze(allowRanges), allowHosts: Object.freeze(allowHosts) });
}

/** An IP literal (`10.1.2.3`, `::1`, `[::1]`) or a CIDR range (`10.0.0.0/8`, `fd00::/8`). */
function isRange(entry: string): boolean {
  const [ip, bits, ...rest] = unbracketed(entry).split('/');
  if (rest.length > 0) return false;
  const v4 = isIPv4(ip);
  if (!v4 && !isIPv6(ip)) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits) || Number(bits) > (v4 ? 32 : 128)) {
    throw new ConfigError(`client.publicOnly.allow: '${entry}' has no valid prefix length (0 to ${v4 ? 32 : 128})`);
  }
  return true;
}

function hostName(entry: string): string {
  const ascii = domainToASCII(entry);
  // a number as the last label would be an IPv4 address the URL parser reads its own way
  if (ascii === '' || /^\d+$/.test(ascii.slice(ascii.lastIndexOf('.') + 1))) {
    throw new ConfigError(`client.publicOnly.allow: '${entry}' is no IP address, CIDR range or host name`);
  }
  return ascii;
}
