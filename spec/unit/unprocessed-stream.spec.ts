// Which transport errors say that the server did nothing with a request (unprocessed-stream.ts),
// and the pipeline's one resend of such a request, whatever its method, when its body is in
// memory. Real server refusals, on every backend: spec/conformance/http2-refused-stream.spec.ts.
import { describe, expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import { HttpBuilder, NetworkError, type Backend, type WireResponse } from '../../lib/index.js';
import { unprocessedStream } from '../../lib/pipeline/unprocessed-stream.js';

/**
 * node's error for a stream asked of a session that received GOAWAY (Node 20 and 22 throw it from
 * `request()`; Node 24 makes the stream and cancels it when the session goes, so it is written
 * out here rather than provoked).
 */
const goawaySessionError = () => Object.assign(new Error('New streams cannot be created after receiving a GOAWAY'), { code: 'ERR_HTTP2_GOAWAY_SESSION' });

const streamError = (name: string) => Object.assign(new Error(`Stream closed with error code ${name}`), { code: 'ERR_HTTP2_STREAM_ERROR' });

describe('unprocessedStream', () => {
  it("is true for node's ERR_HTTP2_GOAWAY_SESSION (no stream was opened)", () => {
    expect(unprocessedStream(goawaySessionError())).toBe(true);
  });

  it('is true for a stream closed with REFUSED_STREAM, as it is or as the cause of a wrapper (fetch’s TypeError)', () => {
    expect(unprocessedStream(streamError('NGHTTP2_REFUSED_STREAM'))).toBe(true);
    expect(unprocessedStream(new TypeError('fetch failed', { cause: streamError('NGHTTP2_REFUSED_STREAM') }))).toBe(true);
  });

  it('is false for a stream reset with any other code, a reset connection, a GOAWAY of undici, and what is no error', () => {
    for (const name of ['NGHTTP2_INTERNAL_ERROR', 'NGHTTP2_PROTOCOL_ERROR', 'NGHTTP2_ENHANCE_YOUR_CALM', '7'])
      expect(unprocessedStream(streamError(name))).toBe(false);
    expect(unprocessedStream(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))).toBe(false);
    expect(unprocessedStream(Object.assign(new Error('HTTP/2: "GOAWAY" frame received with code 0'), { code: 'UND_ERR_SOCKET' }))).toBe(false);
    expect(unprocessedStream(Object.assign(new Error('NGHTTP2_REFUSED_STREAM'), { code: 'ERR_SOMETHING_ELSE' }))).toBe(false);
    for (const value of [undefined, null, 'ERR_HTTP2_GOAWAY_SESSION', 7]) expect(unprocessedStream(value)).toBe(false);
  });

  it('looks no deeper than 4 causes (a cycle of causes ends)', () => {
    const cyclic: Error & { cause?: unknown } = new Error('a');
    cyclic.cause = cyclic;
    expect(unprocessedStream(cyclic)).toBe(false);
  });
});

describe('the resend of a request the server did not process', () => {
  const ok = (): WireResponse => ({
    statusCode: 200,
    message: 'OK',
    headers: [['content-type', 'text/plain']],
    body: Readable.from([Buffer.from('ok')]),
    decoded: true,
    discard: () => {},
  });

  /** A backend whose first `failures` sends fail with node's ERR_HTTP2_GOAWAY_SESSION; the bodies it was given, as text. */
  function failingBackend(failures: number): Backend & { bodies: string[] } {
    const bodies: string[] = [];
    return {
      name: 'goaway',
      bodies,
      send(request) {
        const body = request.body;
        bodies.push(body === undefined ? '' : body.bytes ? Buffer.from(body.bytes).toString() : 'streamed');
        return bodies.length <= failures ? Promise.reject(goawaySessionError()) : Promise.resolve(ok());
      },
      close: () => Promise.resolve(),
    };
  }
  const client = (backend: Backend) =>
    HttpBuilder.configure((c) => {
      c.request.uri = 'https://127.0.0.1:9/'; // never contacted: the backend is in memory
      c.client.backend = backend;
    });

  it('a POST is sent again once with the same body; a second failure in a row rejects with NetworkError reason reset', async () => {
    const once = failingBackend(1);
    const post = (http: HttpBuilder) => http.post(String, (c) => void ((c.request.contentType = 'application/json'), (c.request.body = { id: 7 })));
    expect(await post(client(once))).toBe('ok');
    expect(once.bodies).toEqual(['{"id":7}', '{"id":7}']);
    const always = failingBackend(Infinity);
    await expect(post(client(always))).rejects.toMatchObject({ name: 'NetworkError', reason: 'reset' });
    expect(always.bodies).toHaveLength(2);
  });

  it('a streamed body is not sent again', async () => {
    const once = failingBackend(1);
    const call = client(once).post(String, (c) => void (c.request.body = Readable.from([Buffer.from('x')])));
    await expect(call).rejects.toBeInstanceOf(NetworkError);
    expect(once.bodies).toEqual(['streamed']);
  });
});
