import { describe, expect, it } from '@jest/globals';
import { inspect } from 'node:util';
import {
  AbortError,
  ConfigError,
  EncodeError,
  HttpBuilderError,
  HttpException,
  NetworkError,
  ParseError,
  RedirectError,
  ResponseTooLargeError,
  ResultTypeError,
  TimeoutError,
} from '../../lib/index.js';

const headers = { get: (name: string) => (name === 'set-cookie' ? 'session=s3cr3t' : null) };

describe('errors', () => {
  const all: Array<[HttpBuilderError, string, string]> = [
    [new HttpException(404, 'Not Found', headers, { detail: 'x' }), 'HttpException', 'ERR_HTTP'],
    [new TimeoutError('slow', 'read'), 'TimeoutError', 'ERR_TIMEOUT'],
    [new NetworkError('down', 'refused'), 'NetworkError', 'ERR_NETWORK'],
    [new AbortError('stop'), 'AbortError', 'ERR_ABORTED'],
    [new ParseError('bad', { statusCode: 200, contentType: 'application/json', text: '{' }), 'ParseError', 'ERR_PARSE'],
    [new RedirectError('loop'), 'RedirectError', 'ERR_REDIRECT'],
    [new EncodeError('enc'), 'EncodeError', 'ERR_ENCODE'],
    [new ConfigError('cfg'), 'ConfigError', 'ERR_CONFIG'],
    [new ResultTypeError('type'), 'ResultTypeError', 'ERR_RESULT_TYPE'],
    [new ResponseTooLargeError('big'), 'ResponseTooLargeError', 'ERR_RESPONSE_TOO_LARGE'],
    [new HttpBuilderError('other'), 'HttpBuilderError', 'ERR_HTTPBUILDER'],
  ];

  it.each(all)('%p has its literal name and stable code and extends HttpBuilderError and Error', (error, name, code) => {
    expect(error).toBeInstanceOf(HttpBuilderError);
    expect(error).toBeInstanceOf(Error);
    expect([error.name, error.code]).toEqual([name, code]);
    expect(String(error)).toBe(`${name}: ${error.message}`);
  });

  it('takes no code from the caller: each class has its own, which a code option could not change', () => {
    // @ts-expect-error -- no `code` option: a subclass would ignore it
    const error = new ConfigError('bad', { code: 'ERR_OTHER' });
    expect(error.code).toBe('ERR_CONFIG');
  });

  it('keeps the cause', () => {
    const cause = new Error('ECONNREFUSED');
    expect(new NetworkError('down', 'refused', { cause }).cause).toBe(cause);
  });

  it('HttpException carries status, headers and body, but keeps headers and body out of logs', () => {
    const error = new HttpException(401, 'Unauthorized', headers, { token: 'body-secret' });
    expect([error.message, error.statusCode, error.headers.get('set-cookie'), error.body]).toEqual([
      'Unauthorized',
      401,
      'session=s3cr3t',
      { token: 'body-secret' },
    ]);
    for (const text of [inspect(error), JSON.stringify(error)]) {
      expect(text).toContain('401');
      expect(text).not.toContain('s3cr3t');
      expect(text).not.toContain('body-secret');
    }
  });

  it('HttpException names the request in toString() and the first line of its stack, credentials hidden', () => {
    const error = new HttpException(404, 'Not Found', headers, null, { method: 'GET', url: 'https://ada:pw@api.example.com/v1/users/7?api_key=k3y' });
    expect(error.message).toBe('Not Found');
    expect([error.method, error.url]).toEqual(['GET', 'https://***@api.example.com/v1/users/7?api_key=***']);
    expect(String(error)).toBe('HttpException: Not Found (GET https://***@api.example.com/v1/users/7?api_key=***)');
    expect(error.stack?.split('\n')[0]).toBe(String(error));
    expect(inspect(error).split('\n')[0]).toContain('HttpException: Not Found (GET https://***@api.example.com/v1/users/7');
    for (const text of [inspect(error), JSON.stringify(error), String(error)]) {
      expect(text).not.toContain('pw@');
      expect(text).not.toContain('k3y');
    }
  });

  it('ParseError keeps the raw text out of logs but on the error', () => {
    const error = new ParseError('bad', { statusCode: 502, contentType: 'application/json', text: '<html>secret</html>' });
    expect(error.text).toBe('<html>secret</html>');
    expect(JSON.stringify(error)).not.toContain('secret');
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({ statusCode: 502, contentType: 'application/json' });
  });
});
