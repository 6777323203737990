/**
 * Serves the test page and its bundled script from 127.0.0.1 on a port of its own, so every call
 * the page makes to the API server is cross-origin (CORS) as in a real web app.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const page = '<!doctype html><meta charset="utf-8"><title>httpbuilder-ts portable scenarios</title><script type="module" src="/page.js"></script>';

/** A started page server: its address and how to stop it. */
export interface PageServer {
  url: string;
  close: () => Promise<void>;
}

/** Starts a server answering `/` with the page and `/page.js` with `script`. */
export async function startPageServer(script: string): Promise<PageServer> {
  const server = createServer((request, response) => {
    if (request.url === '/') return void response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    if (request.url === '/page.js') return void response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(script);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
