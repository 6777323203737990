/** The placeholder API server for smoke-scenarios.ts: four routes, CORS for a page on another port. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

const cors = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, content-type',
  'access-control-allow-methods': 'GET, POST',
  'access-control-expose-headers': 'www-authenticate',
};

/** Starts the server on 127.0.0.1 and returns its base URL and a close function. */
export async function startSmokeServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method === 'OPTIONS') return void response.writeHead(204, cors).end();
      if (request.url === '/json') return void response.writeHead(200, { ...cors, 'content-type': 'application/json' }).end('{"hello":"world"}');
      if (request.url === '/echo') return void response.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(Buffer.concat(chunks));
      if (request.url === '/auth') return void response.writeHead(401, { ...cors, 'www-authenticate': 'Basic realm="smoke"' }).end();
      if (request.url === '/gzip') return void response.writeHead(200, { ...cors, 'content-encoding': 'gzip' }).end(gzipSync('zipped'));
      response.writeHead(404, cors).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // the browser keeps its connections alive
      }),
  };
}
