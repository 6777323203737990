import { describe, expect, it } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { ConfigError, HttpBuilder, type Backend } from '../../lib/index.js';
import { MockBackend } from '../../lib/testing.js';
import { checkCompress } from '../../lib/config/compress-options.js';
import { webCompressor, webCompressors } from '../../lib/content/request-compression.js';

const TEXT = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n');

/** `bytes` in chunks of `size` bytes, as a stream gives them. */
async function* chunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) {
    await Promise.resolve(); // as a stream gives them
    yield bytes.subarray(at, at + size);
  }
}

async function joined(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of source) parts.push(part);
  return Buffer.concat(parts);
}

function refused(value: unknown, has?: (coding: string) => boolean): string {
  try {
    checkCompress(value, has);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error(`accepted ${String(value)}`);
}

describe('request.compress, checked when set', () => {
  it('a coding alone, or { encoding, minSize }; minSize 1024 by default; false is off', () => {
    expect(checkCompress('gzip')).toEqual({ encoding: 'gzip', minSize: 1024 });
    expect(checkCompress({ encoding: 'br' })).toEqual({ encoding: 'br', minSize: 1024 });
    expect(checkCompress({ encoding: 'deflate', minSize: 0 })).toEqual({ encoding: 'deflate', minSize: 0 });
    expect(checkCompress(false)).toBeUndefined();
    expect(Object.isFrozen(checkCompress('gzip'))).toBe(true);
  });

  it.each([
    ['zstd', "request.compress must be 'gzip', 'deflate' or 'br', not a string (\"zstd\")"],
    ['GZIP', "request.compress must be 'gzip', 'deflate' or 'br', not a string (\"GZIP\")"],
    [true, "request.compress must be 'gzip', 'deflate', 'br', { encoding, minSize? } or false, not a boolean (true)"],
    [null, "request.compress must be 'gzip', 'deflate', 'br', { encoding, minSize? } or false, not null"],
    [{}, "request.compress.encoding must be 'gzip', 'deflate' or 'br', not undefined"],
    [{ encoding: 'x-gzip' }, "request.compress.encoding must be 'gzip', 'deflate' or 'br', not a string (\"x-gzip\")"],
    [{ encoding: 'gzip', minSize: -1 }, 'request.compress.minSize must be a whole number of bytes from 0, not -1'],
    [{ encoding: 'gzip', minSize: 1.5 }, 'request.compress.minSize must be a whole number of bytes from 0, not 1.5'],
    [{ encoding: 'gzip', minSize: '10' }, 'request.compress.minSize must be a whole number of bytes from 0, not a string'],
    [{ encoding: 'gzip', level: 9 }, "request.compress has no option 'level' (known: encoding, minSize)"],
    [{ encoding: 'gzip', 'x\u001b[31m\nforged': 1 }, "request.compress has no option 'x\\u001b[31m\\nforged' (known: encoding, minSize)"],
  ])('%p is a ConfigError naming the setting and the value', (value, message) => {
    expect(refused(value)).toBe(message);
  });

  it('br where the runtime has no brotli compressor (the browser build without brotli CompressionStream): a ConfigError naming the runtime', () => {
    const noBrotli = (coding: string) => coding !== 'br';
    expect(refused('br', noBrotli)).toBe(
      "request.compress 'br' is not available on a browser: its CompressionStream makes no brotli (use 'gzip' or 'deflate')",
    );
    expect(refused({ encoding: 'br' }, noBrotli)).toMatch(/^request\.compress\.encoding 'br' is not available on a browser/);
    expect(checkCompress('gzip', noBrotli)).toEqual({ encoding: 'gzip', minSize: 1024 });
  });

  it('a bad value at client level fails configure(); at request level the call rejects before anything is sent', async () => {
    expect(() => HttpBuilder.configure((c) => void (c.request.compress = 'zip' as never))).toThrow(ConfigError);
    const mock = new MockBackend();
    const http = HttpBuilder.configure((c) => {
      c.request.uri = 'http://api.test';
      c.client.backend = mock;
    });
    await expect(http.post((c) => void ((c.request.compress = { encoding: 'gzip', minSize: -5 }), (c.request.body = TEXT)))).rejects.toThrow(
      /request\.compress\.minSize .* not -5/,
    );
    await expect(http.post((c) => void (((c.request as unknown as Record<string, unknown>).compres = 'gzip'), (c.request.body = TEXT)))).rejects.toThrow(
      'request.compres is not a setting (misspelled?)',
    );
    expect(mock.calls).toHaveLength(0);
  });
});

describe('request.compress on a MockBackend', () => {
  const client = (mock: Backend) =>
    HttpBuilder.configure((c) => {
      c.request.uri = 'http://api.test';
      c.client.backend = mock;
      c.request.compress = { encoding: 'gzip', minSize: 0 };
    });

  it('mock.calls records the wire bytes (compressed) and the Content-Encoding', async () => {
    const mock = new MockBackend();
    mock.on('POST', '/up').reply(204);
    await client(mock).post((c) => void ((c.request.uri.path = '/up'), (c.request.body = TEXT)));
    const [call] = mock.calls;
    expect(call.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(call.body).toString()).toBe(TEXT);
  });

  it('a HAR recording holds the wire bytes (gzip, base64) with their Content-Encoding, and its replay matches the same compressed request', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'har-compress-'));
    try {
      const file = join(dir, 'upload.har');
      const live = new MockBackend();
      live.on('POST', '/up').reply(204);
      const recording = MockBackend.record(file, live);
      await client(recording).post((c) => void ((c.request.uri.path = '/up'), (c.request.body = TEXT)));
      await recording.close();
      const har = JSON.parse(readFileSync(file, 'utf8')) as {
        log: { entries: Array<{ request: { headers: Array<{ name: string; value: string }>; postData: { text: string; _encoding?: string } } }> };
      };
      const { request } = har.log.entries[0];
      expect(request.headers.find((h) => h.name.toLowerCase() === 'content-encoding')?.value).toBe('gzip');
      expect(request.postData._encoding).toBe('base64');
      expect(zlib.gunzipSync(Buffer.from(request.postData.text, 'base64')).toString()).toBe(TEXT);
      const replay = MockBackend.fromHar(file);
      await client(replay).post((c) => void ((c.request.uri.path = '/up'), (c.request.body = TEXT)));
      replay.assertDone();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('an empty body goes as it is, even with minSize 0', async () => {
    const mock = new MockBackend();
    mock.on('POST', '/up').reply(204);
    await client(mock).post((c) => void ((c.request.uri.path = '/up'), (c.request.body = '')));
    expect(mock.calls[0].headers['content-encoding']).toBeUndefined();
  });

  it("a streamed body with the caller's Content-Length: compared with minSize, then sent chunked (the length counted the bytes before)", async () => {
    const mock = new MockBackend();
    mock.on('POST', '/up').times(2).reply(204);
    const http = HttpBuilder.configure((c) => {
      c.request.uri = 'http://api.test/up';
      c.client.backend = mock;
      c.request.compress = 'gzip';
    });
    const upload = (text: string) =>
      http.post((c) => {
        c.request.headers['Content-Length'] = Buffer.byteLength(text);
        c.request.contentType = 'text/plain';
        c.request.body = Readable.from([Buffer.from(text)]);
      });
    await upload('small');
    await upload(TEXT);
    const [small, big] = mock.calls;
    expect([small.headers['content-encoding'], small.headers['content-length'], small.body?.toString()]).toEqual([undefined, '5', 'small']);
    expect([big.headers['content-encoding'], big.headers['content-length'], big.headers['transfer-encoding']]).toEqual(['gzip', undefined, 'chunked']);
    expect(zlib.gunzipSync(big.body).toString()).toBe(TEXT);
  });

  it("a stream that fails while it is compressed fails the call with the stream's error", async () => {
    const mock = new MockBackend();
    mock.on('POST', '/up').reply(204);
    const failing = new Readable({
      read() {
        this.push(Buffer.from(TEXT));
        this.destroy(new Error('disk gone'));
      },
    });
    const sent = client(mock).post((c) => void ((c.request.uri.path = '/up'), (c.request.contentType = 'text/plain'), (c.request.body = failing)));
    await expect(sent).rejects.toThrow('disk gone');
  });
});

describe('the web compressors (CompressionStream), run on Node', () => {
  it('gzip and deflate everywhere; br only where CompressionStream takes brotli', () => {
    let brotli = true;
    try {
      new CompressionStream('brotli' as never);
    } catch {
      brotli = false;
    }
    expect(webCompressors().map(([coding]) => coding)).toEqual(brotli ? ['gzip', 'deflate', 'br'] : ['gzip', 'deflate']);
  });

  it('gzip, in one piece and streamed in chunks of 7 bytes, decodes to the original', async () => {
    const bytes = Buffer.from(TEXT);
    const gzip = webCompressor('gzip');
    expect(zlib.gunzipSync(await gzip.bytes(bytes)).toString()).toBe(TEXT);
    expect(zlib.gunzipSync(await joined(gzip.stream(chunks(bytes, 7)))).toString()).toBe(TEXT);
  });

  it("deflate is the zlib format (RFC 9110), which a strict inflate takes; never 'deflate-raw'", async () => {
    const deflated = await webCompressor('deflate').bytes(Buffer.from(TEXT));
    expect(deflated[0] & 0x0f).toBe(8); // a zlib header: method 8
    expect(zlib.inflateSync(deflated).toString()).toBe(TEXT);
  });

  it("a failing source fails the compressed stream with the source's own error", async () => {
    const broken = (async function* () {
      yield Buffer.from('some');
      await Promise.resolve();
      throw new Error('source broke');
    })();
    await expect(joined(webCompressor('gzip').stream(broken))).rejects.toThrow('source broke');
  });
});
