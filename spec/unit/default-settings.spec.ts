import { describe, expect, it } from '@jest/globals';
import { defaultSettings } from '../../lib/config/settings.js';
import type { Decoder } from '../../lib/model/decoder.js';
import { defaultAcceptEncoding, registerDecoders } from '../../lib/model/decompress.js';

// Without node-platform.ts (not imported here): the web's decoders, until a runtime plugs its own in.
const asItIs: Decoder = (body) => body;

describe('the defaults a client starts from', () => {
  it("offer the decoders in use, made once while they stay, made again when a runtime's are plugged in later", () => {
    const first = defaultSettings();
    expect(first.headers.get('accept-encoding')?.[1]).toBe(defaultAcceptEncoding());
    expect(defaultAcceptEncoding()).toMatch(/^gzip, deflate/);
    expect(defaultSettings()).toBe(first);

    // as when the browser entry made a client before the node entry was imported
    registerDecoders(() => [
      ['gzip', asItIs],
      ['zstd', asItIs],
    ]);
    const later = defaultSettings();
    expect(later).not.toBe(first);
    expect(later.headers.get('accept-encoding')?.[1]).toBe('gzip, zstd');
    expect(later.headers.get('user-agent')).toEqual(first.headers.get('user-agent'));
  });
});
