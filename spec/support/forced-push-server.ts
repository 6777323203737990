/**
 * An HTTP/2 server that pushes whatever the client's settings say: node's server (nghttp2)
 * refuses to push to a client that sent `enablePush: false`, so a pushed stream that "arrives
 * anyway" needs frames written by hand. A fault a real server cannot make, hence raw.
 *
 * @module
 */
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { clientFrames, FLAG, FRAME, frame, headerBlock } from './raw-h2-server.js';

/** What the server does after it has answered a request (and pushed before the answer). */
export type AfterAnswer = 'goaway' | 'hold';

export interface ForcedPushOptions {
  readonly key: string;
  readonly cert: string;
  /** Streams pushed (each promised before the answer, its head and some body sent, never ended). */
  readonly pushes: number;
  /** `goaway`: a GOAWAY with INTERNAL_ERROR shortly after the answer; `hold`: nothing more. */
  readonly after: AfterAnswer;
  /**
   * Acknowledge the client's SETTINGS before pushing. The client applies its own
   * `enablePush: false` only once acknowledged, after which a push is a protocol error that ends
   * the connection; unacknowledged, the pushed streams arrive (for the client to reset).
   */
  readonly acknowledge: boolean;
}

/** What the server saw, over all its connections. */
export interface ForcedPushLog {
  /** `SETTINGS_ENABLE_PUSH` as each client announced it (`undefined`: not sent, which means 1). */
  readonly enablePush: Array<number | undefined>;
  /** The promised stream ids the server pushed. */
  readonly pushed: number[];
  /** RST_STREAM frames the client sent: stream id and error code. */
  readonly resets: Array<{ readonly stream: number; readonly code: number }>;
}

export interface ForcedPushServer {
  readonly url: string;
  readonly log: ForcedPushLog;
  close(): Promise<void>;
}

const INTERNAL_ERROR = 0x2;

/** Starts a {@link ForcedPushServer} on 127.0.0.1 (TLS, ALPN `h2` only). */
export function forcedPushServer(options: ForcedPushOptions): Promise<ForcedPushServer> {
  const log: ForcedPushLog = { enablePush: [], pushed: [], resets: [] };
  const sockets = new Set<tls.TLSSocket>();
  const server = tls.createServer({ key: options.key, cert: options.cert, ALPNProtocols: ['h2'] }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    serve(socket, options, log);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `https://127.0.0.1:${port}`,
        log,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** One connection: the server's SETTINGS, then each client frame as it comes. */
function serve(socket: tls.TLSSocket, options: ForcedPushOptions, log: ForcedPushLog): void {
  let nextPromised = 2;
  clientFrames(socket, (type, flags, stream, payload) => {
    if (type === FRAME.SETTINGS && !(flags & FLAG.ACK)) {
      log.enablePush.push(settingOf(payload, 0x2));
      if (options.acknowledge) socket.write(frame(FRAME.SETTINGS, FLAG.ACK, 0, Buffer.alloc(0)));
    } else if (type === FRAME.PING && !(flags & FLAG.ACK)) socket.write(frame(FRAME.PING, FLAG.ACK, 0, payload));
    else if (type === FRAME.RST_STREAM) log.resets.push({ stream, code: payload.readUInt32BE(0) });
    else if (type === FRAME.HEADERS) {
      const promised = Array.from({ length: options.pushes }, () => (nextPromised += 2) - 2);
      log.pushed.push(...promised);
      socket.write(answer(stream, promised, socket.localPort ?? 0));
      if (options.after === 'goaway') setTimeout(() => socket.write(goaway(stream)), 20);
    }
  });
}

/**
 * The answer to the request on `stream`: a PUSH_PROMISE per promised stream, the pushed heads
 * and some of their bodies (open), then the response itself, complete.
 */
function answer(stream: number, promised: number[], port: number): Buffer {
  const frames: Buffer[] = [];
  for (const [i, id] of promised.entries()) {
    const request = headerBlock([
      [':method', 'GET'],
      [':scheme', 'https'],
      [':authority', `127.0.0.1:${port}`],
      [':path', `/pushed/${i}`],
    ]);
    const id32 = Buffer.alloc(4);
    id32.writeUInt32BE(id);
    frames.push(frame(FRAME.PUSH_PROMISE, FLAG.END_HEADERS, stream, Buffer.concat([id32, request])));
  }
  for (const id of promised) {
    frames.push(
      frame(
        FRAME.HEADERS,
        FLAG.END_HEADERS,
        id,
        headerBlock([
          [':status', '200'],
          ['content-type', 'text/plain'],
        ]),
      ),
    );
    frames.push(frame(FRAME.DATA, 0, id, Buffer.alloc(100, 'p')));
  }
  frames.push(
    frame(
      FRAME.HEADERS,
      FLAG.END_HEADERS,
      stream,
      headerBlock([
        [':status', '200'],
        ['content-type', 'application/json'],
      ]),
    ),
  );
  frames.push(frame(FRAME.DATA, FLAG.END_STREAM, stream, Buffer.from('{"ok":true}')));
  return Buffer.concat(frames);
}

function goaway(lastStream: number): Buffer {
  const payload = Buffer.alloc(8);
  payload.writeUInt32BE(lastStream, 0);
  payload.writeUInt32BE(INTERNAL_ERROR, 4);
  return frame(FRAME.GOAWAY, 0, 0, payload);
}

/** A SETTINGS parameter's value, `undefined` when absent. */
function settingOf(payload: Buffer, id: number): number | undefined {
  let value: number | undefined;
  for (let at = 0; at + 6 <= payload.length; at += 6) if (payload.readUInt16BE(at) === id) value = payload.readUInt32BE(at + 2);
  return value;
}
