import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '../../../lib/core/errors.js';
import { parseNoProxy } from '../../../lib/proxy/no-proxy.js';

type Row = readonly [entries: string, hostname: string, port: number, direct: boolean];

/** curl's no_proxy rules as API.md fixes them: one row per (entries, host, port) → goes direct? */
// prettier-ignore
const RULES: readonly Row[] = [
  // '*' alone: everything
  ['*', 'example.com', 443, true],
  ['*', '10.1.2.3', 80, true],
  ['*', '[::1]', 80, true],
  ['example.com, *', 'other.org', 80, true],
  // a host name: itself and its subdomains, by whole labels
  ['example.com', 'example.com', 443, true],
  ['example.com', 'a.example.com', 443, true],
  ['example.com', 'a.b.example.com', 80, true],
  ['example.com', 'notexample.com', 443, false],
  ['example.com', 'example.com.evil.org', 443, false],
  ['example.com', 'com', 443, false],
  ['a.example.com', 'example.com', 443, false],
  ['localhost', 'localhost', 3000, true],
  ['localhost', 'notlocalhost', 3000, false],
  ['localhost', 'my.localhost', 3000, true],
  // a leading '.' or '*.' is the same as without
  ['.example.com', 'example.com', 443, true],
  ['.example.com', 'a.example.com', 443, true],
  ['.example.com', 'notexample.com', 443, false],
  ['*.example.com', 'example.com', 443, true],
  ['*.example.com', 'a.example.com', 443, true],
  ['*.example.com', 'notexample.com', 443, false],
  // host:port: only that port
  ['example.com:8080', 'example.com', 8080, true],
  ['example.com:8080', 'a.example.com', 8080, true],
  ['example.com:8080', 'example.com', 80, false],
  ['example.com:8080', 'example.com', 443, false],
  ['example.com:8080, example.com:8443', 'example.com', 8443, true],
  ['example.com:8080, example.com', 'example.com', 80, true],
  ['.example.com:443', 'a.example.com', 443, true],
  // IPv4: exact, CIDR; IP entries match IP hosts only, literally
  ['127.0.0.1', '127.0.0.1', 80, true],
  ['127.0.0.1', '127.0.0.2', 80, false],
  ['127.0.0.1', 'localhost', 80, false],
  ['127.0.0.1:8080', '127.0.0.1', 8080, true],
  ['127.0.0.1:8080', '127.0.0.1', 80, false],
  ['127.0.0.1/32', '127.0.0.1', 80, true],
  ['127.0.0.1/32', '127.0.0.2', 80, false],
  ['10.0.0.0/8', '10.255.3.4', 80, true],
  ['10.0.0.0/8', '11.0.0.1', 80, false],
  ['10.1.2.3/8', '10.9.9.9', 80, true],
  ['192.168.0.0/16', '192.168.77.1', 80, true],
  ['192.168.0.0/16', '192.169.0.1', 80, false],
  ['172.16.0.0/12', '172.31.255.255', 80, true],
  ['172.16.0.0/12', '172.32.0.0', 80, false],
  ['0.0.0.0/0', '8.8.8.8', 80, true],
  ['0.0.0.0/0', 'example.com', 80, false],
  ['0.0.0.0/0', '[::1]', 80, false],
  ['10.0.0.1', '10.0.0.1.', 80, true],
  // IPv6 literals, with or without brackets, compared in canonical form
  ['::1', '[::1]', 80, true],
  ['[::1]', '[::1]', 80, true],
  ['::1', '[0:0:0:0:0:0:0:1]', 80, true],
  ['0:0:0:0:0:0:0:1', '[::1]', 80, true],
  ['::1', '::1', 80, true],
  ['::1', '[::2]', 80, false],
  ['::1', '127.0.0.1', 80, false],
  ['::1', 'localhost', 80, false],
  ['2001:DB8::A', '[2001:db8:0:0::a]', 80, true],
  ['[::1]:8080', '[::1]', 8080, true],
  ['[::1]:8080', '[::1]', 80, false],
  ['::ffff:10.0.0.1', '[::ffff:a00:1]', 80, true],
  ['10.0.0.1', '[::ffff:10.0.0.1]', 80, false],
  // IPv6 CIDR
  ['fe80::/10', '[fe80::1:2]', 80, true],
  ['fe80::/10', '[febf::1]', 80, true],
  ['fe80::/10', '[fec0::1]', 80, false],
  ['[fe80::]/10', '[fe80::1]', 80, true],
  ['[2001:db8::/32]:443', '[2001:db8:ffff::1]', 443, true],
  ['[2001:db8::/32]:443', '[2001:db8:ffff::1]', 80, false],
  ['::/0', '[2001:db8::1]', 80, true],
  ['::/0', '10.0.0.1', 80, false],
  // no implicit exemptions
  ['', 'localhost', 80, false],
  ['example.com', 'localhost', 80, false],
  ['example.com', '127.0.0.1', 80, false],
  ['example.com', '[::1]', 80, false],
  // case-insensitive, trailing dots ignored on both sides
  ['Example.COM', 'example.com', 80, true],
  ['example.com', 'A.EXAMPLE.Com', 80, true],
  ['example.com.', 'a.example.com', 80, true],
  ['example.com', 'a.example.com.', 80, true],
  ['.Example.Com.', 'A.Example.com.', 80, true],
  // IDN: entries in Unicode match the punycode a URL's hostname holds
  ['bücher.de', 'xn--bcher-kva.de', 80, true],
  ['bücher.de', 'shop.bücher.de', 80, true],
  // lists: commas and whitespace separate, empty entries are ignored
  ['foo.org, example.com', 'example.com', 80, true],
  ['foo.org example.com', 'example.com', 80, true],
  [' ,foo.org,,\texample.com ,', 'example.com', 80, true],
  [' ,foo.org,,\texample.com ,', 'bar.org', 80, false],
  ['internal, 10.0.0.0/8, ::1, .corp.example:8443', 'svc.corp.example', 8443, true],
  ['internal, 10.0.0.0/8, ::1, .corp.example:8443', 'svc.corp.example', 443, false],
  ['docker_host', 'docker_host', 80, true],
];

describe('parseNoProxy: which hosts go direct', () => {
  it.each(RULES)('%j, %s:%d → direct %p', (entries, hostname, port, direct) => {
    expect(parseNoProxy(entries, 'NO_PROXY').matches(hostname, port)).toBe(direct);
  });

  it.each(RULES)('as an array %j, %s:%d → direct %p', (entries, hostname, port, direct) => {
    const list = entries.split(/[\s,]+/);
    expect(parseNoProxy(list, 'client.proxy.noProxy').matches(hostname, port)).toBe(direct);
  });

  it('trims array entries and ignores empty ones', () => {
    const noProxy = parseNoProxy(['', '  example.com ', ''], 'client.proxy.noProxy');
    expect(noProxy.matches('example.com', 80)).toBe(true);
    expect(parseNoProxy([], 'client.proxy.noProxy').matches('example.com', 80)).toBe(false);
  });
});

describe('parseNoProxy: invalid entries', () => {
  it.each([
    ['10.0.0.0/33', "NO_PROXY: '10.0.0.0/33' is not a valid no_proxy entry: the prefix length must be a number from 0 to 32"],
    ['10.0.0.0/', "NO_PROXY: '10.0.0.0/' is not a valid no_proxy entry: the prefix length must be a number from 0 to 32"],
    ['10.0.0.0/x', "NO_PROXY: '10.0.0.0/x' is not a valid no_proxy entry: the prefix length must be a number from 0 to 32"],
    ['fe80::/129', "NO_PROXY: 'fe80::/129' is not a valid no_proxy entry: the prefix length must be a number from 0 to 128"],
    ['example.com/8', "NO_PROXY: 'example.com/8' is not a valid no_proxy entry: example.com is not an IPv4 address"],
    ['10.0.0.256', "NO_PROXY: '10.0.0.256' is not a valid no_proxy entry: not an IPv4 address; for a range use CIDR, e.g. 192.168.0.0/16"],
    ['192.168.', "NO_PROXY: '192.168.' is not a valid no_proxy entry: not an IPv4 address; for a range use CIDR, e.g. 192.168.0.0/16"],
    ['example.com:http', "NO_PROXY: 'example.com:http' is not a valid no_proxy entry: the port must be a number from 1 to 65535"],
    ['example.com:', "NO_PROXY: 'example.com:' is not a valid no_proxy entry: the port must be a number from 1 to 65535"],
    ['example.com:0', "NO_PROXY: 'example.com:0' is not a valid no_proxy entry: the port must be a number from 1 to 65535"],
    ['example.com:65536', "NO_PROXY: 'example.com:65536' is not a valid no_proxy entry: the port must be a number from 1 to 65535"],
    ['[::1]:x', "NO_PROXY: '[::1]:x' is not a valid no_proxy entry: the port must be a number from 1 to 65535"],
    ['[example.com]', "NO_PROXY: '[example.com]' is not a valid no_proxy entry: brackets hold an IPv6 address"],
    [':::1', "NO_PROXY: ':::1' is not a valid no_proxy entry: :::1 is not an IPv6 address"],
    ['fe80::1%eth0', "NO_PROXY: 'fe80::1%eth0' is not a valid no_proxy entry: fe80::1%eth0 is not an IPv6 address"],
    ...['*example.com', 'a.*.example.com', '192.168.*', '*:8080', '.', '<local>', 'exa!mple.com'].map(
      (entry) =>
        [
          entry,
          `NO_PROXY: '${entry}' is not a valid no_proxy entry: expected '*', a host name, host:port, an IP address or a CIDR range ('*' only alone or as '*.')`,
        ] as const,
    ),
  ])('%j', (entry, message) => {
    expect(() => parseNoProxy(`localhost, ${entry}`, 'NO_PROXY')).toThrow(new ConfigError(message));
  });

  it.each([
    [['example.com', 'foo bar.com'], "client.proxy.noProxy[1]: 'foo bar.com' is not a valid no_proxy entry: one entry per element, without spaces or commas"],
    [['a.com,b.com'], "client.proxy.noProxy[0]: 'a.com,b.com' is not a valid no_proxy entry: one entry per element, without spaces or commas"],
    [['10.0.0.0/33'], "client.proxy.noProxy[0]: '10.0.0.0/33' is not a valid no_proxy entry: the prefix length must be a number from 0 to 32"],
    [['ok.com', 42], 'client.proxy.noProxy[1] must be a string, not a number'],
  ])('array %j', (entries, message) => {
    expect(() => parseNoProxy(entries as string[], 'client.proxy.noProxy')).toThrow(new ConfigError(message));
  });

  it('rejects what is neither a string nor a list', () => {
    expect(() => parseNoProxy({ hosts: [] } as unknown as string[], 'client.proxy.noProxy')).toThrow(
      new ConfigError('client.proxy.noProxy must be a list of host names, not an object'),
    );
  });

  it('shows control characters escaped', () => {
    expect(() => parseNoProxy(['a\u0000b'], 'client.proxy.noProxy')).toThrow(/'a\\u0000b'/);
  });
});
