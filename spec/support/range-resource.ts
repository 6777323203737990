import type { ServerResponse } from 'node:http';
import { constants as h2, type Http2ServerResponse } from 'node:http2';
import type { RecordedRequest } from './test-server.js';

/** A resource for {@link serveRange}: its bytes, its version, and how the server misbehaves. */
export interface Resource {
  readonly body: Buffer;
  readonly lastModified: string;
  /** Answer every request with the whole body, as a server without range support does. */
  readonly ignoreRange?: boolean;
  /** Send this many body bytes, then cut the connection (HTTP/1) or reset the stream (HTTP/2). */
  readonly cutAfter?: number;
}

/**
 * A TestServer responder that answers as a file server does: `Range: bytes=N-` honoured when
 * `If-Range` names this version (RFC 9110 §13.1.5), else 200; 416 past the end. For resume tests (`Download.toFile`, `hb -C -`).
 */
export function serveRange(resource: Resource) {
  return (req: RecordedRequest, res: ServerResponse) => {
    const range = /^bytes=(\d+)-$/.exec(String(req.headers.range ?? ''));
    const ifRange = req.headers['if-range'];
    const honoured = range !== null && !resource.ignoreRange && (ifRange === undefined || ifRange === resource.lastModified);
    const start = honoured ? Number(range[1]) : 0;
    // nothing left to send: 416 with the full length, as nginx and Apache answer
    if (honoured && start >= resource.body.length) return void res.writeHead(416, { 'Content-Range': `bytes */${resource.body.length}` }).end();
    const part = resource.body.subarray(start);
    const headers: Record<string, string> = {
      'Content-Type': 'application/octet-stream',
      'Last-Modified': resource.lastModified,
      'Content-Length': String(part.length),
    };
    if (honoured) headers['Content-Range'] = `bytes ${start}-${resource.body.length - 1}/${resource.body.length}`;
    res.writeHead(honoured ? 206 : 200, headers);
    if (resource.cutAfter === undefined) return void res.end(part);
    res.write(part.subarray(0, resource.cutAfter));
    setTimeout(() => cut(res), 50);
  };
}

/** Ends the response mid-body: the socket destroyed over HTTP/1, the stream reset over HTTP/2 (the session serves others). */
function cut(res: ServerResponse): void {
  const stream = (res as unknown as Http2ServerResponse).stream as Http2ServerResponse['stream'] | undefined;
  if (stream !== undefined) stream.close(h2.NGHTTP2_INTERNAL_ERROR);
  else res.socket?.destroy();
}
