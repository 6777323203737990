import * as net from 'node:net';

/** A raw TCP server on 127.0.0.1 and how to stop it (every connection is destroyed). */
export interface RawServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * For faults a real HTTP server will not make (resets mid-body, truncated codings): runs
 * `script` on each connection once its first request bytes arrive.
 */
export function rawServer(script: (socket: net.Socket) => void): Promise<RawServer> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', () => script(socket));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
