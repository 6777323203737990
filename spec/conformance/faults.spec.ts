import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { brotliCompressSync } from 'node:zlib';
import { rawServer, type RawServer } from '../support/raw-server.js';
import { NetworkError, ParseError } from '../../lib/index.js';
import { BACKENDS } from './backends.js';
import { backendClients } from '../support/backend-clients.js';

const HEAD_200 = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n';

describe('transport faults', () => {
  let resetMidBody: RawServer;
  let resetBeforeHead: RawServer;
  let truncatedGzip: RawServer;
  let resetInErrorBody: RawServer;
  let malformedHead: RawServer;
  let malformedRequests = 0;
  let resetRequests = 0;
  let unsolicitedContinue: RawServer;
  let trailingWhitespace: RawServer;
  let unaskedUpgrade: RawServer;
  let statusBelow100: RawServer;
  let truncatedBrotli: RawServer;
  let upgradeRequests = 0;
  beforeAll(async () => {
    // a br body missing its last 5 bytes, ended cleanly (no length: only the decoder can tell)
    const brotli = brotliCompressSync(Buffer.from('hello compressed world '.repeat(2000)));
    truncatedBrotli = await rawServer((socket) => {
      socket.end(
        Buffer.concat([
          Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Encoding: br\r\nConnection: close\r\n\r\n'),
          brotli.subarray(0, brotli.length - 5),
        ]),
      );
    });
    statusBelow100 = await rawServer((socket) => socket.end('HTTP/1.1 099 Hm\r\nContent-Length: 0\r\n\r\n'));
    // a 101 nobody asked for, and the connection left open
    unaskedUpgrade = await rawServer((socket) => {
      upgradeRequests++;
      socket.write('HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n');
    });
    trailingWhitespace = await rawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nX-Spaces: v  \r\nX-Tab: a\t\r\nContent-Length: 2\r\n\r\nok');
    });
    unsolicitedContinue = await rawServer((socket) => {
      socket.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok');
    });
    // a space before the colon: every parser refuses the head
    malformedHead = await rawServer((socket) => {
      malformedRequests++;
      socket.end('HTTP/1.1 200 OK\r\nX-A : b\r\nContent-Length: 2\r\n\r\nok');
    });
    resetInErrorBody = await rawServer((socket) => {
      socket.write('HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"par');
      setTimeout(() => socket.resetAndDestroy(), 20);
    });
    resetMidBody = await rawServer((socket) => {
      socket.write(`${HEAD_200}partial`);
      setTimeout(() => socket.resetAndDestroy(), 20);
    });
    resetBeforeHead = await rawServer((socket) => {
      resetRequests++;
      socket.resetAndDestroy();
    });
    truncatedGzip = await rawServer((socket) => {
      // the first 12 bytes of a gzip stream, then the connection ends cleanly
      const gzipHead = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x4b, 0x4c]);
      socket.end(Buffer.concat([Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n'), gzipHead]));
    });
  });
  afterAll(async () => {
    await Promise.all([
      resetMidBody.close(),
      resetBeforeHead.close(),
      truncatedGzip.close(),
      resetInErrorBody.close(),
      malformedHead.close(),
      unsolicitedContinue.close(),
      trailingWhitespace.close(),
      unaskedUpgrade.close(),
      statusBelow100.close(),
      truncatedBrotli.close(),
    ]);
  });

  for (const backend of BACKENDS) {
    describe(backend.name, () => {
      const client = backendClients(backend.choice);

      it('a reset of a fresh connection before the response head rejects with NetworkError reason reset, and the GET is not sent again', async () => {
        const before = resetRequests;
        await expect(client(resetBeforeHead.url).get()).rejects.toMatchObject({ name: 'NetworkError', reason: 'reset' });
        // only a reused keep-alive connection the server closed earns a second try
        expect(resetRequests - before).toBe(1);
      });

      it('a malformed response head rejects with NetworkError reason other, and the GET is not sent again', async () => {
        const before = malformedRequests;
        await expect(client(malformedHead.url).get()).rejects.toMatchObject({ name: 'NetworkError', reason: 'other' });
        expect(malformedRequests - before).toBe(1);
      });

      it(`port 10080 ${backend.traits.refusesBadPorts ? "is refused before connecting (on fetch's bad-ports list: documented)" : 'is tried like any other (nothing listens: refused)'}`, async () => {
        const error = await client('http://127.0.0.1:10080')
          .get()
          .catch((e: unknown) => e);
        if (backend.traits.refusesBadPorts)
          expect(error).toMatchObject({ name: 'ConfigError', message: expect.stringMatching(/fetch refuses the ports on its 'bad ports' list/) as unknown });
        else expect(error).toMatchObject({ name: 'NetworkError', reason: 'refused' });
      });

      it(`an unsolicited 100 Continue ${backend.traits.skipsUnsolicitedContinue ? 'is skipped' : 'fails the request with NetworkError reason other (undici fetch: documented)'}`, async () => {
        const result = client(unsolicitedContinue.url).get(String);
        if (backend.traits.skipsUnsolicitedContinue) expect(await result).toBe('ok');
        else await expect(result).rejects.toMatchObject({ name: 'NetworkError', reason: 'other' });
      });

      it('a 101 no one asked for ends the call: a total timeout always does, and native and fetch fail at once, sending the GET once', async () => {
        const started = Date.now();
        await expect(client(unaskedUpgrade.url).get((c) => void (c.execution.timeout = { total: 1500 }))).rejects.toMatchObject({
          name: expect.stringMatching(/^(NetworkError|TimeoutError)$/) as unknown,
        });
        expect(Date.now() - started).toBeLessThan(5000);
        if (backend.choice === 'native' || backend.choice === 'fetch') {
          const before = upgradeRequests;
          await expect(client(unaskedUpgrade.url).get()).rejects.toMatchObject({ name: 'NetworkError', reason: 'other' });
          expect(upgradeRequests - before).toBe(1);
        }
      });

      it('a status below 100 rejects with NetworkError reason other (it resolved as a success on node backends)', async () => {
        await expect(client(statusBelow100.url).get()).rejects.toMatchObject({ name: 'NetworkError', reason: 'other' });
      });

      it('trailing spaces and tabs are not part of a response header value', async () => {
        const values = await client(trailingWhitespace.url).get((c) =>
          c.response.success((fromServer) => [fromServer.headers.get('x-spaces'), fromServer.headers.get('x-tab')]),
        );
        expect(values).toEqual(['v', 'a']);
      });

      it('a reset in the middle of the body rejects with NetworkError reason reset', async () => {
        const error = await client(resetMidBody.url)
          .get()
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NetworkError);
        expect((error as NetworkError).reason).toBe('reset');
      });

      it('a reset in the middle of a body nobody reads does not crash the process', async () => {
        const result = await client(resetMidBody.url).get((c) => {
          c.response.parser('text/plain', () => 'body ignored'); // never reads the body
          c.response.success((fromServer, body) => `${fromServer.statusCode} ${String(body)}`);
        });
        expect(result).toBe('200 body ignored');
        await new Promise((resolve) => setTimeout(resolve, 60)); // the reset arrives after we returned
      });

      it('a reset inside an error body is a NetworkError, not an HttpException', async () => {
        await expect(client(resetInErrorBody.url).get()).rejects.toMatchObject({ name: 'NetworkError', reason: 'reset' });
      });

      it(`a truncated gzip body ${backend.traits.detectsTruncatedGzip ? 'rejects with ParseError' : 'comes back short, without an error (documented)'}`, async () => {
        const result = client(truncatedGzip.url).get(String);
        if (backend.traits.detectsTruncatedGzip) await expect(result).rejects.toBeInstanceOf(ParseError);
        else expect(await result).toBe('a'); // what the 2 deflate bytes hold: the body, cut short
      });

      it(`a truncated br body ${backend.traits.detectsTruncatedGzip ? 'rejects with ParseError' : 'comes back short, without an error (documented)'}`, async () => {
        const result = client(truncatedBrotli.url).get(String);
        if (backend.traits.detectsTruncatedGzip) await expect(result).rejects.toBeInstanceOf(ParseError);
        else {
          // a prefix of the whole, maybe empty: cut short
          const [text, whole] = [await result, 'hello compressed world '.repeat(2000)];
          expect([whole.startsWith(text), text.length < whole.length]).toEqual([true, true]);
        }
      });
    });
  }
});
