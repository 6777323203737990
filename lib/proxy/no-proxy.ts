import { describeValue } from '../core/describe-value.js';
import { ConfigError } from '../core/errors.js';
import { domainToASCII, isIPv4, isIPv6 } from '../core/host-literals.js';
import { escape } from '../core/text.js';

/** Hosts exempted from a proxy. */
export interface NoProxy {
  /**
   * Whether a request to `hostname` (as written in the URL: IPv6 with brackets, any case, maybe a
   * trailing dot) on `port` (the effective one: 443 for `https://host/`) goes direct.
   */
  matches(hostname: string, port: number): boolean;
}

/** An IP entry: the address's top `bits` bits (`prefix`, got by `value >> shift`), maybe one port. */
interface IpRule {
  readonly v6: boolean;
  readonly shift: bigint;
  readonly prefix: bigint;
  readonly port: number | undefined;
}

/**
 * Parses `no_proxy` entries (API.md "Proxies", curl's rules): `*` (everything), a host name
 * (itself and its subdomains, by whole labels; a leading `.` or `*.` changes nothing),
 * `host:port`, an IPv4 or IPv6 literal (`::1` or `[::1]`, `[::1]:8080`), an IPv4 or IPv6 CIDR
 * range. Case and one trailing dot are ignored; no DNS lookup ever, so an IP entry matches IP
 * hosts only and `localhost` is proxied unless listed. An invalid entry throws a
 * `ConfigError` naming `source` and the entry.
 *
 * @example
 * const noProxy = parseNoProxy('.corp.example, 10.0.0.0/8, localhost:8080', 'NO_PROXY');
 * noProxy.matches('git.corp.example', 443); // true
 * noProxy.matches('localhost', 3000); // false
 */
export function parseNoProxy(entries: string | readonly string[], source: string): NoProxy {
  if (typeof entries === 'string') return new Exemptions(entries.split(/[\s,]+/).map((entry) => [entry, source]));
  if (!Array.isArray(entries)) throw new ConfigError(`${source} must be a list of host names, not ${describeValue(entries)}`);
  return new Exemptions(
    entries.map((entry: unknown, i) => {
      if (typeof entry !== 'string') throw new ConfigError(`${source}[${i}] must be a string, not ${describeValue(entry)}`);
      if (/[\s,]/.test(entry.trim())) throw invalid(`${source}[${i}]`, entry, 'one entry per element, without spaces or commas');
      return [entry.trim(), `${source}[${i}]`];
    }),
  );
}

/** Entries parsed once into a name map and IP lists: a match costs a few lookups. */
class Exemptions implements NoProxy {
  readonly #all: boolean = false;
  /** Host name → the ports it is exempt on, `'any'` for all of them. */
  readonly #names = new Map<string, Set<number> | 'any'>();
  readonly #ips: IpRule[] = [];

  constructor(entries: ReadonlyArray<readonly [string, string]>) {
    for (const [entry, source] of entries) {
      if (entry === '') continue;
      const rule = parseEntry(entry, source);
      if (rule === '*') this.#all = true;
      else if ('shift' in rule) this.#ips.push(rule);
      else {
        const ports = this.#names.get(rule.name);
        if (rule.port === undefined) this.#names.set(rule.name, 'any');
        else if (ports === undefined) this.#names.set(rule.name, new Set([rule.port]));
        else if (ports !== 'any') ports.add(rule.port);
      }
    }
  }

  matches(hostname: string, port: number): boolean {
    if (this.#all) return true;
    let host = hostname.toLowerCase().replace(/\.$/, '');
    if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
    const ip = isIPv4(host) ? ipValue(host, false) : host.includes(':') ? ipValue(host, true) : undefined;
    if (ip !== undefined) return this.#ips.some((r) => r.v6 === ip.v6 && (r.port === undefined || r.port === port) && ip.value >> r.shift === r.prefix);
    // eslint-disable-next-line no-control-regex -- URL hostnames are punycode already; raw IDN text is not
    if (/[^\x00-\x7f]/.test(host)) host = domainToASCII(host);
    // the name and each parent domain, whole labels only: a.b.example → b.example → example
    for (let name = host; ; name = name.slice(name.indexOf('.') + 1)) {
      const ports = this.#names.get(name);
      if (ports === 'any' || ports?.has(port)) return true;
      if (!name.includes('.')) return false;
    }
  }
}

/** `'*'`, an IP rule, or a host name (`port` undefined: any port). */
function parseEntry(entry: string, source: string): '*' | IpRule | { readonly name: string; readonly port: number | undefined } {
  const text = entry.toLowerCase();
  if (text === '*') return '*';
  // split off the port: `[v6]:port`, `host:port`; a bare IPv6 literal (two colons or more) has none
  const bracketed = /^\[([^\]]*)\](\/[^:]*)?(?::(.*))?$/.exec(text);
  const colon = text.indexOf(':');
  const single = !bracketed && colon >= 0 && colon === text.lastIndexOf(':');
  const host = bracketed ? bracketed[1] + (bracketed[2] ?? '') : single ? text.slice(0, colon) : text;
  const portText = bracketed ? bracketed[3] : single ? text.slice(colon + 1) : undefined;
  if (portText !== undefined && !(/^\d{1,5}$/.test(portText) && Number(portText) >= 1 && Number(portText) <= 65535)) {
    throw invalid(source, entry, 'the port must be a number from 1 to 65535');
  }
  const port = portText === undefined ? undefined : Number(portText);
  const slash = host.indexOf('/');
  const address = (slash < 0 ? host : host.slice(0, slash)).replace(/\.$/, '');
  // a zone id (`fe80::1%eth0`) passes here, and is refused below as no address a URL can name
  if (bracketed && !isIPv6(address.replace(/%[0-9a-z.:-]+$/, ''))) throw invalid(source, entry, 'brackets hold an IPv6 address');
  const v6 = address.includes(':');
  if (slash >= 0 || isIPv4(address) || v6) {
    const ip = isIPv4(address) ? ipValue(address, false) : v6 ? ipValue(address, true) : undefined;
    if (ip === undefined) throw invalid(source, entry, `${escape(address)} is not an IP${v6 ? 'v6' : 'v4'} address`);
    const width = v6 ? 128 : 32;
    const bitsText = slash < 0 ? String(width) : host.slice(slash + 1);
    if (!/^\d{1,3}$/.test(bitsText) || Number(bitsText) > width) throw invalid(source, entry, `the prefix length must be a number from 0 to ${width}`);
    const shift = BigInt(width - Number(bitsText));
    return { v6, shift, prefix: ip.value >> shift, port };
  }
  const name = address.replace(/^\*?\./, '');
  const ascii = /^[a-z0-9_.-]*$/.test(name) ? name : domainToASCII(name);
  if (ascii === '' || !ascii.split('.').every((label) => /^[a-z0-9_-]+$/.test(label))) {
    throw invalid(source, entry, "expected '*', a host name, host:port, an IP address or a CIDR range ('*' only alone or as '*.')");
  }
  // a numeric last label makes an IPv4 address for URLs (WHATWG): `192.168` would match nothing
  if (/^\d+$/.test(ascii.slice(ascii.lastIndexOf('.') + 1))) throw invalid(source, entry, 'not an IPv4 address; for a range use CIDR, e.g. 192.168.0.0/16');
  return { name: ascii, port };
}

/** An IP address as a number (IPv6 through URL's canonical form: `::`, a dotted tail, zones handled), or undefined. */
function ipValue(text: string, v6: boolean): { v6: boolean; value: bigint } | undefined {
  if (!v6) return { v6, value: text.split('.').reduce((value, part) => (value << 8n) | BigInt(part), 0n) };
  let canonical: string;
  try {
    canonical = new URL(`http://[${text}]/`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const [head, tail] = canonical.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const zeros = Array<string>(8 - groups(head).length - groups(tail).length).fill('0');
  const all = tail === undefined ? groups(head) : [...groups(head), ...zeros, ...groups(tail)];
  return { v6, value: all.reduce((value, group) => (value << 16n) | BigInt(parseInt(group, 16)), 0n) };
}

function invalid(source: string, entry: string, why: string): ConfigError {
  return new ConfigError(`${source}: '${escape(entry)}' is not a valid no_proxy entry: ${why}`);
}
