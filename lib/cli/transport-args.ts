import { isIP } from 'node:net';
import { MAX_TIMER_MS } from '../config/execution-options.js';
import { UsageError } from './failure.js';

/** One `--resolve host:port:addr[,addr...]`: connections to `host` on `port` go to these addresses. */
export interface ResolveEntry {
  /** Lower case, as URLs give host names. */
  readonly host: string;
  readonly port: number;
  /** Tried in this order, as curl does, until one connects. */
  readonly addresses: readonly string[];
}

/** How hb connects and follows, as curl's flags of the same names say. */
export interface CliTransport {
  /** `--unix-socket <path>`: every connection to this Unix domain socket (the URL still gives Host and path). */
  readonly unixSocket: string | undefined;
  /** `--resolve host:port:addr` (repeatable): that host on that port is these addresses, without DNS. */
  readonly resolve: readonly ResolveEntry[];
  /** `-4` / `-6`: resolve names to IPv4 / IPv6 addresses only. */
  readonly family: 4 | 6 | undefined;
  /** `--no-follow`: a 3xx is the answer (exit 0), not followed. */
  readonly follow: boolean;
  /** `--max-redirs <n>`: n hops allowed (curl's count); one more fails. */
  readonly maxRedirs: number | undefined;
  /** `--connect-timeout <ms>`: limit for TCP and TLS set-up of each connection; `undefined` (or 0) for none. */
  readonly connectTimeout: number | undefined;
}

/** The transport options, spread into args.ts's OPTIONS (each `multiple`, so a repeat of a single one is an error). */
export const TRANSPORT_OPTIONS = {
  'unix-socket': { type: 'string', multiple: true },
  resolve: { type: 'string', multiple: true },
  ipv4: { type: 'boolean', short: '4', multiple: true },
  ipv6: { type: 'boolean', short: '6', multiple: true },
  'no-follow': { type: 'boolean', multiple: true },
  'max-redirs': { type: 'string', multiple: true },
  'connect-timeout': { type: 'string', multiple: true },
} as const;

/** What parseArgs gave for {@link TRANSPORT_OPTIONS}. */
export interface TransportValues {
  readonly 'unix-socket'?: string[];
  readonly resolve?: string[];
  readonly ipv4?: boolean[];
  readonly ipv6?: boolean[];
  readonly 'no-follow'?: boolean[];
  readonly 'max-redirs'?: string[];
  readonly 'connect-timeout'?: string[];
}

/**
 * Reads the transport options, checking everything that can be checked before sending.
 *
 * @throws {UsageError} naming the flag.
 * @example
 * transportFlags({ resolve: ['api.test:443:127.0.0.1'], 'max-redirs': ['3'] });
 * // { resolve: [{ host: 'api.test', port: 443, addresses: ['127.0.0.1'] }], maxRedirs: 3, follow: true, ... }
 */
export function transportFlags(values: TransportValues): CliTransport {
  const unixSocket = once(values['unix-socket'], '--unix-socket');
  if (unixSocket === '' || unixSocket?.includes('\0')) throw new UsageError('--unix-socket needs the path of a Unix domain socket');
  if (values.ipv4 !== undefined && values.ipv6 !== undefined) throw new UsageError('-4 and -6 cannot be combined');
  const follow = values['no-follow'] === undefined;
  const maxRedirs = count(once(values['max-redirs'], '--max-redirs'), '--max-redirs', Number.MAX_SAFE_INTEGER);
  if (!follow && maxRedirs !== undefined) throw new UsageError('--no-follow and --max-redirs cannot be combined');
  return {
    unixSocket,
    resolve: (values.resolve ?? []).map(resolveEntry),
    family: values.ipv4 !== undefined ? 4 : values.ipv6 !== undefined ? 6 : undefined,
    follow,
    maxRedirs,
    // 0: no limit, as --timeout 0
    connectTimeout: count(once(values['connect-timeout'], '--connect-timeout'), '--connect-timeout', MAX_TIMER_MS) || undefined,
  };
}

/** `host:port:addr[,addr...]`, an IPv6 address in brackets or not (curl takes both). */
function resolveEntry(text: string): ResolveEntry {
  const match = /^([^:[\]]+):(\d{1,5}):(.+)$/.exec(text);
  const port = Number(match?.[2]);
  if (match === null || port < 1 || port > 65_535) throw new UsageError(`--resolve expects host:port:address, got '${text}'`);
  const addresses = match[3].split(',').map((given) => {
    const address = given.trim().replace(/^\[(.*)\]$/, '$1');
    if (isIP(address) === 0) throw new UsageError(`--resolve ${match[1]}:${match[2]}: '${given}' is not an IP address`);
    return address;
  });
  return { host: match[1].toLowerCase(), port, addresses };
}

function once<T>(values: readonly T[] | undefined, option: string): T | undefined {
  if (values !== undefined && values.length > 1) throw new UsageError(`${option} given more than once`);
  return values?.[0];
}

function count(text: string | undefined, option: string, max: number): number | undefined {
  if (text === undefined) return undefined;
  if (/^\d+$/.test(text) && Number(text) <= max) return Number(text);
  throw new UsageError(`${option} expects a whole number ${max === Number.MAX_SAFE_INTEGER ? '>= 0' : `from 0 to ${max}`}, got '${text}'`);
}
