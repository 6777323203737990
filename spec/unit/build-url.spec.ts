import { describe, expect, it } from '@jest/globals';
import type { UriParts } from '../../lib/config/settings.js';
import { ConfigError } from '../../lib/core/errors.js';
import { buildTarget } from '../../lib/pipeline/build-url.js';

function uri(parts: Partial<UriParts>): UriParts {
  return {
    scheme: 'http',
    host: '127.0.0.1',
    port: undefined,
    path: '/',
    query: new Map(),
    rawQuery: undefined,
    fragment: undefined,
    raw: undefined,
    ...parts,
  };
}

describe('buildTarget: the origin checked last is kept, by the parts it came from', () => {
  it('origins taking turns each get their own scheme, host and port', () => {
    const a = uri({ scheme: 'HTTPS', host: 'api.example.com', port: '8443', path: '/a' });
    const b = uri({ scheme: 'http', host: 'localhost', port: undefined, path: '/b' });
    for (let i = 0; i < 2; i++) {
      expect(buildTarget(a)).toEqual({ url: 'https://api.example.com:8443/a', secure: true, hostname: 'api.example.com', port: 8443, target: '/a' });
      expect(buildTarget(b)).toEqual({ url: 'http://localhost/b', secure: false, hostname: 'localhost', port: 80, target: '/b' });
    }
    // same host, another port or scheme: another origin
    expect(buildTarget({ ...a, port: '9443' }).url).toBe('https://api.example.com:9443/a');
    expect(buildTarget({ ...a, scheme: 'http' })).toMatchObject({ url: 'http://api.example.com:8443/a', secure: false });
  });

  it('a bad origin is refused every time, also right after a good one and after itself', () => {
    const good = uri({ host: 'example.com' });
    expect(buildTarget(good).hostname).toBe('example.com');
    for (let i = 0; i < 2; i++) {
      expect(() => buildTarget(uri({ host: 'exa mple.com' }))).toThrow(ConfigError);
      expect(() => buildTarget(uri({ host: 'example.com', port: '70000' }))).toThrow(/uri.port '70000'/);
    }
    expect(buildTarget(good).url).toBe('http://example.com/');
  });
});
