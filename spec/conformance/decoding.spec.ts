import { expect, it } from '@jest/globals';
import zlib from 'node:zlib';
import { ParseError } from '../../lib/index.js';
import { conformance } from './kit.js';

const THOUSAND_X = 'x'.repeat(1000);

conformance('response decoding: content codings and charsets', (kit) => {
  // zstd too where zlib has it (Node ≥ 22.15): spec/conformance/zstd.spec.ts
  const offered = typeof (zlib as { createZstdDecompress?: unknown }).createZstdDecompress === 'function' ? 'gzip, deflate, br, zstd' : 'gzip, deflate, br';
  it(`sends Accept-Encoding: ${offered} by default, and the caller can replace it`, async () => {
    kit.server.expect({ method: 'GET', path: '/enc', respond: { body: 'ok' } });
    const client = kit.client((c) => void (c.request.uri.path = '/enc'));
    await client.get();
    await client.get((c) => {
      c.request.headers['accept-encoding'] = 'identity';
    });
    expect(kit.server.requests.map((r) => r.headers['accept-encoding'])).toEqual([offered, 'identity']);
  });

  it('a gzip body of 1000 x decodes, and the success handler sees Content-Encoding: gzip', async () => {
    kit.server.expect({ method: 'GET', path: '/gzip', respond: { headers: { 'Content-Type': 'text/plain' }, body: THOUSAND_X, encoding: 'gzip' } });
    let encoding: string | null = null;
    const result = await kit.client().get((c) => {
      c.request.uri.path = '/gzip';
      c.response.success((fromServer, body) => {
        encoding = fromServer.headers.get('content-encoding');
        return body;
      });
    });
    expect(result).toBe(THOUSAND_X);
    expect(encoding).toBe('gzip');
  });

  const codings: Array<[string, Buffer]> = [
    ['x-gzip', zlib.gzipSync(THOUSAND_X)],
    ['deflate', zlib.deflateSync(THOUSAND_X)],
    ['deflate', zlib.deflateRawSync(THOUSAND_X)], // raw deflate, as some servers send it
    ['br', zlib.brotliCompressSync(THOUSAND_X)],
    ['gzip, br', zlib.brotliCompressSync(zlib.gzipSync(THOUSAND_X))],
  ];
  for (const [coding, body] of codings) {
    it(`decodes Content-Encoding: ${coding} (${body.length} bytes)`, async () => {
      kit.server.expect({ method: 'GET', path: '/coded', respond: { headers: { 'Content-Type': 'text/plain', 'Content-Encoding': coding }, body } });
      const result = await kit.client().get(String, (c) => void (c.request.uri.path = '/coded'));
      expect(result).toBe(THOUSAND_X);
    });
  }

  // fetch undoes a coding list only when it knows every entry: the pipeline decodes the rest
  for (const coding of ['gzip, identity', 'identity, gzip', 'gzip,', ', gzip']) {
    it(`decodes Content-Encoding: '${coding}' (identity and empty entries are no coding)`, async () => {
      kit.server.expect({
        method: 'GET',
        path: '/listed',
        respond: { headers: { 'Content-Type': 'text/plain', 'Content-Encoding': coding }, body: zlib.gzipSync(THOUSAND_X) },
      });
      expect(await kit.client().get(String, (c) => void (c.request.uri.path = '/listed'))).toBe(THOUSAND_X);
    });
  }

  it('a gzip body that decodes to nothing is no body: null, and no parser runs', async () => {
    kit.server.expect({ method: 'GET', path: '/gzip-empty', respond: { headers: { 'Content-Type': 'text/x-custom' }, body: '', encoding: 'gzip' } });
    let parsed = false;
    const client = kit.client((c) => void (c.request.uri.path = '/gzip-empty'));
    expect(await client.get(String)).toBeNull();
    expect(
      await client.get((c) => {
        c.response.parser('text/x-custom', () => (parsed = true));
      }),
    ).toBeNull();
    expect(parsed).toBe(false);
  });

  it('a gzip JSON body parses', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/gzip-json',
      respond: { headers: { 'Content-Type': 'application/json' }, body: '{"value":"ok-json"}', encoding: 'gzip' },
    });
    expect(await kit.client().get((c) => void (c.request.uri.path = '/gzip-json'))).toEqual({ value: 'ok-json' });
  });

  it('a corrupt gzip body rejects with ParseError', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/bad-gzip',
      respond: { headers: { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' }, body: 'not gzip at all' },
    });
    await expect(kit.client().get((c) => void (c.request.uri.path = '/bad-gzip'))).rejects.toBeInstanceOf(ParseError);
  });

  it('a corrupt br body rejects with ParseError', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/bad-br',
      respond: { headers: { 'Content-Type': 'text/plain', 'Content-Encoding': 'br' }, body: 'not brotli at all, not at all' },
    });
    await expect(kit.client().get((c) => void (c.request.uri.path = '/bad-br'))).rejects.toBeInstanceOf(ParseError);
  });

  it('decodes text/plain; charset=iso-8859-1 (café)', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/latin1',
      respond: { headers: { 'Content-Type': 'text/plain; charset=iso-8859-1' }, body: Buffer.from('café', 'latin1') },
    });
    expect(await kit.client().get((c) => void (c.request.uri.path = '/latin1'))).toBe('café');
  });

  it('decodes a Shift_JIS body', async () => {
    // 日本語 in Shift_JIS
    const body = Buffer.from([0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea]);
    kit.server.expect({ method: 'GET', path: '/sjis', respond: { headers: { 'Content-Type': 'text/plain; charset=Shift_JIS' }, body } });
    expect(await kit.client().get(String, (c) => void (c.request.uri.path = '/sjis'))).toBe('日本語');
  });

  it('an application/x-www-form-urlencoded response parses to an object', async () => {
    kit.server.expect({ method: 'GET', path: '/form', respond: { headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a=1&a=2&b=x+y' } });
    expect(await kit.client().get((c) => void (c.request.uri.path = '/form'))).toEqual({ a: ['1', '2'], b: 'x y' });
  });

  it('an unknown content type parses to a Buffer, and a +json type as JSON', async () => {
    kit.server.expect({ method: 'GET', path: '/bin', respond: { headers: { 'Content-Type': 'application/x-thing' }, body: Buffer.from([1, 2, 3]) } });
    kit.server.expect({ method: 'GET', path: '/problem', respond: { headers: { 'Content-Type': 'application/problem+json' }, body: '{"title":"t"}' } });
    const client = kit.client();
    expect(await client.get((c) => void (c.request.uri.path = '/bin'))).toEqual(Buffer.from([1, 2, 3]));
    expect(await client.get((c) => void (c.request.uri.path = '/problem'))).toEqual({ title: 't' });
  });

  it('invalid JSON rejects with ParseError carrying status and raw text', async () => {
    kit.server.expect({ method: 'GET', path: '/bad-json', respond: { headers: { 'Content-Type': 'application/json' }, body: '{"oops":' } });
    const error = (await kit
      .client()
      .get((c) => void (c.request.uri.path = '/bad-json'))
      .catch((e: unknown) => e)) as ParseError;
    expect(error).toBeInstanceOf(ParseError);
    expect([error.code, error.statusCode, error.contentType, error.text]).toEqual(['ERR_PARSE', 200, 'application/json', '{"oops":']);
  });

  it('an empty chunked JSON body is null, not a parse error', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/empty',
      respond: { headers: { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' } },
    });
    expect(await kit.client().get((c) => void (c.request.uri.path = '/empty'))).toBeNull();
  });
});
