import { describe, expect, it } from '@jest/globals';
import { readProxyEnvironment } from '../../../lib/proxy/proxy-env.js';

describe('readProxyEnvironment', () => {
  const P = 'http://proxy:3128';
  const Q = 'http://other:8080';

  it.each([
    ['nothing set', {}, undefined],
    ['lower case only', { http_proxy: P }, { value: P, variable: 'http_proxy' }],
    ['upper case only', { HTTP_PROXY: P }, { value: P, variable: 'HTTP_PROXY' }],
    ['both: lower case wins', { http_proxy: P, HTTP_PROXY: Q }, { value: P, variable: 'http_proxy' }],
    ['empty lower case: counts as unset, upper case used', { http_proxy: '', HTTP_PROXY: Q }, { value: Q, variable: 'HTTP_PROXY' }],
    ['blank lower case: the same', { http_proxy: ' \t', HTTP_PROXY: Q }, { value: Q, variable: 'HTTP_PROXY' }],
    ['both empty', { http_proxy: '', HTTP_PROXY: '  ' }, undefined],
    ['undefined values', { http_proxy: undefined, HTTP_PROXY: undefined }, undefined],
    ['value trimmed', { http_proxy: `  ${P}\n` }, { value: P, variable: 'http_proxy' }],
    ['mixed case is no proxy variable', { Http_Proxy: P }, undefined],
  ])('%s', (_name, env: Record<string, string | undefined>, http) => {
    expect(readProxyEnvironment(env).http).toEqual(http);
  });

  it('reads each of the four pairs on its own', () => {
    expect(readProxyEnvironment({ http_proxy: P, HTTPS_PROXY: Q, all_proxy: 'socks5h://s', ALL_PROXY: Q, no_proxy: 'localhost', NO_PROXY: '*' })).toEqual({
      http: { value: P, variable: 'http_proxy' },
      https: { value: Q, variable: 'HTTPS_PROXY' },
      all: { value: 'socks5h://s', variable: 'all_proxy' },
      noProxy: { value: 'localhost', variable: 'no_proxy' },
    });
    expect(readProxyEnvironment({ https_proxy: P, HTTPS_PROXY: Q, ALL_PROXY: Q, NO_PROXY: '.corp' })).toEqual({
      http: undefined,
      https: { value: P, variable: 'https_proxy' },
      all: { value: Q, variable: 'ALL_PROXY' },
      noProxy: { value: '.corp', variable: 'NO_PROXY' },
    });
  });

  it('reads no other variable: https targets do not fall back to http_proxy, nor anything to ftp_proxy', () => {
    expect(readProxyEnvironment({ ftp_proxy: P, http_proxy: Q })).toEqual({
      http: { value: Q, variable: 'http_proxy' },
      https: undefined,
      all: undefined,
      noProxy: undefined,
    });
  });

  it('under CGI ALL_PROXY still counts: a request header arrives as HTTP_ALL_PROXY, never as it', () => {
    expect(readProxyEnvironment({ REQUEST_METHOD: 'GET', ALL_PROXY: P, HTTP_ALL_PROXY: Q }).all).toEqual({ value: P, variable: 'ALL_PROXY' });
  });

  it('reads own variables only, never inherited ones', () => {
    const env = Object.create({ http_proxy: P }) as Record<string, string>;
    expect(readProxyEnvironment(env).http).toBeUndefined();
  });

  it('reads process.env by default', () => {
    const saved = { https_proxy: process.env.https_proxy, HTTPS_PROXY: process.env.HTTPS_PROXY };
    try {
      delete process.env.https_proxy;
      process.env.HTTPS_PROXY = P;
      expect(readProxyEnvironment().https).toEqual({ value: P, variable: 'HTTPS_PROXY' });
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('under CGI (REQUEST_METHOD set) ignores HTTP_PROXY, which a request header can set (httpoxy)', () => {
    expect(readProxyEnvironment({ REQUEST_METHOD: 'GET', HTTP_PROXY: P }).http).toBeUndefined();
    expect(readProxyEnvironment({ REQUEST_METHOD: 'GET', http_proxy: P }).http).toEqual({ value: P, variable: 'http_proxy' });
    expect(readProxyEnvironment({ REQUEST_METHOD: 'GET', HTTPS_PROXY: P }).https).toEqual({ value: P, variable: 'HTTPS_PROXY' });
  });
});
