import { describe, expect, it } from '@jest/globals';
import zlib from 'node:zlib';
import { ParseError } from '../../lib/index.js';
import { canDecode, contentCodings, decompress, defaultAcceptEncoding } from '../../lib/model/decompress.js';
import { ZstdFrames } from '../../lib/model/zstd-frames.js';

// node's decoders, as lib/index.js plugs them in; zstd only where zlib has it (Node ≥ 22.15)
const HAS_ZSTD = typeof (zlib as { createZstdDecompress?: unknown }).createZstdDecompress === 'function';

/** 'x' × 300,000 as one zstd frame with a checksum, in several blocks, made beforehand (Node 20 cannot make one) */
const FRAME = Buffer.from('KLUv/aTgkwQAVAAAEHh4AQD7/znAAgIAEHgDnwR4j3Kbog==', 'base64');
/** a skippable frame of 3 bytes */
const SKIPPABLE = Buffer.from([0x50, 0x2a, 0x4d, 0x18, 3, 0, 0, 0, 1, 2, 3]);

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  await Promise.resolve(); // as a body arrives
  yield bytes;
}

async function all(decoded: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of decoded) parts.push(part);
  return Buffer.concat(parts);
}

describe('the decoders of this runtime', () => {
  it(`Accept-Encoding offers what they undo: ${HAS_ZSTD ? 'gzip, deflate, br, zstd' : 'gzip, deflate, br'}`, () => {
    expect(defaultAcceptEncoding()).toBe(HAS_ZSTD ? 'gzip, deflate, br, zstd' : 'gzip, deflate, br');
    expect(canDecode('zstd')).toBe(HAS_ZSTD);
  });

  it(`zstd is ${HAS_ZSTD ? 'accepted and decoded' : "refused by a ParseError naming 'zstd' and what is supported"}`, async () => {
    if (HAS_ZSTD) {
      expect(contentCodings('zstd', 200)).toEqual(['zstd']);
      expect((await all(decompress(once(FRAME), ['zstd']))).toString()).toBe('x'.repeat(300_000));
    } else {
      expect(() => contentCodings('gzip, zstd', 200)).toThrow(
        new ParseError("Content-Encoding 'zstd' is not supported (gzip, x-gzip, deflate, br are)", { statusCode: 200, contentType: '', text: '' }),
      );
    }
  });

  it('an empty body stays empty, whatever the codings', async () => {
    expect((await all(decompress(nothing(), ['gzip', 'br']))).length).toBe(0);
  });

  it('at most 5 codings are accepted', () => {
    expect(contentCodings('gzip, gzip, gzip, gzip, gzip', 200)).toHaveLength(5);
    expect(() => contentCodings('gzip, gzip, gzip, gzip, gzip, gzip', 200)).toThrow(ParseError);
  });
});

describe('ZstdFrames: whether a zstd body ends where a frame ends', () => {
  function fed(parts: readonly Uint8Array[]): ZstdFrames {
    const frames = new ZstdFrames();
    for (const part of parts) frames.feed(part);
    return frames;
  }

  it('a whole frame (several blocks, a checksum) is complete, in one chunk or byte by byte', () => {
    expect(fed([FRAME]).complete).toBe(true);
    expect(fed([...FRAME].map((byte) => Uint8Array.of(byte))).complete).toBe(true);
  });

  it('a frame cut anywhere is not', () => {
    for (let length = 1; length < FRAME.length; length++) expect([length, fed([FRAME.subarray(0, length)]).complete]).toEqual([length, false]);
  });

  it('frames one after another, and skippable frames, are', () => {
    expect(fed([FRAME, SKIPPABLE, FRAME]).complete).toBe(true);
    expect(fed([SKIPPABLE, FRAME.subarray(0, 10)]).complete).toBe(false);
  });

  it('what is no zstd throws Z_DATA_ERROR', () => {
    const error = (() => {
      try {
        fed([Buffer.from('not zstd at all')]);
      } catch (e) {
        return e as { code?: string };
      }
    })();
    expect(error?.code).toBe('Z_DATA_ERROR');
  });
});

async function* nothing(): AsyncGenerator<Uint8Array> {}
