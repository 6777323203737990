import { describe, expect, it } from '@jest/globals';
import { AddressPolicy } from '../../../lib/backends/address-policy.js';
import { proxyDialLookup } from '../../../lib/backends/proxy-dial.js';
import { resolvePublicOnly } from '../../../lib/config/public-only.js';
import { AddressBlockedError, ConfigError } from '../../../lib/index.js';
import type { LookupFunction } from '../../../lib/model/backend.js';

const policy = (choice: Parameters<typeof resolvePublicOnly>[0] = true) => new AddressPolicy(resolvePublicOnly(choice)!);

describe('client.publicOnly: which addresses are public', () => {
  const refused = [
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'documentation'],
    ['198.51.100.7', 'documentation'],
    ['203.0.113.5', 'documentation'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['fe80::1', 'link-local'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['64:ff9b::a9fe:a9fe', 'link-local'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:7f00:1::1', 'loopback'],
  ] as const;
  for (const [address, kind] of refused) {
    it(`refuses ${address} (${kind})`, () => {
      expect(policy().refusal(address)).toEqual(expect.any(String));
      expect(() => policy().check(address, 'victim.example')).toThrow(AddressBlockedError);
    });
  }
  for (const address of ['8.8.8.8', '1.1.1.1', '93.184.215.14', '2606:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808']) {
    it(`lets ${address} through`, () => expect(policy().refusal(address)).toBeUndefined());
  }

  it('names the address, the host and why, and carries them', () => {
    const error = (() => {
      try {
        policy().check('169.254.169.254', 'metadata.example');
      } catch (e) {
        return e as AddressBlockedError;
      }
    })()!;
    expect(error).toBeInstanceOf(AddressBlockedError);
    expect([error.code, error.address, error.host]).toEqual(['ERR_ADDRESS_BLOCKED', '169.254.169.254', 'metadata.example']);
    expect(error.message).toMatch(/metadata\.example \(169\.254\.169\.254\): a link-local address/);
  });

  it('allow: IPs, CIDR ranges (mapped forms too) and exact host names', () => {
    const allowing = policy({ allow: ['10.0.0.0/8', '::1', 'intranet.example'] });
    expect(allowing.refusal('10.20.30.40')).toBeUndefined();
    expect(allowing.refusal('::ffff:10.1.1.1')).toBeUndefined();
    expect(allowing.refusal('::1')).toBeUndefined();
    expect(allowing.refusal('127.0.0.1')).toEqual(expect.any(String));
    expect(() => allowing.check('192.168.0.1', 'intranet.example')).not.toThrow();
    expect(() => allowing.check('192.168.0.1', 'sub.intranet.example')).toThrow(AddressBlockedError);
  });

  it('the lookup drops refused answers, and refuses when none is left', async () => {
    const fake =
      (answers: Array<{ address: string; family: number }>): LookupFunction =>
      (_host, _options, callback) =>
        callback(null, answers);
    const ask = (lookup: LookupFunction, all: boolean) =>
      new Promise((resolve, reject) => lookup('rebind.example', { all }, (error: Error | null, ...rest: unknown[]) => (error ? reject(error) : resolve(rest))));
    const mixed = policy().lookup(
      fake([
        { address: '127.0.0.1', family: 4 },
        { address: '8.8.8.8', family: 4 },
      ]),
    );
    await expect(ask(mixed, false)).resolves.toEqual(['8.8.8.8', 4]);
    await expect(ask(mixed, true)).resolves.toEqual([[{ address: '8.8.8.8', family: 4 }]]);
    const internal = policy().lookup(fake([{ address: '10.0.0.5', family: 4 }]));
    await expect(ask(internal, false)).rejects.toThrow(AddressBlockedError);
  });

  it("a proxy's host passes the dial to the proxy only: never a target's check, resolution or lookup", async () => {
    const loopback: LookupFunction = (_host, _options, callback) => callback(null, [{ address: '127.0.0.1', family: 4 }]);
    const ask = (lookup: LookupFunction, host: string) =>
      new Promise((resolve, reject) => lookup(host, {}, (error: Error | null, ...rest: unknown[]) => (error ? reject(error) : resolve(rest))));
    const guard = policy();
    const lookup = guard.lookup(loopback);
    for (const proxyHost of ['Proxy.Internal', '127.0.0.1', '[::1]']) guard.exempt(proxyHost);
    const toProxy = proxyDialLookup(lookup)!;
    await expect(ask(toProxy, 'proxy.internal')).resolves.toEqual(['127.0.0.1', 4]);
    await expect(ask(toProxy, 'other.internal')).rejects.toThrow(AddressBlockedError);
    await expect(ask(lookup, 'proxy.internal')).rejects.toThrow(AddressBlockedError);
    await expect(guard.checkResolved('proxy.internal', loopback)).rejects.toThrow(AddressBlockedError);
    expect(() => guard.check('127.0.0.1', 'proxy.internal')).toThrow(AddressBlockedError);
    expect(() => guard.checkLiteral('127.0.0.1')).toThrow(AddressBlockedError);
    expect(() => guard.checkLiteral('[::1]')).toThrow(AddressBlockedError);
    expect(guard.allowsHost('proxy.internal')).toBe(false);
    // without the policy, the proxy is dialled with client.connection.lookup as it is
    expect(proxyDialLookup(loopback)).toBe(loopback);
    expect(proxyDialLookup(undefined)).toBeUndefined();
  });

  it('checkLiteral: an IP literal host at once, a name left to the lookup', () => {
    expect(() => policy().checkLiteral('[::1]')).toThrow(AddressBlockedError);
    expect(() => policy().checkLiteral('127.0.0.1')).toThrow(AddressBlockedError);
    expect(() => policy().checkLiteral('localhost')).not.toThrow();
  });
});

describe('client.publicOnly: the setting', () => {
  it('refuses what is not true, false or { allow }, naming the bad entry', () => {
    expect(() => resolvePublicOnly({ allow: ['10.0.0.0/33'] })).toThrow(/'10.0.0.0\/33' has no valid prefix length/);
    expect(() => resolvePublicOnly({ allow: ['not a host!'] })).toThrow(/'not a host!' is no IP address, CIDR range or host name/);
    expect(() => resolvePublicOnly({ allow: [7 as unknown as string] })).toThrow(ConfigError);
    expect(() => resolvePublicOnly({ allw: [] } as never)).toThrow(/client.publicOnly must be true, false or \{ allow/);
    expect(resolvePublicOnly(false)).toBeUndefined();
    expect(resolvePublicOnly({ allow: ['Intranet.Example', '[::1]'] })).toEqual({ allowRanges: ['::1'], allowHosts: ['intranet.example'] });
  });
});
