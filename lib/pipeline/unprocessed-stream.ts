// What the retry loop (retry-loop.ts) reads to send a request again whatever its method: the
// server said, by HTTP/2's own means, that it did nothing with it (RFC 9113 §8.7).

/** node's message for a stream closed with REFUSED_STREAM (`Stream closed with error code <name>`): code 7 has this name in every version. */
const REFUSED = 'NGHTTP2_REFUSED_STREAM';

/**
 * Whether a transport's error (or one it wraps, as `cause`) is of an HTTP/2 stream the server
 * never processed, so that sending it again is safe for any method:
 * - a stream the server reset with REFUSED_STREAM (above its concurrency limit, say), or one
 *   above the last-stream-id of a GOAWAY it sent (nghttp2 closes those with that code):
 *   node's `ERR_HTTP2_STREAM_ERROR` naming `NGHTTP2_REFUSED_STREAM`;
 * - a stream that could not be opened on a session that had received GOAWAY (nothing was sent):
 *   node's `ERR_HTTP2_GOAWAY_SESSION`.
 * Every backend that speaks h2 runs on `node:http2` and keeps the `code` and `message` of its
 * error (got's through `cleanError`, fetch's as the cause of undici's TypeError).
 *
 * @example
 * if (typed instanceof NetworkError && unprocessedStream(error)) resend();
 */
export function unprocessedStream(error: unknown): boolean {
  for (let depth = 0; typeof error === 'object' && error !== null && depth < 4; depth++) {
    const { code, message } = error as { code?: unknown; message?: unknown };
    if (code === 'ERR_HTTP2_GOAWAY_SESSION') return true;
    if (code === 'ERR_HTTP2_STREAM_ERROR' && typeof message === 'string' && message.endsWith(REFUSED)) return true;
    error = (error as { cause?: unknown }).cause;
  }
  return false;
}
