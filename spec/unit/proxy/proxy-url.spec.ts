import { describe, expect, it } from '@jest/globals';
import { inspect } from 'node:util';
import { ConfigError } from '../../../lib/core/errors.js';
import { parseProxyUrl } from '../../../lib/proxy/proxy-url.js';

function errorOf(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('parseProxyUrl: address and credentials', () => {
  // value, secure, hostname, port, user, password, shown
  it.each([
    ['http://proxy.corp:3128', false, 'proxy.corp', 3128, undefined, undefined, 'http://proxy.corp:3128'],
    ['http://proxy.corp:3128/', false, 'proxy.corp', 3128, undefined, undefined, 'http://proxy.corp:3128'],
    ['http://proxy.corp', false, 'proxy.corp', 80, undefined, undefined, 'http://proxy.corp:80'],
    ['https://proxy.corp', true, 'proxy.corp', 443, undefined, undefined, 'https://proxy.corp:443'],
    ['https://proxy.corp:80', true, 'proxy.corp', 80, undefined, undefined, 'https://proxy.corp:80'],
    ['HTTP://Proxy.CORP:3128', false, 'proxy.corp', 3128, undefined, undefined, 'http://proxy.corp:3128'],
    // no scheme: http://, as curl (HTTP_PROXY=proxy:3128)
    ['proxy:3128', false, 'proxy', 3128, undefined, undefined, 'http://proxy:3128'],
    ['localhost', false, 'localhost', 80, undefined, undefined, 'http://localhost:80'],
    ['  http://proxy:3128\n', false, 'proxy', 3128, undefined, undefined, 'http://proxy:3128'],
    ['http://[::1]:8080', false, '[::1]', 8080, undefined, undefined, 'http://[::1]:8080'],
    ['[::1]:8080', false, '[::1]', 8080, undefined, undefined, 'http://[::1]:8080'],
    ['http://127.0.0.1:3128', false, '127.0.0.1', 3128, undefined, undefined, 'http://127.0.0.1:3128'],
    // user info: percent-decoded, never shown
    ['http://ada:s3cret@proxy:3128', false, 'proxy', 3128, 'ada', 's3cret', 'http://***@proxy:3128'],
    ['http://ada%20l:p%40ss%3Aw%2Fd@proxy:3128', false, 'proxy', 3128, 'ada l', 'p@ss:w/d', 'http://***@proxy:3128'],
    ['http://ada:p@ss@proxy:3128', false, 'proxy', 3128, 'ada', 'p@ss', 'http://***@proxy:3128'],
    ['http://ad%C3%A9:%E2%82%AC@proxy', false, 'proxy', 80, 'adé', '€', 'http://***@proxy:80'],
    ['http://ada@proxy:3128', false, 'proxy', 3128, 'ada', '', 'http://***@proxy:3128'],
    ['http://:s3cret@proxy:3128', false, 'proxy', 3128, '', 's3cret', 'http://***@proxy:3128'],
    ['ada:s3cret@proxy:3128', false, 'proxy', 3128, 'ada', 's3cret', 'http://***@proxy:3128'],
    ['https://ada:s3cret@[::1]', true, '[::1]', 443, 'ada', 's3cret', 'https://***@[::1]:443'],
  ])('%j', (value, secure, hostname, port, user, password, shown) => {
    const address = parseProxyUrl(value, 'client.proxy');
    expect({ ...address, user: address.user, password: address.password }).toEqual({ secure, hostname, port, user, password, shown });
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the point: what a careless template literal prints
    expect(String(address)).toBe(shown);
  });

  // value, socks, hostname, port, user, password, shown
  it.each([
    ['socks5://127.0.0.1', 'socks5', '127.0.0.1', 1080, undefined, undefined, 'socks5://127.0.0.1:1080'],
    ['SOCKS5H://Proxy.CORP:9050', 'socks5h', 'proxy.corp', 9050, undefined, undefined, 'socks5h://proxy.corp:9050'],
    ['socks5h://[::1]:1080/', 'socks5h', '[::1]', 1080, undefined, undefined, 'socks5h://[::1]:1080'],
    ['socks5://ada:p%40ss@proxy', 'socks5', 'proxy', 1080, 'ada', 'p@ss', 'socks5://***@proxy:1080'],
    // RFC 1929 sends user and password as bytes, ':' included
    ['socks5h://a%3Ada:@proxy:1081', 'socks5h', 'proxy', 1081, 'a:da', '', 'socks5h://***@proxy:1081'],
  ])('SOCKS: %j', (value, socks, hostname, port, user, password, shown) => {
    const address = parseProxyUrl(value, 'ALL_PROXY');
    expect({ ...address, user: address.user, password: address.password }).toEqual({ secure: false, socks, hostname, port, user, password, shown });
    expect(inspect(address)).not.toContain('p@ss');
  });

  it('takes a URL object as well', () => {
    const address = parseProxyUrl(new URL('https://ada:s%3Dcret@proxy:8443'), 'client.proxy');
    expect([address.secure, address.hostname, address.port, address.user, address.password]).toEqual([true, 'proxy', 8443, 'ada', 's=cret']);
  });
});

describe('parseProxyUrl: the credentials never leak through serialisation', () => {
  const address = parseProxyUrl('http://ada:s3cret@proxy:3128', 'HTTPS_PROXY');
  const safe = { secure: false, hostname: 'proxy', port: 3128, shown: 'http://***@proxy:3128' };

  it.each([
    ['JSON.stringify', () => JSON.stringify(address)],
    ['util.inspect', () => inspect(address)],
    ['util.inspect, showHidden and getters', () => inspect(address, { showHidden: true, getters: true, depth: 5 })],
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- the point: what a careless template literal prints
    ['a template literal', () => `${String(address)}`],
    ['Object.keys', () => Object.keys(address).join()],
    ['a spread copy', () => inspect({ ...address })],
    ['structuredClone', () => inspect(structuredClone(address))],
  ])('%s', (_how, show) => {
    const text = show();
    expect(text).not.toMatch(/s3cret|ada/);
  });

  it('keeps the public fields serialisable, the credentials behind getters', () => {
    expect(JSON.parse(JSON.stringify(address))).toEqual(safe);
    expect([address.user, address.password]).toEqual(['ada', 's3cret']);
    expect(Object.isFrozen(address)).toBe(true);
  });
});

describe('parseProxyUrl: errors name the source, never the credentials', () => {
  it.each([
    [
      'socks4://ada:s3cret@proxy:1080',
      'HTTPS_PROXY',
      "HTTPS_PROXY: socks4: proxies are not supported; use an http://, https://, socks5:// or socks5h:// proxy ('socks4://***@proxy:1080')",
    ],
    [
      'SOCKS4a://proxy:1080',
      'HTTPS_PROXY',
      "HTTPS_PROXY: socks4a: proxies are not supported; use an http://, https://, socks5:// or socks5h:// proxy ('SOCKS4a://proxy:1080')",
    ],
    ['ftp://proxy', '--proxy', "--proxy: ftp: proxies are not supported; use an http://, https://, socks5:// or socks5h:// proxy ('ftp://proxy')"],
    [
      'socks5://ada:s3cret@proxy:1080/path',
      'client.proxy',
      "client.proxy: a proxy URL is only scheme://[user:password@]host[:port], without path, query or fragment: 'socks5://***@proxy:1080/path'",
    ],
    [
      'socks5h://:s3cret@proxy',
      'ALL_PROXY',
      'ALL_PROXY: the proxy URL socks5h://***@proxy:1080 has a password but no user name; a SOCKS5 login needs both (RFC 1929)',
    ],
    [
      `socks5://${'u'.repeat(256)}:s3cret@proxy`,
      'ALL_PROXY',
      'ALL_PROXY: the user name of the proxy URL socks5://***@proxy:1080 is 256 bytes long; SOCKS5 takes at most 255 (RFC 1929)',
    ],
    [
      `socks5://ada:${'é'.repeat(128)}@proxy`,
      'ALL_PROXY',
      'ALL_PROXY: the password of the proxy URL socks5://***@proxy:1080 is 256 bytes long; SOCKS5 takes at most 255 (RFC 1929)',
    ],
    ['', 'HTTP_PROXY', 'HTTP_PROXY is an empty proxy URL'],
    ['   ', 'HTTP_PROXY', 'HTTP_PROXY is an empty proxy URL'],
    ['http://', 'client.proxy', "client.proxy is not a valid proxy URL: 'http://'"],
    ['http://:3128', 'client.proxy', "client.proxy is not a valid proxy URL: 'http://:3128'"],
    ['http://ada:s3cret@proxy:99999', 'client.proxy', "client.proxy is not a valid proxy URL: 'http://***@proxy:99999'"],
    ['http://ada:s3cret@proxy:port', 'client.proxy', "client.proxy is not a valid proxy URL: 'http://***@proxy:port'"],
    ['http://ada:s3cret@pro xy', 'client.proxy', "client.proxy is not a valid proxy URL: 'http://***@pro xy'"],
    // an unencoded '/', '#' or '?' in the password: hidden up to the last '@' anyway
    ['http://ada:s3/cret@proxy:3128', 'client.proxy', "client.proxy is not a valid proxy URL: 'http://***@proxy:3128'"],
    [
      'http://ada:1#s3cret@proxy',
      'client.proxy',
      "client.proxy: a proxy URL is only scheme://[user:password@]host[:port], without path, query or fragment: 'http://***@proxy'",
    ],
    [
      'http://ada:1?s3cret@proxy',
      'client.proxy',
      "client.proxy: a proxy URL is only scheme://[user:password@]host[:port], without path, query or fragment: 'http://***@proxy'",
    ],
    [
      'http://ada:s3cret@proxy:3128/path',
      'client.proxy',
      "client.proxy: a proxy URL is only scheme://[user:password@]host[:port], without path, query or fragment: 'http://***@proxy:3128/path'",
    ],
    [
      'http://proxy:3128/?x=1',
      'client.proxy',
      "client.proxy: a proxy URL is only scheme://[user:password@]host[:port], without path, query or fragment: 'http://proxy:3128/?x=1'",
    ],
    [
      'http://proxy:3128#top',
      'client.proxy',
      "client.proxy: a proxy URL is only scheme://[user:password@]host[:port], without path, query or fragment: 'http://proxy:3128#top'",
    ],
    ['http://proxy:0', 'client.proxy', "client.proxy: the proxy URL has port 0: 'http://proxy:0'"],
    [
      'http://ada:s3cret@pro\nxy:3128',
      'client.proxy',
      "client.proxy: the proxy URL 'http://***@pro\\nxy:3128' contains a control character (CR, LF, NUL, ...)",
    ],
    ['http://ada:s3%zzcret@proxy:3128', 'HTTPS_PROXY', 'HTTPS_PROXY: the user info of the proxy URL http://***@proxy:3128 has an invalid percent-encoding'],
    ['http://ad%zza:s3cret@proxy:3128', 'HTTPS_PROXY', 'HTTPS_PROXY: the user info of the proxy URL http://***@proxy:3128 has an invalid percent-encoding'],
    [
      'http://ada:s3%0D%0Acret@proxy:3128',
      'HTTPS_PROXY',
      'HTTPS_PROXY: the user info of the proxy URL http://***@proxy:3128 contains an encoded control character',
    ],
    [
      'http://ada%3As3cret@proxy:3128',
      'HTTPS_PROXY',
      "HTTPS_PROXY: the user name of the proxy URL http://***@proxy:3128 cannot contain ':' (%3A decoded; Basic sends user:password)",
    ],
  ])('%j from %s', (value, source, message) => {
    const error = errorOf(() => parseProxyUrl(value, source));
    expect(error.message).toBe(message);
    expect(`${error.message} ${inspect(error)} ${JSON.stringify(error)}`).not.toMatch(/s3|cret|ada/);
    expect(error.cause).toBeUndefined();
  });

  it.each([[42], [null], [{ url: 'http://proxy' }]])('rejects %p, which is no URL', (value) => {
    expect(errorOf(() => parseProxyUrl(value as unknown as string, 'client.proxy')).message).toMatch(
      /^client\.proxy must be a proxy URL \(a string or a URL\), not /,
    );
  });
});
