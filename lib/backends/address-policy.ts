import dns from 'node:dns';
import ipaddr from 'ipaddr.js';
import { AddressBlockedError } from '../core/errors.js';
import { unbracketed } from '../core/host-literals.js';
import type { LookupFunction, PublicOnlyPolicy } from '../model/backend.js';
import { withProxyDial } from './proxy-dial.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** Words for the ranges ipaddr.js names, in a refusal's message. */
const RANGE_WORDS: Readonly<Record<string, string>> = {
  loopback: 'a loopback address',
  private: 'a private address (RFC 1918)',
  linkLocal: 'a link-local address (where cloud metadata answers)',
  carrierGradeNat: 'a carrier-grade NAT address (100.64.0.0/10)',
  uniqueLocal: 'a unique local IPv6 address (fc00::/7)',
  unspecified: 'the unspecified address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  reserved: 'a reserved or documentation address',
};

/**
 * `client.publicOnly` as the transports enforce it, on the very address they are about to dial:
 * public unicast only, IPv4-mapped, IPv4-translated, NAT64 and 6to4 forms judged by the IPv4
 * address inside, `allow` ranges and host names let through. Range classification is
 * ipaddr.js's (what express uses for `trust proxy`).
 */
export class AddressPolicy {
  readonly #allowRanges: ReadonlyArray<[Address, number]>;
  readonly #allowHosts: ReadonlySet<string>;
  /** The hosts of the proxies the client has sent requests through: for the dial to the proxy only, never for a target. */
  readonly #proxyHosts = new Set<string>();

  constructor(policy: PublicOnlyPolicy) {
    this.#allowRanges = policy.allowRanges.map((entry) => (entry.includes('/') ? ipaddr.parseCIDR(entry) : single(ipaddr.parse(entry))));
    this.#allowHosts = new Set(policy.allowHosts);
  }

  /**
   * Lets a proxy's host through by name when the transport dials that proxy (with the lookup
   * proxy-dial.ts's proxyDialLookup finds): the client's proxies are configuration, not user input, and
   * their own address is not subject to the policy. Only that dial: a target on the proxy's host,
   * or named as it, is judged as any target (through an `ssh -D` tunnel, the proxy's loopback is
   * the bastion's).
   */
  exempt(proxyHost: string): void {
    this.#proxyHosts.add(unbracketed(proxyHost).toLowerCase());
  }

  /**
   * A target sent through a proxy, which resolves its name itself: the client resolves it first
   * (with `lookup`) and refuses it when any of its addresses is refused (the proxy may pick any).
   */
  async checkResolved(hostname: string, lookup: LookupFunction): Promise<void> {
    const host = unbracketed(hostname);
    // an IP literal is checked as it is ({@link checkLiteral}): nothing to resolve
    if (this.allowsHost(host) || ipaddr.isValid(host)) return;
    const answers = await new Promise<dns.LookupAddress[]>((resolve, reject) =>
      lookup(host, { all: true }, (error: Error | null, found: dns.LookupAddress[] | string, family?: number) =>
        error ? reject(error) : resolve(Array.isArray(found) ? found : [{ address: found, family: family ?? 4 }]),
      ),
    );
    for (const { address } of answers) this.check(address, host);
  }

  /** Whether `host` (as the URL names it) is let through by name: its addresses are not checked. */
  allowsHost(host: string): boolean {
    return this.#allowHosts.has(host.toLowerCase());
  }

  /** Throws the AddressBlockedError for `address` unless the policy lets it through. */
  check(address: string, host: string): void {
    const why = this.refusal(address);
    if (why !== undefined && !this.allowsHost(host)) throw new AddressBlockedError(address, host, why);
  }

  /** Why `address` is refused (`'a loopback address'`), or `undefined` when it may be dialled. */
  refusal(address: string): string | undefined {
    if (!ipaddr.isValid(address)) return 'not an IP address';
    const ip = embeddedIPv4(ipaddr.parse(address.replace(/%.*$/, '')));
    if (this.#allowRanges.some(([range, bits]) => range.kind() === ip.kind() && ip.match(range, bits))) return undefined;
    const range = ip.range();
    return range === 'unicast' ? undefined : (RANGE_WORDS[range] ?? `in the special-purpose range '${range}'`);
  }

  /** An IP literal host, checked as it is (the transport makes no lookup for one); a name passes to the lookup. */
  checkLiteral(hostname: string): void {
    const host = unbracketed(hostname);
    if (ipaddr.isValid(host)) this.check(host, host);
  }

  /**
   * `lookup` (node's `dns.lookup` by default, or `client.connection.lookup`) with what it answers
   * checked: refused addresses dropped, and when none is left the AddressBlockedError, so the
   * transport never dials a refused one. It carries the lookup for dialling the client's
   * proxies (proxy-dial.ts), which lets their hosts through as well.
   */
  lookup(lookup: LookupFunction = dns.lookup as LookupFunction): LookupFunction {
    const toProxies = this.#checking(lookup, (hostname) => this.allowsHost(hostname) || this.#proxyHosts.has(hostname.toLowerCase()));
    return withProxyDial(
      this.#checking(lookup, (hostname) => this.allowsHost(hostname)),
      toProxies,
    );
  }

  /** `lookup` with its answers checked, those for a host `passes` lets through by name excepted. */
  #checking(lookup: LookupFunction, passes: (hostname: string) => boolean): LookupFunction {
    type Callback = (error: Error | null, address?: string | dns.LookupAddress[], family?: number) => void;
    type Options = dns.LookupOptions | number | Callback;
    return ((hostname: string, options: Options, callback?: Callback) => {
      const all = typeof options === 'object' && options.all === true;
      const done = (typeof options === 'function' ? options : callback)!;
      const asked = { ...(typeof options === 'object' ? options : { family: typeof options === 'number' ? options : undefined }), all: true };
      lookup(hostname, asked, (error: Error | null, answers: dns.LookupAddress[] | string, family?: number) => {
        if (error) return done(error);
        // a lookup of the caller's own may answer one address whatever `all` says
        const list = Array.isArray(answers) ? answers : [{ address: answers, family: family ?? (answers.includes(':') ? 6 : 4) }];
        const allowed = passes(hostname) ? list : list.filter((answer) => this.refusal(answer.address) === undefined);
        const first = list[0]?.address ?? '';
        if (allowed.length === 0) return done(new AddressBlockedError(first, hostname, this.refusal(first) ?? 'it resolved to no address'));
        if (all) return done(null, allowed);
        return done(null, allowed[0].address, allowed[0].family);
      });
    }) as LookupFunction;
  }
}

function single(ip: Address): [Address, number] {
  return [ip, ip.kind() === 'ipv4' ? 32 : 128];
}

/** The IPv4 address an IPv6 one stands for (`::ffff:127.0.0.1`, `64:ff9b::7f00:1`, `2002:7f00:1::`), or the address itself. */
function embeddedIPv4(ip: Address): Address {
  if (ip.kind() === 'ipv4') return ip;
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  const bytes = v6.toByteArray();
  if (range === 'ipv4Mapped' || range === 'rfc6145' || range === 'rfc6052') return new ipaddr.IPv4(bytes.slice(12, 16));
  if (range === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  return ip;
}
