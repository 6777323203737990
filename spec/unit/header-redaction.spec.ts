// Secrets in headers and in the URLs they carry, as logs, hb -v and HAR files hide them.
import { describe, expect, it } from '@jest/globals';
import { isCredentialHeader, redactUrisInHeader } from '../../lib/core/header-redaction.js';
import { hideReferenceUserInfo, redactReference } from '../../lib/core/redact.js';

describe('isCredentialHeader: by the whole name, as log redaction', () => {
  it.each([
    'Authorization',
    'proxy-authorization',
    'Cookie',
    'Set-Cookie',
    'X-Api-Key',
    'Private-Token',
    'X-Amz-Security-Token',
    'X-Auth-Token',
    'X-CSRF-Token',
  ])('%s is a credential', (name) => expect(isCredentialHeader(name)).toBe(true));
  it.each(['X-Request-Id', 'Content-Type', 'WWW-Authenticate', 'X-Author', 'Location', 'X-Session-Count'])('%s is not', (name) =>
    expect(isCredentialHeader(name)).toBe(false),
  );
});

describe('redactReference: a URI reference for a log line', () => {
  it.each([
    [
      'https://ada:pw@s3.test/b/k?X-Amz-Credential=AKIA&X-Amz-Signature=abc&part=2#f',
      'https://***@s3.test/b/k?X-Amz-Credential=***&X-Amz-Signature=***&part=2#f',
    ],
    ['http://ada:pw@h:99999/x?token=t&q=1', 'http://***@h:99999/x?token=***&q=1'], // no valid URL (the port), no less a secret
    ['//ada:pw@cdn.test/x?sig=s', '//***@cdn.test/x?sig=***'],
    ['/next;jsessionid=s1?page=2&api_key=k#top', '/next;jsessionid=***?page=2&api_key=***#top'],
    ['../up/./x?token=t', '../up/./x?token=***'], // relative: its text as it came, not resolved
    ['?page=3&access_token=t', '?page=3&access_token=***'],
    ['/plain/path', '/plain/path'],
  ])('%s → %s', (reference, shown) => expect(redactReference(reference)).toBe(shown));
});

describe('hideReferenceUserInfo: only the user info, for a file that is replayed', () => {
  it.each([
    ['https://ada:pw@h.test/x?token=t', 'https://***@h.test/x?token=t'],
    ['//ada:pw@h.test/x?token=t', '//***@h.test/x?token=t'],
    ['https://h.test/users/@me?token=t', 'https://h.test/users/@me?token=t'],
    ['/a@b?token=t', '/a@b?token=t'],
  ])('%s → %s', (reference, shown) => expect(hideReferenceUserInfo(reference)).toBe(shown));
});

describe('redactUrisInHeader: the URLs a header value carries', () => {
  const shown = (name: string, value: string) => redactUrisInHeader(name, value, redactReference);

  it('the whole value of Location, Content-Location and Referer; each <target> of a Link', () => {
    expect(shown('location', '/x?sig=s')).toBe('/x?sig=***');
    expect(shown('Content-Location', 'https://u:p@h.test/x')).toBe('https://***@h.test/x');
    expect(shown('Referer', 'https://h.test/login?password=p')).toBe('https://h.test/login?password=***');
    expect(shown('Link', '<https://h.test/2?token=a>; rel="next", </9?token=b>; rel="last"; title="x, y"')).toBe(
      '<https://h.test/2?token=***>; rel="next", </9?token=***>; rel="last"; title="x, y"',
    );
  });

  it('any other header whose value starts as a URL; other values as they are', () => {
    expect(shown('X-Callback', 'https://u:p@hook.test/cb?secret=s')).toBe('https://***@hook.test/cb?secret=***');
    expect(shown('X-Note', 'see https://u:p@h.test/?token=t')).toBe('see https://u:p@h.test/?token=t');
    expect(shown('ETag', '"a@b?token=1"')).toBe('"a@b?token=1"');
  });
});
