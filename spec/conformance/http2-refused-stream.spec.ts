// An HTTP/2 stream the server did not process is sent again once, whatever its method (RFC 9113
// §8.7), on every backend that speaks h2: one it reset with REFUSED_STREAM (node's own server,
// `stream.close(NGHTTP2_REFUSED_STREAM)`), one above the last-stream-id of its GOAWAY (written by
// hand: node's server sends the last stream it processed in place of a last-stream-id of 0).
// A second refusal is the call's failure; a streamed body is not sent again.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http2 from 'node:http2';
import { Readable } from 'node:stream';
import { backendClients } from '../support/backend-clients.js';
import { nodeH2Server, type NodeH2Server } from '../support/node-h2-server.js';
import { dataFrame, goawayFrame, headersFrame, rawH2Server, type RawH2Server } from '../support/raw-h2-server.js';
import { selfSignedCertificate, type TlsCertificate } from '../support/tls-certificate.js';
import { BACKENDS } from './backends.js';

const { NGHTTP2_REFUSED_STREAM, NGHTTP2_NO_ERROR } = http2.constants;

let certificate: TlsCertificate;
let server: NodeH2Server;
let origin = '';
/** Per path, each request that reached the server: its method and body (`refused` for one not read). */
const seen = new Map<string, string[]>();

/** `/once/...` is refused the first time, `/always/...` every time; anything else (and a second `/once/`) answers its method and body. */
function onStream(stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders): void {
  const path = String(headers[':path']);
  const method = String(headers[':method']);
  const log = seen.get(path) ?? [];
  seen.set(path, log);
  stream.on('error', () => {});
  if (path.startsWith('/always/') || (path.startsWith('/once/') && log.length === 0)) {
    log.push(`${method} refused`);
    stream.close(NGHTTP2_REFUSED_STREAM);
    return;
  }
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  stream.on('end', () => {
    const body = Buffer.concat(chunks).toString();
    log.push(`${method} ${body}`);
    stream.respond({ ':status': 200, 'content-type': 'application/json' });
    stream.end(JSON.stringify({ method, body }));
  });
}

/** The hand-written server: the first request it sees gets GOAWAY (NO_ERROR, last-stream-id 0), the next ones `{"ok":true}`. */
let goaway: RawH2Server;
let goawayHeads = 0;

beforeAll(async () => {
  certificate = await selfSignedCertificate();
  server = await nodeH2Server(certificate, onStream);
  origin = server.origin;
  goaway = await rawH2Server(certificate, (socket, stream) => {
    if (goawayHeads++ === 0) socket.write(goawayFrame(0, NGHTTP2_NO_ERROR));
    else
      socket.write(
        Buffer.concat([
          headersFrame(stream, [
            [':status', '200'],
            ['content-type', 'application/json'],
          ]),
          dataFrame(stream, '{"ok":true}', true),
        ]),
      );
  });
});
afterAll(async () => {
  await Promise.all([server.close(), goaway.close()]);
});

/**
 * undici (and fetch on it) fails every stream of a session that received GOAWAY, whatever its
 * last-stream-id: such a failure cannot be told from one of a request the server processed, so
 * only an idempotent request is sent again (the stale-connection resend), not a POST.
 */
const readsGoawayLastStream = (name: string) => name !== 'undici' && name !== 'fetch';

for (const backend of BACKENDS.filter((one) => one.traits.speaksHttp2)) {
  describe(`${backend.name} over h2: a stream the server did not process`, () => {
    const client = backendClients(backend.choice);
    const h2 = (block?: Parameters<typeof client>[1], url = origin) =>
      client(url, (c) => {
        c.client.http2 = true;
        c.execution.tls = { ca: certificate.cert };
        c.execution.timeout = { response: 5000 };
        block?.(c);
      });
    const path = (kind: string, name: string) => `/${kind}/${backend.name}-${name}`;

    it('GET refused with REFUSED_STREAM is sent again and answered: the server saw two requests', async () => {
      const answer = await h2().get((c) => void (c.request.uri.path = path('once', 'get')));
      expect(answer).toEqual({ method: 'GET', body: '' });
      expect(seen.get(path('once', 'get'))).toEqual(['GET refused', 'GET ']);
    });

    it('POST with a JSON body refused with REFUSED_STREAM is sent again with the same body', async () => {
      const answer = await h2().post((c) => {
        c.request.uri.path = path('once', 'post');
        c.request.contentType = 'application/json';
        c.request.body = { id: 7 };
      });
      expect(answer).toEqual({ method: 'POST', body: '{"id":7}' });
      expect(seen.get(path('once', 'post'))).toEqual(['POST refused', 'POST {"id":7}']);
    });

    it('refused every time: rejects with NetworkError reason reset after exactly two streams', async () => {
      const call = h2().post((c) => {
        c.request.uri.path = path('always', 'post');
        c.request.contentType = 'application/json';
        c.request.body = { id: 7 };
      });
      await expect(call).rejects.toMatchObject({ name: 'NetworkError', reason: 'reset' });
      expect(seen.get(path('always', 'post'))).toEqual(['POST refused', 'POST refused']);
    });

    it('a streamed body that is refused is not sent again: rejects with NetworkError, one stream', async () => {
      const call = h2().post((c) => {
        c.request.uri.path = path('once', 'streamed');
        c.request.body = Readable.from([Buffer.from('{"id":'), Buffer.from('7}')]);
      });
      await expect(call).rejects.toMatchObject({ name: 'NetworkError' });
      expect(seen.get(path('once', 'streamed'))).toEqual(['POST refused']);
    });

    it('afterAttemptError sees the refused attempt; beforeRetry is not called (no retry of the policy)', async () => {
      const failed: string[] = [];
      let retries = 0;
      const http = h2((c) => {
        c.execution.hooks = {
          afterAttemptError: (attempt, error) => void failed.push(`${attempt.method} ${error.name} ${(error as { reason?: string }).reason}`),
          beforeRetry: () => void retries++,
        };
      });
      expect(await http.get((c) => void (c.request.uri.path = path('once', 'hooks')))).toEqual({ method: 'GET', body: '' });
      expect(failed).toEqual(['GET NetworkError reset']);
      expect(retries).toBe(0);
    });

    it('with execution.retry, the resend spends none of its budget: refused every time, limit 1 → three streams, one beforeRetry', async () => {
      let retries = 0;
      const http = h2((c) => {
        c.execution.retry = { limit: 1, backoff: () => 0 };
        c.execution.hooks = { beforeRetry: () => void retries++ };
      });
      await expect(http.get((c) => void (c.request.uri.path = path('always', 'budget')))).rejects.toMatchObject({ name: 'NetworkError' });
      expect(seen.get(path('always', 'budget'))).toEqual(['GET refused', 'GET refused', 'GET refused']);
      expect(retries).toBe(1);
    });

    it('GET above the last-stream-id of a GOAWAY is sent again on a new connection and answered', async () => {
      goawayHeads = 0;
      const http = h2(undefined, `${goaway.url}/json`);
      expect(await http.get()).toEqual({ ok: true });
      expect(goawayHeads).toBe(2);
    });

    const postAfterGoaway = readsGoawayLastStream(backend.name)
      ? 'is sent again and answered'
      : 'is not sent again (undici does not read the last-stream-id): rejects with NetworkError reason reset';
    it(`POST above the last-stream-id of a GOAWAY ${postAfterGoaway}`, async () => {
      goawayHeads = 0;
      const http = h2(undefined, `${goaway.url}/json`);
      const call = http.post((c) => {
        c.request.contentType = 'application/json';
        c.request.body = { id: 7 };
      });
      if (readsGoawayLastStream(backend.name)) {
        expect(await call).toEqual({ ok: true });
        expect(goawayHeads).toBe(2);
      } else {
        await expect(call).rejects.toMatchObject({ name: 'NetworkError', reason: 'reset' });
        expect(goawayHeads).toBe(1);
      }
    });
  });
}
