import { describe, expect, it } from '@jest/globals';
import { isIPv4 as nodeIsIPv4, isIPv6 as nodeIsIPv6 } from 'node:net';
import { domainToASCII as nodeDomainToASCII } from 'node:url';
import { domainToASCII, isIPv4, isIPv6 } from '../../lib/core/host-literals.js';

// host-literals.ts answers as node:net and node:url do, on URL parsing alone
describe('isIPv4 and isIPv6, as node:net', () => {
  it.each(['1.2.3.4', '0.0.0.0', '255.255.255.255', '01.2.3.4', '256.1.1.1', '1.2.3', '1.2.3.4.', ' 1.2.3.4', '1.2.3.4\n', '٣.2.3.4', '::1'])(
    'isIPv4(%j)',
    (text) => {
      expect(isIPv4(text)).toBe(nodeIsIPv4(text));
    },
  );

  it.each([
    '::1',
    '::',
    '1::',
    '::ffff:1.2.3.4',
    '1:2:3:4:5:6:7:8',
    'a:b:c:d:e:f:1.2.3.4',
    'FE80::A',
    '1:2:3:4:5:6:7:8:9',
    '1::2::3',
    'g::1',
    '::1.2.3',
    '1.2.3.4',
    '12345::',
    ':1',
    '1:',
    '::\t1',
    '[::1]',
    '::1 ',
  ])('isIPv6(%j)', (text) => {
    expect(isIPv6(text)).toBe(nodeIsIPv6(text));
  });

  it('takes no zone id (a URL cannot name one)', () => {
    expect(isIPv6('fe80::1%eth0')).toBe(false);
  });
});

describe('domainToASCII, as node:url', () => {
  it.each([
    'exämple.com',
    'Bücher.DE',
    'xn--bcher-kva.de',
    '１２３.com',
    'faß.de',
    '☃.net',
    'Ⅷ.com',
    'ä_b',
    '1.2.ä',
    'ä.1.2',
    'ä.0x1',
    'a@b',
    'ä b',
    'ä:80',
    '\u200bä',
  ])('%j', (host) => {
    expect(domainToASCII(host)).toBe(nodeDomainToASCII(host));
  });

  it("gives '' for what would end a URL's host, where node keeps the part before it", () => {
    expect(domainToASCII('ä/x')).toBe('');
    expect(domainToASCII('ä?x')).toBe('');
    expect(domainToASCII('ä#x')).toBe('');
  });
});
