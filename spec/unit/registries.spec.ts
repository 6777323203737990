import { describe, expect, it } from '@jest/globals';
import { encodeForm, parseForm } from '../../lib/content/form.js';
import { lookup, lookupKeys, parseMediaType, rememberedLookup } from '../../lib/core/media-type.js';

describe('media types and registry lookup', () => {
  it('parses type and parameters, lower-casing type and charset', () => {
    expect(parseMediaType('Text/Plain; Charset="ISO-8859-1"; q=1')).toEqual({ type: 'text/plain', params: { charset: 'iso-8859-1', q: '1' } });
  });

  it('tries the exact type, the +suffix, the type wildcard, then */*', () => {
    expect(lookupKeys('application/vnd.acme+json')).toEqual(['application/vnd.acme+json', '*/*+json', 'application/*', '*/*']);
    expect(lookupKeys('text/csv')).toEqual(['text/csv', 'text/*', '*/*']);
  });

  it('levels are searched nearest first, each by its most specific key first', () => {
    const request = new Map([['*/*+json', 'request suffix']]);
    const defaults = new Map([
      ['application/json', 'default json'],
      ['*/*+json', 'default suffix'],
      ['*/*', 'fallback'],
    ]);
    expect(lookup([request, defaults], 'application/vnd.acme+json')).toBe('request suffix');
    expect(lookup([request, defaults], 'application/json')).toBe('default json');
    expect(lookup([new Map([['*/*', 'request any']]), defaults], 'application/json')).toBe('request any');
    expect(lookup([defaults], 'image/png')).toBe('fallback');
  });

  it('a remembered lookup answers from the levels, else its own defaults, for each list on its own', () => {
    const client = [new Map([['application/*', 'client any application']])];
    const none: Array<Map<string, string>> = [];
    const parsers = rememberedLookup([
      new Map([
        ['application/json', 'default json'],
        ['*/*', 'fallback'],
      ]),
    ]);
    const encoders = rememberedLookup([new Map([['*/*', 'default encoder']])]);
    expect(parsers(client, 'application/json')).toBe('client any application');
    expect(parsers(client, 'text/plain')).toBe('fallback');
    expect(parsers(none, 'application/json')).toBe('default json');
    // the same list through another lookup: its defaults, not what the first one remembered
    expect(encoders(none, 'application/json')).toBe('default encoder');
    expect(parsers(none, 'application/json')).toBe('default json');
  });
});

describe('forms', () => {
  it('encodes lists by repeating the name, and parses them back', () => {
    const text = encodeForm({ a: ['1', '2'], b: 'x y&z', skip: null });
    expect(text).toBe('a=1&a=2&b=x+y%26z');
    expect(parseForm(text)).toEqual({ a: ['1', '2'], b: 'x y&z' });
  });

  it('rejects a body that is not an object', () => {
    expect(() => encodeForm(['a'])).toThrow(/must be an object/);
  });
});
