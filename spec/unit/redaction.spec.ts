import { describe, expect, it } from '@jest/globals';
import { HttpConfig } from '../../lib/config/http-config.js';
import { decodeText } from '../../lib/core/charset.js';
import { defaultSettings, mergeSettings } from '../../lib/config/settings.js';
import { isSecretName, redactUrl, redactUserInfo } from '../../lib/core/redact.js';

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

describe('isSecretName: credential-like names by word, not by substring', () => {
  // prettier-ignore
  const hidden = [
    'token', 'access_token', 'refresh_token', 'id_token', 'id_token_hint', 'accessToken', 'accesstoken', 'X-Amz-Security-Token', 'oauth_token',
    'api_key', 'apikey', 'api-key', 'x-api-key', 'X-API-Key', 'apiKey', 'APIKey', 'key', 'private_key', 'privateKey', 'accesskey', 'subscription-key', 'oauth_consumer_key',
    'AWSAccessKeyId', 'password', 'Password', 'passwd', 'pwd', 'pass', 'password2', 'user[password]', 'user[password_confirmation]', 'new-password',
    'secret', 'client_secret', 'clientSecret', 'signature', 'sig', 'X-Amz-Signature', 'X-Goog-Signature', 'oauth_signature', 'hmac', 'X-Amz-Credential',
    'credentials', 'auth', 'authorization', 'session', 'sessionid', 'session_id', 'jsessionid', 'JSESSIONID', 'PHPSESSID', 'ASP.NET_SessionId', 'connect.sid', 'sid',
    'jwt', 'bearer', 'ticket', 'cookie', 'otp', 'pin', 'code', 'auth_code', 'device_code', 'code_verifier', 'oauth_verifier', 'client_assertion', 'SAMLResponse',
  ];
  // prettier-ignore
  const clear = [
    'author', 'country_code', 'monkey', 'passenger', 'keyboard', 'turkey', 'passport', 'bypass', 'secretary', 'tokenizer', 'zip_code', 'status_code',
    'signature_date', 'SignatureMethod', 'SignatureVersion', 'SigAlg', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders', 'X-Amz-Algorithm', 'Key-Pair-Id',
    'state', 'session_state', 'nonce', 'login_hint', 'page', 'q', 'next', 'v', '', '_',
  ];

  it.each(hidden)('%s is a secret', (name) => expect(isSecretName(name)).toBe(true));
  it.each(clear)('%j is not', (name) => expect(isSecretName(name)).toBe(false));

  it('prints the names the contract lists in clear in a URL, credentials beside them hidden', () => {
    expect(redactUrl('https://h/p?author=ada&country_code=FR&monkey=1&passenger=2&access_token=t0k&X-Amz-Signature=abc')).toBe(
      'https://h/p?author=ada&country_code=FR&monkey=1&passenger=2&access_token=***&X-Amz-Signature=***',
    );
  });
});

describe('URL credentials belong to their origin', () => {
  const layer = (block: (c: HttpConfig) => void) => {
    const config = new HttpConfig('client');
    block(config);
    return config;
  };
  const client = mergeSettings(
    defaultSettings(),
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
