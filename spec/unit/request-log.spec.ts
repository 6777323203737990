import { describe, expect, it } from '@jest/globals';
import { loggerFromEnvironment } from '../../lib/pipeline/request-log.js';
import { ConfigError } from '../../lib/core/errors.js';
import { redactUrl } from '../../lib/core/redact.js';
import { toLogLine } from '../../lib/config/logger.js';

describe('redactUrl', () => {
  it('hides user info and the values of credential-like query parameters, keeps the rest as is', () => {
    expect(redactUrl('https://ada:pw@api.example.com/x?api_key=s3cret&page=2#top')).toBe('https://***@api.example.com/x?api_key=***&page=2#top');
    expect(redactUrl('http://h/p?access_token=a&Password=b&sig=c&X-Amz-Signature=d&code=e&q=f')).toBe(
      'http://h/p?access_token=***&Password=***&sig=***&X-Amz-Signature=***&code=***&q=f',
    );
    expect(redactUrl('http://h/p?%74oken=a')).toBe('http://h/p?%74oken=***'); // names are compared decoded
    expect(redactUrl('http://h/p?token')).toBe('http://h/p?token'); // no value, nothing to hide
    expect(redactUrl('not a url')).toBe('(unparsable URL)');
    // `;` separates too, in the query and as path parameters; JWTs and CAS tickets are secrets
    expect(redactUrl('http://h/app;jsessionid=ABC123/x;v=2?a=1;token=abc&jwt=eyJ.x.y&ticket=ST-1&b=2')).toBe(
      'http://h/app;jsessionid=***/x;v=2?a=1;token=***&jwt=***&ticket=***&b=2',
    );
    expect(redactUrl('http://h/p?next=/a/b&page=3')).toBe('http://h/p?next=/a/b&page=3');
  });

  it('goes by the words of a name, not by substring: author, country_code, monkey and passenger print in clear', () => {
    expect(redactUrl('http://h/p?author=ada&country_code=FR&monkey=george&passenger=2&keyboard=azerty')).toBe(
      'http://h/p?author=ada&country_code=FR&monkey=george&passenger=2&keyboard=azerty',
    );
    // a credential word as the last word, anywhere for the unmistakable ones, or run together
    expect(redactUrl('http://h/p?client_secret=a&refresh_token=b&x-api-key=c&session_id=d&PHPSESSID=e&user%5Bpassword%5D=f&accessToken=g')).toBe(
      'http://h/p?client_secret=***&refresh_token=***&x-api-key=***&session_id=***&PHPSESSID=***&user%5Bpassword%5D=***&accessToken=***',
    );
    expect(redactUrl('http://h/p;auth_code=a;sessionid=b/x;state=c?X-Amz-Credential=d&X-Amz-Date=e&signature_date=f')).toBe(
      'http://h/p;auth_code=***;sessionid=***/x;state=c?X-Amz-Credential=***&X-Amz-Date=e&signature_date=f',
    );
  });
});

describe('DEBUG', () => {
  it('turns logging on for httpbuilder the way the debug package reads the variable', () => {
    for (const on of ['httpbuilder', 'express,httpbuilder', 'http*', '*', 'a b httpbuilder']) expect(loggerFromEnvironment(on)).toBeInstanceOf(Function);
    for (const off of [undefined, '', 'express', 'httpbuilder-other', '*,-httpbuilder', 'httpbuilder,-http*'])
      expect(loggerFromEnvironment(off)).toBeUndefined();
  });
});

describe('execution.logger values', () => {
  it('takes a function or an object with debug(), false for off; anything else is a ConfigError', () => {
    const lines: string[] = [];
    toLogLine((line) => lines.push(line))!('a');
    toLogLine({ debug: (line: string) => lines.push(`debug ${line}`) })!('b');
    expect(lines).toEqual(['a', 'debug b']);
    expect(toLogLine(false)).toBeUndefined();
    expect(() => toLogLine('stderr' as never)).toThrow(ConfigError);
    expect(() => toLogLine({ info: () => {} } as never)).toThrow(/execution.logger must be/);
  });
});
