import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { NetworkError, type FromServer } from '../../lib/index.js';
import { backendClients } from '../support/backend-clients.js';
import { rawServer, type RawServer } from '../support/raw-server.js';
import { BACKENDS } from './backends.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// A parser may await something real (a timer, a file, a database) before it reads the body; if
// the connection is reset meanwhile, reading must fail at once, not wait for events long gone.
let server: RawServer;
beforeAll(async () => {
  server = await rawServer((socket) => {
    socket.write('HTTP/1.1 200 OK\r\nContent-Type: application/x-late\r\nContent-Length: 100000\r\n\r\n0123456789');
    setTimeout(() => socket.destroy(), 20);
  });
});
afterAll(() => server.close());

const READS: Array<[string, (fromServer: FromServer) => Promise<unknown>]> = [
  ['bytes()', (fromServer) => fromServer.bytes()],
  ['text()', (fromServer) => fromServer.text()],
  [
    'stream()',
    (fromServer) =>
      new Promise((resolve, reject) => {
        const stream = fromServer.stream();
        stream.on('data', () => {});
        stream.on('end', resolve);
        stream.on('error', reject);
      }),
  ],
];

for (const backend of BACKENDS) {
  describe(`${backend.name}: a body that failed before it was read`, () => {
    const client = backendClients(backend.choice);
    for (const [name, read] of READS) {
      it(`${name} rejects with NetworkError instead of hanging`, async () => {
        const outcome = client(server.url)
          .get((c) => {
            c.response.parser('application/x-late', async (fromServer) => {
              await delay(200); // the reset happens meanwhile
              return read(fromServer);
            });
          })
          .then(
            () => 'resolved',
            (error: unknown) => error,
          );
        const result = await Promise.race([outcome, delay(3_000).then(() => 'HUNG')]);
        expect(result).toBeInstanceOf(NetworkError);
      });
    }
  });
}
