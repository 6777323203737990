/**
 * HTTP/2 written by hand, for faults a real server (nghttp2) will not make: a body cut short by
 * the connection or by RST_STREAM, a content-length the body does not keep.
 *
 * @module
 */
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';

/** Frame types and flags (RFC 9113 §6). */
export const FRAME = { DATA: 0x0, HEADERS: 0x1, RST_STREAM: 0x3, SETTINGS: 0x4, PUSH_PROMISE: 0x5, PING: 0x6, GOAWAY: 0x7 } as const;
export const FLAG = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4 } as const;
const PREFACE_LENGTH = 24;

/** One frame: its 9-byte head, then `payload`. */
export function frame(type: number, flags: number, stream: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(9);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(stream, 5);
  return Buffer.concat([head, payload]);
}

/** HPACK: each field a literal without indexing, new name, no Huffman (every string under 127 bytes). */
export function headerBlock(fields: Array<readonly [string, string]>): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of fields) parts.push(Buffer.from([0x00, name.length]), Buffer.from(name), Buffer.from([value.length]), Buffer.from(value));
  return Buffer.concat(parts);
}

/** A response head on `stream` (END_HEADERS; END_STREAM too with `end`). */
export function headersFrame(stream: number, fields: Array<readonly [string, string]>, end = false): Buffer {
  return frame(FRAME.HEADERS, FLAG.END_HEADERS | (end ? FLAG.END_STREAM : 0), stream, headerBlock(fields));
}

/** Body bytes on `stream` (END_STREAM with `end`). */
export function dataFrame(stream: number, text: string, end = false): Buffer {
  return frame(FRAME.DATA, end ? FLAG.END_STREAM : 0, stream, Buffer.from(text));
}

/** RST_STREAM on `stream` with an RFC 9113 §7 error code. */
export function resetFrame(stream: number, code: number): Buffer {
  const payload = Buffer.alloc(4);
  payload.writeUInt32BE(code);
  return frame(FRAME.RST_STREAM, 0, stream, payload);
}

/** GOAWAY (on stream 0) naming the last stream the server processed, with an RFC 9113 §7 error code. */
export function goawayFrame(lastStream: number, code: number): Buffer {
  const payload = Buffer.alloc(8);
  payload.writeUInt32BE(lastStream, 0);
  payload.writeUInt32BE(code, 4);
  return frame(FRAME.GOAWAY, 0, 0, payload);
}

export interface RawH2Server {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * A TLS server on 127.0.0.1 that speaks just enough HTTP/2 (ALPN `h2` only): its SETTINGS,
 * acknowledgements of the client's SETTINGS and PINGs, and `answer` for each request's HEADERS.
 */
export function rawH2Server(certificate: { key: string; cert: string }, answer: (socket: tls.TLSSocket, stream: number) => void): Promise<RawH2Server> {
  const sockets = new Set<tls.TLSSocket>();
  const server = tls.createServer({ ...certificate, ALPNProtocols: ['h2'] }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    clientFrames(socket, (type, flags, stream, payload) => {
      if (type === FRAME.SETTINGS && !(flags & FLAG.ACK)) socket.write(frame(FRAME.SETTINGS, FLAG.ACK, 0, Buffer.alloc(0)));
      else if (type === FRAME.PING && !(flags & FLAG.ACK)) socket.write(frame(FRAME.PING, FLAG.ACK, 0, payload));
      else if (type === FRAME.HEADERS) answer(socket, stream);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `https://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Sends the server's SETTINGS on `socket`, then hands each client frame (after the preface) to `onFrame` as it comes. */
export function clientFrames(socket: tls.TLSSocket, onFrame: (type: number, flags: number, stream: number, payload: Buffer) => void): void {
  socket.write(frame(FRAME.SETTINGS, 0, 0, Buffer.alloc(0)));
  let input = Buffer.alloc(0);
  let prefaceSeen = false;
  socket.on('data', (chunk: Buffer) => {
    input = Buffer.concat([input, chunk]);
    if (!prefaceSeen) {
      if (input.length < PREFACE_LENGTH) return;
      input = input.subarray(PREFACE_LENGTH);
      prefaceSeen = true;
    }
    while (input.length >= 9) {
      const length = input.readUIntBE(0, 3);
      if (input.length < 9 + length) return;
      const [type, flags, stream] = [input[3], input[4], input.readUInt32BE(5) & 0x7fffffff];
      const payload = input.subarray(9, 9 + length);
      input = input.subarray(9 + length);
      onFrame(type, flags, stream, payload);
    }
  });
}
