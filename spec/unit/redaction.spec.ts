import { describe, expect, it } from '@jest/globals';
import { HttpConfig } from '../../lib/config/http-config.js';
import { decodeText } from '../../lib/core/charset.js';
import { DEFAULT_SETTINGS, mergeSettings } from '../../lib/config/settings.js';
import { redactUserInfo } from '../../lib/core/redact.js';

describe('redactUserInfo: no password survives, however the URL is malformed', () => {
  it.each([
    ['http://admin:hunter2@exa mple.com/', 'http://***@exa mple.com/'],
    ['http://admin:hun@ter2@exa mple.com/x?y#z', 'http://***@exa mple.com/x?y#z'],
    ['http:admin:hunter2@exa mple.com/', 'http:***@exa mple.com/'],
    ['http:/admin:hunter2@exa mple.com/', 'http:/***@exa mple.com/'],
    ['  http://admin:hunter2@exa mple.com/', 'http://***@exa mple.com/'],
    ['http://example.com/path@2x.png', 'http://example.com/path@2x.png'],
    // unparseable, with a path character in the password: the user info runs to the last '@'
    ['http://admin:hunter2#x@127.0.0.1/', 'http://***@127.0.0.1/'],
    ['http://admin:hunter2?x@127.0.0.1/', 'http://***@127.0.0.1/'],
    ['http://admin:hunter2/x@exa mple.com/', 'http://***@exa mple.com/'],
  ])('%s → %s', (input, shown) => {
    expect(redactUserInfo(input)).toBe(shown);
    expect(redactUserInfo(input)).not.toContain('hunter2');
  });
});

describe('URL credentials belong to their origin', () => {
  const layer = (block: (c: HttpConfig) => void) => {
    const config = new HttpConfig('client');
    block(config);
    return config;
  };
  const client = mergeSettings(
    DEFAULT_SETTINGS,
    layer((c) => void (c.request.uri = 'https://user:secret@api.example/v1')),
  );

  it('are kept for paths on the same origin, and dropped when a level moves elsewhere', () => {
    expect(client.credentials).toEqual({ scheme: 'basic', user: 'user', password: 'secret', preemptive: false });
    expect(
      mergeSettings(
        client,
        layer((c) => void (c.request.uri.path = 'users')),
      ).credentials,
    ).toEqual({ scheme: 'basic', user: 'user', password: 'secret', preemptive: false });
    expect(
      mergeSettings(
        client,
        layer((c) => void (c.request.uri = 'https://other.example/')),
      ).credentials,
    ).toBeUndefined();
    expect(
      mergeSettings(
        client,
        layer((c) => void (c.request.uri.host = 'other.example')),
      ).credentials,
    ).toBeUndefined();
  });
});

describe('decodeText', () => {
  it('drops a UTF-8 byte order mark', () => {
    expect(decodeText(Buffer.from('\uFEFF{"a":1}', 'utf8'), 'utf-8')).toBe('{"a":1}');
  });
});
