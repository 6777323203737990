import type http from 'node:http';
import { CONNECT_TIMEOUT } from '../model/backend.js';

/**
 * Destroys `req` when its new connection (TLS handshake included) is not established within
 * `ms`. A reused keep-alive connection is established already: no timer. Shared by the
 * node-based backends (native, axios, got), which all end in a `ClientRequest`.
 */
export function limitConnect(req: http.ClientRequest, ms: number | undefined): void {
  if (ms === undefined) return;
  req.once('socket', (socket) => {
    if (req.reusedSocket) return;
    const event = 'encrypted' in socket ? 'secureConnect' : 'connect';
    const timer = setTimeout(() => {
      req.destroy(Object.assign(new Error(`the connection was not established within ${ms} ms`), { code: CONNECT_TIMEOUT }));
    }, ms);
    const clear = () => clearTimeout(timer);
    socket.once(event, clear);
    socket.once('close', clear);
  });
}
