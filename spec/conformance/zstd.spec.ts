import { expect, it } from '@jest/globals';
import zlib from 'node:zlib';
import { ParseError } from '../../lib/index.js';
import { conformance } from './kit.js';

// zstd is undone where the runtime's zlib has it (Node ≥ 22.15, Bun), and there only offered
// in Accept-Encoding; elsewhere (Node 20) a zstd body is refused as any unknown coding is.
const zstdZlib = zlib as { createZstdDecompress?: unknown; zstdCompressSync?: (data: string | Buffer) => Buffer };
const HAS_ZSTD = typeof zstdZlib.createZstdDecompress === 'function';

const THOUSAND_X = 'x'.repeat(1000);
/** 'x' × 1000 as one zstd frame, made beforehand: Node 20 cannot make one */
const ZSTD_THOUSAND_X = Buffer.from('KLUv/WDoAk0AABB4eAEA4yuABQ==', 'base64');

conformance(`zstd bodies, on a runtime ${HAS_ZSTD ? 'with' : 'without'} zstd in zlib`, (kit) => {
  function serve(path: string, coding: string, body: Buffer): void {
    kit.server.expect({ method: 'GET', path, respond: { headers: { 'Content-Type': 'text/plain', 'Content-Encoding': coding }, body } });
  }

  const offered = HAS_ZSTD ? 'gzip, deflate, br, zstd' : 'gzip, deflate, br';
  it(`offers ${offered}`, async () => {
    kit.server.expect({ method: 'GET', path: '/offer', respond: { body: 'ok' } });
    await kit.client().get((c) => void (c.request.uri.path = '/offer'));
    expect(kit.server.requests[0].headers['accept-encoding']).toBe(offered);
  });

  if (HAS_ZSTD) {
    const zstd = zstdZlib.zstdCompressSync!;
    // varied text, so the frame is larger than one read and the decoder gets several chunks
    const LINES = Array.from({ length: 20_000 }, (_, i) => `line ${i} of ${(i * 7919) % 10007}`).join('\n');

    it('decodes a zstd body once, whoever decodes it', async () => {
      serve('/zstd', 'zstd', ZSTD_THOUSAND_X);
      expect(await kit.client().get(String, (c) => void (c.request.uri.path = '/zstd'))).toBe(THOUSAND_X);
    });

    it(`decodes a zstd body of many chunks (${LINES.length} characters)`, async () => {
      serve('/zstd-lines', 'zstd', zstd(LINES));
      expect(await kit.client().get(String, (c) => void (c.request.uri.path = '/zstd-lines'))).toBe(LINES);
    });

    it('decodes Content-Encoding: gzip, zstd (zstd undone first)', async () => {
      serve('/gzip-zstd', 'gzip, zstd', zstd(zlib.gzipSync(THOUSAND_X)));
      expect(await kit.client().get(String, (c) => void (c.request.uri.path = '/gzip-zstd'))).toBe(THOUSAND_X);
    });

    it('a corrupt zstd body rejects with ParseError', async () => {
      serve('/bad-zstd', 'zstd', Buffer.from('not zstd at all, not at all'));
      await expect(kit.client().get((c) => void (c.request.uri.path = '/bad-zstd'))).rejects.toBeInstanceOf(ParseError);
    });

    // fetch decodes zstd itself: as with gzip (spec/conformance/faults.spec.ts), it may hand a truncated body over short
    // (Node 22's zlib ends it in silence; Node 24's fails it)
    it(`a truncated zstd body ${kit.traits.detectsTruncatedGzip ? 'rejects with ParseError, not a short result' : 'rejects with ParseError, or comes back short (documented)'}`, async () => {
      const whole = zstd(LINES);
      serve('/short-zstd', 'zstd', whole.subarray(0, whole.length - 16));
      const result = await kit
        .client()
        .get(String, (c) => void (c.request.uri.path = '/short-zstd'))
        .catch((e: unknown) => e);
      if (kit.traits.detectsTruncatedGzip || result instanceof Error) expect(result).toBeInstanceOf(ParseError);
      else expect(LINES.startsWith(result as string) && (result as string).length < LINES.length).toBe(true);
    });
  } else {
    it("a zstd body rejects with ParseError naming 'zstd' and the codings this runtime undoes", async () => {
      serve('/zstd', 'zstd', ZSTD_THOUSAND_X);
      const error = await kit
        .client()
        .get((c) => void (c.request.uri.path = '/zstd'))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ParseError);
      expect((error as ParseError).message).toBe("Content-Encoding 'zstd' is not supported (gzip, x-gzip, deflate, br are)");
    });
  }
});
