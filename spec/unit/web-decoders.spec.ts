import { describe, expect, it } from '@jest/globals';
import zlib from 'node:zlib';
import { NetworkError, ParseError } from '../../lib/index.js';
import { decompressionStreamTakes, webDecoders, webGunzip, webInflate, webUnbrotli } from '../../lib/model/web-decoders.js';
import { toTransportError } from '../../lib/model/transport-error.js';

// The decoders a browser or Worker uses (DecompressionStream), run here on Node's DecompressionStream.

const TEXT = Array.from({ length: 2000 }, (_, i) => `line ${i}: ${(i * 7919) % 10007}`).join('\n');

/** `bytes` in chunks of `size` bytes, as a body arrives. */
async function* chunks(bytes: Uint8Array, size = bytes.length): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) {
    await Promise.resolve(); // as a body arrives
    yield bytes.subarray(at, at + size);
  }
}

async function text(decoded: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const part of decoded) parts.push(part);
  return Buffer.concat(parts).toString('utf8');
}

function failure(decoded: AsyncIterable<Uint8Array>): Promise<unknown> {
  return text(decoded).then(
    () => 'no error',
    (error: unknown) => error,
  );
}

/** What the pipeline makes of a decoder's failure. */
function asPipelineError(error: unknown): unknown {
  return toTransportError(error, 'http://127.0.0.1/coded', { statusCode: 200, contentType: 'text/plain' });
}

describe('web decoders (DecompressionStream)', () => {
  const gzipped = zlib.gzipSync(TEXT);

  it(`gzip in one chunk and in chunks of 7 bytes (${gzipped.length} bytes)`, async () => {
    expect(await text(webGunzip(chunks(gzipped)))).toBe(TEXT);
    expect(await text(webGunzip(chunks(gzipped, 7)))).toBe(TEXT);
  });

  it('deflate: zlib-wrapped and raw, told apart by the header bytes', async () => {
    const wrapped = zlib.deflateSync(TEXT);
    const raw = zlib.deflateRawSync(TEXT);
    expect(await text(webInflate(chunks(wrapped, 100), wrapped.subarray(0, 100)))).toBe(TEXT);
    expect(await text(webInflate(chunks(raw, 100), raw.subarray(0, 100)))).toBe(TEXT);
  });

  it('a truncated gzip body is an error (a ParseError in the pipeline), not a short result', async () => {
    const error = await failure(webGunzip(chunks(gzipped.subarray(0, gzipped.length - 8), 64)));
    expect(asPipelineError(error)).toBeInstanceOf(ParseError);
  });

  it('a corrupt gzip body is an error (a ParseError in the pipeline)', async () => {
    const error = await failure(webGunzip(chunks(Buffer.from('not gzip at all'))));
    expect(asPipelineError(error)).toBeInstanceOf(ParseError);
  });

  it("the body's own failure surfaces as it is (not as a decoder's)", async () => {
    const reset = new NetworkError('the connection was reset', 'reset');
    async function* failing(): AsyncGenerator<Uint8Array> {
      yield* chunks(gzipped.subarray(0, 20));
      throw reset;
    }
    expect(await failure(webGunzip(failing()))).toBe(reset);
  });

  it('a reader that stops early stops reading the body', async () => {
    let finished = false;
    async function* body(): AsyncGenerator<Uint8Array> {
      try {
        yield* chunks(gzipped, 16);
      } finally {
        finished = true;
      }
    }
    for await (const part of webGunzip(body())) {
      expect(part.length).toBeGreaterThan(0);
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(finished).toBe(true);
  });

  it('br is offered exactly where DecompressionStream takes brotli', () => {
    const codings = webDecoders().map(([coding]) => coding);
    expect(codings).toEqual(decompressionStreamTakes('brotli') ? ['gzip', 'x-gzip', 'deflate', 'br'] : ['gzip', 'x-gzip', 'deflate']);
  });

  it(`br ${decompressionStreamTakes('brotli') ? 'decodes' : 'is absent on this runtime'}`, async () => {
    if (decompressionStreamTakes('brotli')) {
      expect(await text(webUnbrotli(chunks(zlib.brotliCompressSync(TEXT), 50)))).toBe(TEXT);
    } else {
      expect(() => new DecompressionStream('brotli' as 'gzip')).toThrow();
    }
  });
});
