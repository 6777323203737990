/** The API server of smoke-scenarios.ts (`--smoke`): four routes, CORS for a page on another port. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'content-type',
  'access-control-expose-headers': 'www-authenticate',
};

const ROUTES: Record<string, (body: Buffer) => [number, Record<string, string>, Buffer | string]> = {
  '/users/42': () => [200, { 'content-type': 'application/json' }, '{"id":42,"name":"Ada"}'],
  '/echo': (body) => [200, { 'content-type': 'application/json' }, body],
  '/basic': () => [401, { 'www-authenticate': 'Basic realm="smoke"' }, ''],
  '/gzip': () => [200, { 'content-type': 'application/json', 'content-encoding': 'gzip' }, gzipSync('{"zipped":true}')],
};

/** Starts the server on 127.0.0.1 and a free port; `url` has no trailing slash. */
export async function startSmokeServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const route = request.method === 'OPTIONS' ? undefined : ROUTES[request.url ?? ''];
      const [status, headers, body] = route?.(Buffer.concat(chunks)) ?? [request.method === 'OPTIONS' ? 204 : 404, {}, ''];
      response.writeHead(status, { ...CORS, ...headers }).end(body);
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
