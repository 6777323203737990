// An HTTP/2 body the server did not end (no END_STREAM) is a failure of its call, as a cut
// HTTP/1.1 body is (faults.spec.ts), on every backend that speaks h2: cut by the connection,
// by RST_STREAM (whatever its code), with or without content-length. Servers written by hand
// (spec/support/raw-h2-server.ts): nghttp2 will not send a body it does not end.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http2 from 'node:http2';
import type tls from 'node:tls';
import { Stream } from '../../lib/stream.js';
import { backendClients } from '../support/backend-clients.js';
import { dataFrame, headersFrame, rawH2Server, resetFrame, type RawH2Server } from '../support/raw-h2-server.js';
import { selfSignedCertificate, type TlsCertificate } from '../support/tls-certificate.js';
import { BACKENDS } from './backends.js';

const { NGHTTP2_NO_ERROR, NGHTTP2_INTERNAL_ERROR, NGHTTP2_CANCEL } = http2.constants;
const HEAD: Array<readonly [string, string]> = [
  [':status', '200'],
  ['content-type', 'text/plain'],
];
const HEAD_100: Array<readonly [string, string]> = [...HEAD, ['content-length', '100']];

type Answer = (socket: tls.TLSSocket, stream: number) => void;

/** `head`, the body `sent` (not ended), then `cut` 20 ms later. */
const cutAfter =
  (head: Array<readonly [string, string]>, sent: string, cut: (socket: tls.TLSSocket, stream: number) => void): Answer =>
  (socket, stream) => {
    socket.write(Buffer.concat([headersFrame(stream, head), dataFrame(stream, sent)]));
    setTimeout(() => cut(socket, stream), 20);
  };

/** Truncations: each must reject with NetworkError reason `reset`. */
const TRUNCATED: Record<string, Answer> = {
  'the connection closed (TCP FIN after TLS close_notify)': cutAfter(HEAD, 'part', (socket) => socket.end()),
  'the connection destroyed': cutAfter(HEAD, 'part', (socket) => socket.destroy()),
  'the connection closed, content-length: 100 and 4 bytes sent': cutAfter(HEAD_100, 'part', (socket) => socket.end()),
  'RST_STREAM INTERNAL_ERROR': cutAfter(HEAD, 'part', (socket, stream) => socket.write(resetFrame(stream, NGHTTP2_INTERNAL_ERROR))),
  'RST_STREAM CANCEL, content-length: 100': cutAfter(HEAD_100, 'part', (socket, stream) => socket.write(resetFrame(stream, NGHTTP2_CANCEL))),
  'RST_STREAM NO_ERROR before END_STREAM, content-length: 100': cutAfter(HEAD_100, 'part', (socket, stream) =>
    socket.write(resetFrame(stream, NGHTTP2_NO_ERROR)),
  ),
  'RST_STREAM CANCEL': cutAfter(HEAD, 'part', (socket, stream) => socket.write(resetFrame(stream, NGHTTP2_CANCEL))),
  'RST_STREAM NO_ERROR before END_STREAM': cutAfter(HEAD, 'part', (socket, stream) => socket.write(resetFrame(stream, NGHTTP2_NO_ERROR))),
};

/**
 * undici (and fetch on it) ends a stream that RST_STREAM CANCEL or NO_ERROR closed as if whole
 * (its HTTP/2 client takes node's 'end'), and its streams are its own: without a content-length
 * to hold the bytes to, these cuts cannot be told from an end there (left to undici).
 */
const UNSEEN_BY_UNDICI = new Set(['RST_STREAM CANCEL', 'RST_STREAM NO_ERROR before END_STREAM']);
const undiciBased = (name: string) => name === 'undici' || name === 'fetch';

const WHOLE: Record<string, Answer> = {
  'DATA with END_STREAM': (socket, stream) =>
    socket.write(Buffer.concat([headersFrame(stream, HEAD), dataFrame(stream, 'one\n'), dataFrame(stream, 'two', true)])),
  'trailers with END_STREAM': (socket, stream) =>
    socket.write(Buffer.concat([headersFrame(stream, HEAD), dataFrame(stream, 'one\ntwo'), headersFrame(stream, [['x-checksum', '1']], true)])),
};

let certificate: TlsCertificate;
const servers = new Map<string, RawH2Server>();
const start = async (name: string, answer: Answer) => servers.set(name, await rawH2Server(certificate, answer));

beforeAll(async () => {
  certificate = await selfSignedCertificate();
  await Promise.all([
    ...Object.entries({ ...TRUNCATED, ...WHOLE }).map(([name, answer]) => start(name, answer)),
    start('short', (socket, stream) => socket.write(Buffer.concat([headersFrame(stream, HEAD_100), dataFrame(stream, 'part', true)]))),
    start(
      'lines',
      cutAfter(HEAD, 'one\ntwo\nthr', (socket) => socket.destroy()),
    ),
  ]);
});
afterAll(() => Promise.all([...servers.values()].map((server) => server.close())));

for (const backend of BACKENDS.filter((one) => one.traits.speaksHttp2)) {
  describe(`${backend.name} over h2: a body the server did not end`, () => {
    const client = backendClients(backend.choice);
    const h2 = (name: string) =>
      client(`${servers.get(name)!.url}/text`, (c) => {
        c.client.http2 = true;
        c.execution.tls = { ca: certificate.cert };
        c.execution.timeout = { response: 5000, read: 5000 };
      });

    for (const name of Object.keys(TRUNCATED).filter((one) => !(undiciBased(backend.name) && UNSEEN_BY_UNDICI.has(one)))) {
      it(`cut by ${name}: rejects with NetworkError reason reset, not the partial body`, async () => {
        await expect(h2(name).get(String)).rejects.toMatchObject({ name: 'NetworkError', reason: 'reset' });
      });
    }

    it('content-length: 100 and END_STREAM after 4 bytes: rejects with NetworkError', async () => {
      await expect(h2('short').get(String)).rejects.toMatchObject({ name: 'NetworkError' });
    });

    for (const name of Object.keys(WHOLE)) {
      it(`ended by ${name}: resolves with the whole body`, async () => {
        expect(await h2(name).get(String)).toBe('one\ntwo');
      });
    }

    it('Stream.lines over a cut body yields the whole lines, then rejects instead of yielding the partial last one', async () => {
      const seen: string[] = [];
      const reading = (async () => {
        for await (const line of await h2('lines').get((c) => Stream.lines(c))) seen.push(line);
      })();
      await expect(reading).rejects.toMatchObject({ name: 'NetworkError', reason: 'reset' });
      expect(seen).toEqual(['one', 'two']);
    });
  });
}
