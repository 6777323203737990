import { describe, expect, it } from '@jest/globals';
import { encodeText, decodeText } from '../../lib/core/charset.js';
import { EncodeError } from '../../lib/core/errors.js';

// encodeText and decodeText without node:buffer: the same bytes as Buffer.from(text, encoding)
describe('encodeText', () => {
  const TEXT = 'Grüße, naïve café: £5 ¿ok?';

  it.each([
    [undefined, 'utf8'],
    ['UTF-8', 'utf8'],
    ['utf-16le', 'utf16le'],
    ['ISO-8859-1', 'latin1'],
    ['latin1', 'latin1'],
  ] as const)('charset %s: the bytes Buffer gives for %s', (charset, encoding) => {
    expect(Buffer.from(encodeText(TEXT, charset))).toEqual(Buffer.from(TEXT, encoding));
  });

  it('UTF-16LE keeps surrogate pairs and a lone surrogate code unit by code unit', () => {
    const text = '€👍\ud800x';
    expect(Buffer.from(encodeText(text, 'utf-16le'))).toEqual(Buffer.from(text, 'utf16le'));
  });

  it('us-ascii: ASCII text as is, anything beyond is an EncodeError', () => {
    expect(Buffer.from(encodeText('plain ~ text', 'us-ascii')).toString('latin1')).toBe('plain ~ text');
    expect(() => encodeText('café', 'ascii')).toThrow(EncodeError);
    expect(() => encodeText('€', 'iso-8859-1')).toThrow(/beyond ISO-8859-1/);
    expect(() => encodeText('x', 'shift_jis')).toThrow(/charset 'shift_jis'/);
  });
});

describe('decodeText', () => {
  it('drops a UTF-8 BOM from a Buffer and from a plain Uint8Array', () => {
    const bytes = new TextEncoder().encode('\uFEFF{"a":"é"}');
    expect(decodeText(bytes, 'utf-8')).toBe('{"a":"é"}');
    expect(decodeText(Buffer.from(bytes), 'utf8')).toBe('{"a":"é"}');
  });

  it('decodes a view into a larger buffer as its own bytes', () => {
    const bytes = new TextEncoder().encode('xx[1]yy').subarray(2, 5);
    expect(decodeText(bytes, 'utf-8')).toBe('[1]');
  });

  it('replaces bytes that are not UTF-8', () => {
    expect(decodeText(Uint8Array.of(0x61, 0xff, 0x62), 'utf-8')).toBe('a\uFFFDb');
  });

  it('decodes other charsets through TextDecoder', () => {
    expect(decodeText(Uint8Array.of(0x82, 0xa0), 'shift_jis')).toBe('あ');
    expect(decodeText(Uint8Array.of(0xa1), 'iso-8859-2')).toBe('Ą');
  });
});
