import { expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync, gzipSync, inflateSync } from 'node:zlib';
import { multipart, type Attempt, type ConfigBlock } from '../../lib/index.js';
import type { RecordedRequest } from '../support/test-server.js';
import { conformance } from './kit.js';

/** What the server decodes a request body with, by its Content-Encoding: deflate strictly zlib-wrapped (RFC 9110), as a server expects it. */
const DECODERS: Record<string, (bytes: Buffer) => Buffer> = {
  gzip: (bytes) => gunzipSync(bytes),
  deflate: (bytes) => inflateSync(bytes),
  br: (bytes) => brotliDecompressSync(bytes),
};

/** The body as the server understands it: decoded by its Content-Encoding (none: as it came). */
function decoded(req: RecordedRequest): Buffer {
  const coding = req.headers['content-encoding'];
  if (coding === undefined) return req.body;
  const decode = DECODERS[String(coding)];
  if (decode === undefined) throw new Error(`no decoder for ${String(coding)}`);
  return decode(req.body);
}

/** A server that decodes the request body by its Content-Encoding and answers it back (a body it cannot decode: 400). */
function decodingEcho(req: RecordedRequest, res: ServerResponse): void {
  try {
    res.writeHead(200, { 'Content-Type': 'application/octet-stream' }).end(decoded(req));
  } catch (error) {
    res.writeHead(400, { 'Content-Type': 'text/plain' }).end(String(error));
  }
}

const TEXT = 'compress me, '.repeat(200); // 2600 bytes: above the default minSize
const JSON_BODY = { rows: Array.from({ length: 100 }, (_, i) => ({ id: i, name: `row ${i}` })) };
const CODINGS = ['gzip', 'deflate', 'br'] as const;

conformance('request.compress', (kit) => {
  const echo = (path = '/up', method = 'POST') => kit.server.expect({ method, path, respond: decodingEcho });
  const send = (block: ConfigBlock, client = kit.client()) =>
    client.post(String, (c) => {
      c.request.uri.path = '/up';
      void block.call(c, c);
    });
  const only = () => {
    expect(kit.server.requests).toHaveLength(1);
    return kit.server.requests[0];
  };

  for (const coding of CODINGS) {
    it(`${coding}: a JSON body arrives compressed with Content-Encoding and its compressed Content-Length; the server decodes it to the original`, async () => {
      echo();
      const answer = await send((c) => {
        c.request.compress = coding;
        c.request.contentType = 'application/json';
        c.request.body = JSON_BODY;
      });
      expect(JSON.parse(answer)).toEqual(JSON_BODY);
      const req = only();
      expect(req.headers['content-encoding']).toBe(coding);
      expect(req.chunked).toBe(false);
      expect(Number(req.headers['content-length'])).toBe(req.body.length);
      expect(req.body.length).toBeLessThan(JSON.stringify(JSON_BODY).length / 2);
    });
  }

  it('a form, a string and a Uint8Array are compressed as they are encoded (content type kept)', async () => {
    echo();
    const client = kit.client((c) => void (c.request.compress = { encoding: 'gzip', minSize: 0 }));
    const form = { q: 'a b&c', list: ['1', '2'] };
    const bytes = new Uint8Array(3000).map((_, i) => i % 7);
    expect(await send((c) => void ((c.request.contentType = 'application/x-www-form-urlencoded'), (c.request.body = form)), client)).toBe(
      'q=a+b%26c&list=1&list=2',
    );
    expect(await send((c) => void (c.request.body = 'short text'), client)).toBe('short text');
    const echoed = await client.post(Uint8Array, (c) => void ((c.request.uri.path = '/up'), (c.request.body = bytes)));
    expect(Buffer.from(echoed).equals(Buffer.from(bytes))).toBe(true);
    const types = kit.server.requests.map((r) => [r.headers['content-encoding'], String(r.headers['content-type']).split(';')[0]]);
    expect(types).toEqual([
      ['gzip', 'application/x-www-form-urlencoded'],
      ['gzip', 'text/plain'],
      ['gzip', 'application/octet-stream'],
    ]);
  });

  it('streamed bodies (a Readable, a web ReadableStream, a multipart body) are compressed as they go, without a length; a Blob of known size too', async () => {
    echo();
    const client = kit.client((c) => void (c.request.compress = 'deflate'));
    const chunks = () => [Buffer.from('first chunk, '), Buffer.from(TEXT)];
    const sources: unknown[] = [Readable.from(chunks()), ReadableStream.from(chunks()), new Blob(chunks())];
    for (const source of sources) {
      expect(await send((c) => void ((c.request.contentType = 'text/plain'), (c.request.body = source)), client)).toBe(`first chunk, ${TEXT}`);
    }
    const form = await send((c) => void (c.request.body = multipart((mp) => mp.field('notes', TEXT))), client);
    expect(form).toMatch(`name="notes"\r\nContent-Length: ${TEXT.length}\r\n\r\n${TEXT}\r\n--`);
    for (const req of kit.server.requests) {
      expect(req.headers['content-encoding']).toBe('deflate');
      expect(req.chunked).toBe(true);
    }
  });

  it('a body under minSize goes as it is, without Content-Encoding (a Blob, whose size is known, too); minSize 0 compresses it', async () => {
    echo();
    const small = 'x'.repeat(1023);
    await send((c) => void ((c.request.compress = 'gzip'), (c.request.body = small)));
    await send((c) => void ((c.request.compress = 'gzip'), (c.request.contentType = 'text/plain'), (c.request.body = new Blob([small]))));
    await send((c) => void ((c.request.compress = { encoding: 'gzip', minSize: 0 }), (c.request.body = 'tiny')));
    const [plain, blob, tiny] = kit.server.requests;
    for (const req of [plain, blob]) {
      expect(req.headers['content-encoding']).toBeUndefined();
      expect(req.headers['content-length']).toBe('1023');
      expect(req.body.toString()).toBe(small);
    }
    expect(tiny.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(tiny.body).toString()).toBe('tiny');
  });

  it("a request with its own Content-Encoding is sent as the caller encoded it; a GET without a body is left alone; request false turns a client's off", async () => {
    echo();
    echo('/up', 'GET');
    const client = kit.client((c) => void (c.request.compress = { encoding: 'br', minSize: 0 }));
    const ours = gzipSync(TEXT);
    await send((c) => void ((c.request.headers['Content-Encoding'] = 'gzip'), (c.request.contentType = 'text/plain'), (c.request.body = ours)), client);
    await client.get((c) => void (c.request.uri.path = '/up'));
    await send((c) => void ((c.request.compress = false), (c.request.body = TEXT)), client);
    const [own, get, off] = kit.server.requests;
    expect(own.headers['content-encoding']).toBe('gzip');
    expect(own.body.equals(ours)).toBe(true);
    expect([get.headers['content-encoding'], get.body.length]).toEqual([undefined, 0]);
    expect([off.headers['content-encoding'], off.body.toString()]).toEqual([undefined, TEXT]);
  });

  it('a retry and a 307 redirect resend the same compressed bytes (compressed once per call)', async () => {
    let calls = 0;
    kit.server.expect({
      method: 'PUT',
      path: '/flaky',
      respond: (_req, res) => void (++calls === 1 ? res.writeHead(503).end('busy') : res.writeHead(307, { Location: '/up' }).end()),
    });
    echo('/up', 'PUT');
    const answer = await kit.client().put(String, (c) => {
      c.request.uri.path = '/flaky';
      c.request.compress = 'gzip';
      c.request.body = TEXT;
      c.execution.retry = { limit: 1, backoff: () => 1 };
    });
    expect(answer).toBe(TEXT);
    const bodies = kit.server.requests.map((r) => r.body);
    expect(bodies).toHaveLength(3);
    expect(bodies[1].equals(bodies[0]) && bodies[2].equals(bodies[0])).toBe(true);
    expect(kit.server.requests.map((r) => r.headers['content-encoding'])).toEqual(['gzip', 'gzip', 'gzip']);
  });

  it('a 303 drops the compressed body, and its Content-Encoding with it: the GET that follows has neither', async () => {
    kit.server.expect({ method: 'POST', path: '/form', respond: { status: 303, headers: { Location: '/done' } } });
    kit.server.expect({ method: 'GET', path: '/done', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'done' } });
    const answer = await kit.client().post(String, (c) => {
      c.request.uri.path = '/form';
      c.request.compress = 'gzip';
      c.request.body = TEXT;
    });
    expect(answer).toBe('done');
    const [post, get] = kit.server.requests;
    expect(post.headers['content-encoding']).toBe('gzip');
    expect([get.method, get.headers['content-encoding'], get.body.length]).toEqual(['GET', undefined, 0]);
  });

  it('beforeAttempt sees the compressed bytes and Content-Encoding: a signature over them checks out at the server', async () => {
    const sign = (method: string, target: string, body: Uint8Array | undefined) =>
      createHmac('sha256', 'k')
        .update(`${method} ${target}\n`)
        .update(body ?? new Uint8Array())
        .digest('hex');
    let seenEncoding: string | undefined;
    kit.server.expect({
      method: 'POST',
      path: '/up',
      respond: (req, res) => void res.writeHead(req.headers['x-signature'] === sign(req.method, req.target, req.body) ? 200 : 401).end('signed'),
    });
    const hook = (attempt: Attempt) => {
      seenEncoding = attempt.headers['Content-Encoding'];
      attempt.headers['X-Signature'] = sign(attempt.method, attempt.target, attempt.body);
    };
    const answer = await send((c) => {
      c.request.compress = 'gzip';
      c.request.body = TEXT;
      c.execution.hooks = { beforeAttempt: hook };
    });
    expect(answer).toBe('signed');
    expect(seenEncoding).toBe('gzip');
  });
});
