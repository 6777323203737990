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

/**
 * Sends `spec` on `res` and ends it.
 *
 * Headers go through `setHeader` (case-insensitive, last one wins) and the body through a
 * single `end()`, so node adds a correct `Content-Length` unless the spec sets
 * `Content-Length` or `Transfer-Encoding` itself; no `Connection: close` is forced.
 */
export function writeResponse(res: ServerResponse, spec: ResponseSpec): void {
  const status = spec.status ?? 200;
  let body: Buffer | undefined = spec.body === undefined ? undefined : Buffer.from(spec.body);
  if (spec.encoding !== undefined) {
    body = compressors[spec.encoding](body ?? Buffer.alloc(0));
    res.setHeader('Content-Encoding', spec.encoding);
  }
  for (const [name, value] of Object.entries(spec.headers ?? {})) res.setHeader(name, value);
  res.statusCode = status;
  // HTTP/2 has no reason phrase (node warns when one is set)
  if (!('stream' in res)) res.statusMessage = spec.reason ?? STATUS_CODES[status] ?? '';
  if (body === undefined) res.end();
  else res.end(body);
}
