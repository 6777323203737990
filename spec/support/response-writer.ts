import { STATUS_CODES, type ServerResponse } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';

/** A canned response for an expectation to send. */
export interface ResponseSpec {
  /** Status code; default 200. */
  status?: number;
  /** Status message; default node's `STATUS_CODES[status]`. */
  reason?: string;
  /** Response headers; they override the `Content-Encoding` that `encoding` sets. */
  headers?: Record<string, string | string[]>;
  /** Body; default none. A string is sent as UTF-8. */
  body?: string | Buffer;
  /** Compresses the body with node:zlib and sets `Content-Encoding` to this value. */
  encoding?: 'gzip' | 'deflate' | 'br';
}

const compressors: Record<NonNullable<ResponseSpec['encoding']>, (data: Buffer) => Buffer> = {
  gzip: (data) => gzipSync(data),
  deflate: (data) => deflateSync(data), // zlib-wrapped, which is what HTTP `deflate` means
  br: (data) => brotliCompressSync(data),
};

// HTTP/2 frames bodies and manages connections itself: node refuses these headers on it
const CONNECTION_SPECIFIC = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

/**
 * Sends `spec` on `res` and ends it.
 *
 * Headers go through `setHeader` (case-insensitive, last one wins) and the body through a
 * single `end()`, so node adds a correct `Content-Length` unless the spec sets
 * `Content-Length` or `Transfer-Encoding` itself; no `Connection: close` is forced. Over
 * HTTP/2 there is no reason phrase and the connection-specific headers are left out.
 */
export function writeResponse(res: ServerResponse, spec: ResponseSpec): void {
  const status = spec.status ?? 200;
  let body: Buffer | undefined = spec.body === undefined ? undefined : Buffer.from(spec.body);
  if (spec.encoding !== undefined) {
    body = compressors[spec.encoding](body ?? Buffer.alloc(0));
    res.setHeader('Content-Encoding', spec.encoding);
  }
  const http2 = 'stream' in res;
  for (const [name, value] of Object.entries(spec.headers ?? {})) {
    if (!http2 || !CONNECTION_SPECIFIC.has(name.toLowerCase())) res.setHeader(name, value);
  }
  res.statusCode = status;
  if (!http2) res.statusMessage = spec.reason ?? STATUS_CODES[status] ?? '';
  // node's HTTP/2 response adds no Content-Length of its own: add it as HTTP/1.1 does, unless the spec framed the body itself
  else if (
    body !== undefined &&
    res.req.method !== 'HEAD' &&
    !Object.keys(spec.headers ?? {}).some((name) => /^(content-length|transfer-encoding)$/i.test(name))
  )
    res.setHeader('content-length', body.length);
  if (body === undefined) res.end();
  else res.end(body);
}
