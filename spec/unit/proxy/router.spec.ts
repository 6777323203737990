import { describe, expect, it } from '@jest/globals';
import { ConfigError } from '../../../lib/core/errors.js';
import { proxyRouter } from '../../../lib/proxy/router.js';

const HTTPS_TARGET = { secure: true, hostname: 'api.example.com', port: 443 };
const HTTP_TARGET = { secure: false, hostname: 'api.example.com', port: 80 };

describe('proxyRouter', () => {
  it("'env' with no proxy variable, and false, route nothing (no router at all)", () => {
    expect(proxyRouter('env', {})).toBeUndefined();
    expect(proxyRouter(undefined, { no_proxy: 'localhost' })).toBeUndefined();
    expect(proxyRouter(false, { https_proxy: 'http://p:3128' })).toBeUndefined();
  });

  it('env: https_proxy for https targets, http_proxy for http ones; one proxy named twice is one route', () => {
    const router = proxyRouter('env', { https_proxy: 'http://u:pw@p:3128', http_proxy: 'http://u:pw@p:3128' })!;
    const https = router.route(HTTPS_TARGET);
    expect(https).toMatchObject({ secure: false, hostname: 'p', port: 3128, shown: 'http://***@p:3128', hasCredentials: true });
    expect(router.route(HTTP_TARGET)).toBe(https);
    const split = proxyRouter('env', { https_proxy: 'http://p:3128' })!;
    expect(split.route(HTTP_TARGET)).toBeUndefined();
  });

  it("env: all_proxy/ALL_PROXY after the scheme's own variable, as curl; no_proxy applies to it too", () => {
    const router = proxyRouter('env', { https_proxy: 'http://p:3128', ALL_PROXY: 'socks5h://s:1080', no_proxy: 'localhost' })!;
    expect(router.route(HTTPS_TARGET)).toMatchObject({ hostname: 'p', socks: undefined });
    expect(router.route(HTTP_TARGET)).toMatchObject({ hostname: 's', port: 1080, socks: 'socks5h', shown: 'socks5h://s:1080' });
    expect(router.route({ ...HTTP_TARGET, hostname: 'localhost' })).toBeUndefined();
    const lower = proxyRouter('env', { all_proxy: 'socks5://u:pw@low', ALL_PROXY: 'socks5://high' })!;
    const route = lower.route(HTTPS_TARGET)!;
    expect(route).toMatchObject({ hostname: 'low', socks: 'socks5', hasCredentials: true });
    expect(route.socksLogin?.()).toEqual({ user: 'u', password: 'pw' });
    expect(lower.route(HTTP_TARGET)).toBe(route);
    expect(JSON.stringify(route)).not.toContain('pw');
    expect(() => proxyRouter('env', { all_proxy: 'socks4://u:hidden@p' })).toThrow(/all_proxy: socks4/);
  });

  it('an explicit proxy carries both schemes; noProxy exempts; { noProxy } alone keeps the environment', () => {
    const router = proxyRouter({ url: 'https://proxy.internal', noProxy: ['.example.com'] }, { https_proxy: 'http://other:1' })!;
    expect(router.route(HTTPS_TARGET)).toBeUndefined();
    expect(router.route({ secure: false, hostname: 'example.org', port: 80 })).toMatchObject({ secure: true, hostname: 'proxy.internal', port: 443 });
    const env = proxyRouter({ noProxy: ['api.example.com'] }, { https_proxy: 'http://p:3128', no_proxy: '*' })!;
    expect(env.route(HTTPS_TARGET)).toBeUndefined();
    expect(env.route({ ...HTTPS_TARGET, hostname: 'other.example.net' })).toMatchObject({ hostname: 'p' });
  });

  it('each request is decided by its scheme, host and port, whatever was asked just before (the last answer is remembered)', () => {
    const router = proxyRouter('env', { https_proxy: 'http://p:3128', no_proxy: 'api.example.com:8443' })!;
    const proxied = { secure: true, hostname: 'api.example.com', port: 443 };
    const exempt = { ...proxied, port: 8443 };
    expect(router.route(proxied)).toMatchObject({ hostname: 'p' });
    expect(router.route(exempt)).toBeUndefined();
    expect(router.route(proxied)).toMatchObject({ hostname: 'p' });
    expect(router.route({ ...proxied, secure: false })).toBeUndefined(); // no http_proxy
    expect(router.route({ ...proxied, hostname: 'other.example.com' })).toMatchObject({ hostname: 'p' });
    expect(router.route(exempt)).toBeUndefined();
  });

  it('a bad proxy URL or entry fails when the router is made, naming its source and hiding the password', () => {
    expect(() => proxyRouter('env', { HTTPS_PROXY: 'socks4://u:hidden@p:1080' })).toThrow(ConfigError);
    expect(() => proxyRouter('env', { HTTPS_PROXY: 'socks4://u:hidden@p:1080' })).toThrow(/HTTPS_PROXY/);
    expect(() => proxyRouter('env', { HTTPS_PROXY: 'socks4://u:hidden@p:1080' })).not.toThrow(/hidden/);
    expect(() => proxyRouter('env', { https_proxy: 'http://p:3128', NO_PROXY: '10.0.0.0/99' })).toThrow(/NO_PROXY/);
  });

  it('the credentials are not reachable through the route: not enumerable, not inspected', () => {
    const route = proxyRouter('http://alice:s3cret@p:3128')!.route(HTTP_TARGET)!;
    expect(JSON.stringify(route)).not.toContain('s3cret');
    expect(Object.values(route).join(' ')).not.toContain('s3cret');
    // only the answers carry them: Basic up front, as curl sends a proxy URL's credentials
    const answers = route.answers('GET', 'http://api.example.com/');
    expect(answers.first).toBe(`Basic ${Buffer.from('alice:s3cret').toString('base64')}`);
    expect(answers.retry(['Basic realm="p"'])).toBeUndefined(); // a Basic answer sent up front is the one try
  });
});
