import { createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that was free a moment ago: binds port 0, reads the port the kernel
 * chose and releases it. Another process may take it before the server starts; the callers
 * retry on "Address already in use".
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => (port > 0 ? resolve(port) : reject(new Error(`freePort(): unexpected address ${JSON.stringify(address)}`))));
    });
  });
}
