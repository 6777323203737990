import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import { Readable } from 'node:stream';
import { HttpBuilder } from '../../lib/index.js';
import { BACKENDS } from './backends.js';

/**
 * Proof that uploads stream: the source yields its second chunk only after the server has
 * received the first. A client that buffered the body before sending would wait forever.
 */
describe('raw uploads are streamed, not buffered', () => {
  let server: http.Server;
  let url = '';
  let firstChunkArrived: () => void = () => {};

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        firstChunkArrived();
      });
      req.on('end', () => res.end(Buffer.concat(chunks)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Two chunks; the second waits until the server saw the first (or gives up after 2 s). */
  function handshakingSource(): AsyncIterable<Uint8Array> {
    const arrived = new Promise<string>((resolve) => {
      firstChunkArrived = () => resolve('arrived');
      setTimeout(() => resolve('timed out'), 2000).unref();
    });
    return (async function* () {
      yield Buffer.from('first,');
      yield Buffer.from(await arrived);
    })();
  }

  const sources: Array<[string, () => unknown]> = [
    ['a Readable', () => Readable.from(handshakingSource())],
    ['a web ReadableStream', () => ReadableStream.from(handshakingSource())],
  ];

  for (const backend of BACKENDS) {
    for (const [kind, make] of sources) {
      it(`${backend.name}: ${kind} reaches the server chunk by chunk`, async () => {
        const client = HttpBuilder.configure((c) => {
          c.request.uri = url;
          c.client.backend = backend.choice;
        });
        try {
          const echoed = await client.post(String, (c) => {
            c.request.body = make();
          });
          expect(echoed).toBe('first,arrived');
        } finally {
          await client.close();
        }
      });
    }
  }
});
