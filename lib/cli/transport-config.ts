import dns from 'node:dns';
import { isIP } from 'node:net';
import type { HttpConfig } from '../config/http-config.js';
import type { ConnectionOptions, LookupFunction } from '../model/backend.js';
import type { CliTransport, ResolveEntry } from './transport-args.js';

/**
 * Writes the transport flags into the client's configuration: `--unix-socket`, `--resolve`,
 * `-4`/`-6` (`client.connection`), `--no-follow`, `--max-redirs` (`execution.redirects`) and
 * `--connect-timeout` (`execution.timeout.connect`, joined to the `--timeout` already set).
 *
 * @example
 * HttpBuilder.configure((c) => applyTransport(c, transportFlags({ 'no-follow': [true] })));
 */
export function applyTransport(c: HttpConfig, transport: CliTransport): void {
  const connection: { -readonly [K in keyof ConnectionOptions]: ConnectionOptions[K] } = {};
  if (transport.unixSocket !== undefined) connection.socketPath = transport.unixSocket;
  if (transport.family !== undefined) connection.family = transport.family;
  if (transport.resolve.length > 0) {
    const resolver = resolveLookup(transport.resolve);
    connection.lookup = resolver.lookup;
    // the lookup is told only the name: each attempt's port says which entries apply (curl's --resolve is per port)
    c.execution.hooks = { beforeAttempt: (attempt) => resolver.attempting(attempt.url) };
  }
  if (Object.keys(connection).length > 0) c.client.connection = connection;
  if (!transport.follow) c.execution.redirects = { follow: false };
  if (transport.maxRedirs !== undefined) c.execution.redirects = { max: transport.maxRedirs };
  if (transport.connectTimeout !== undefined) c.execution.timeout = { ...c.execution.timeout, connect: transport.connectTimeout };
}

/**
 * A `dns.lookup` that answers `--resolve`'s names with their addresses when the attempt under
 * way is to that name's port, and asks DNS for everything else.
 */
export function resolveLookup(entries: readonly ResolveEntry[]): { lookup: LookupFunction; attempting(url: string): void } {
  let port = 0;
  const lookup: LookupFunction = (hostname: string, options: unknown, callback: (...args: unknown[]) => void) => {
    const entry = entries.find((e) => e.host === hostname.toLowerCase() && e.port === port);
    if (entry === undefined) return dns.lookup(hostname, options as dns.LookupAllOptions, callback as never);
    const family = (options as { family?: unknown } | null)?.family;
    const wanted = family === 4 || family === 6 || family === 'IPv4' || family === 'IPv6' ? (String(family).endsWith('4') ? 4 : 6) : undefined;
    const found = entry.addresses.map((address) => ({ address, family: isIP(address) })).filter((a) => wanted === undefined || a.family === wanted);
    if (found.length === 0) {
      const error = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
      return process.nextTick(() => callback(error));
    }
    if ((options as { all?: unknown } | null)?.all === true) process.nextTick(() => callback(null, found));
    else process.nextTick(() => callback(null, found[0].address, found[0].family));
  };
  return {
    lookup,
    attempting(url: string) {
      const parsed = new URL(url);
      port = parsed.port === '' ? (parsed.protocol === 'https:' ? 443 : 80) : Number(parsed.port);
    },
  };
}
