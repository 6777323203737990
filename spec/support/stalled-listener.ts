import { spawn } from 'node:child_process';
import * as net from 'node:net';

/** A port where TCP connections are never established, and how to release it. */
export interface StalledListener {
  readonly url: string;
  close(): Promise<void>;
}

// Listens with a backlog of 1, prints its port, then blocks its only thread (without using CPU):
// the kernel completes handshakes only while the accept queue has room
const CHILD = `
const server = require('node:net').createServer();
server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
  process.stdout.write(server.address().port + '\\n', () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120000));
});`;

/**
 * For connect timeouts over plain HTTP on 127.0.0.1: a listener in a child process that never
 * accepts, with its accept queue filled, so the kernel drops further SYNs and a connect hangs
 * (Linux behaviour; a real server that is overloaded looks the same).
 */
export async function stalledListener(): Promise<StalledListener> {
  const child = spawn(process.execPath, ['-e', CHILD], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (data: Buffer) => resolve(Number(String(data).trim())));
    child.once('exit', (code) => reject(new Error(`the stalled listener exited (${code})`)));
  });
  const fillers: net.Socket[] = [];
  // fill the queue: connects succeed until it is full; one that stays pending proves it is
  for (;;) {
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    fillers.push(socket);
    const connected = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 200);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    if (!connected) break;
    if (fillers.length > 16) throw new Error('the stalled listener accepts everything: this kernel does not drop SYNs on a full queue');
  }
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of fillers) socket.destroy();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}
