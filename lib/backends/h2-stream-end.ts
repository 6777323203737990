import type http2 from 'node:http2';

/** RFC 9113 §7 error codes by value. */
const CODE_NAMES = [
  'NO_ERROR',
  'PROTOCOL_ERROR',
  'INTERNAL_ERROR',
  'FLOW_CONTROL_ERROR',
  'SETTINGS_TIMEOUT',
  'STREAM_CLOSED',
  'FRAME_SIZE_ERROR',
  'REFUSED_STREAM',
  'CANCEL',
  'COMPRESSION_ERROR',
  'CONNECT_ERROR',
  'ENHANCE_YOUR_CALM',
  'INADEQUATE_SECURITY',
  'HTTP_1_1_REQUIRED',
];

/**
 * Lets a client HTTP/2 stream's body end only at the server's END_STREAM. node's http2 ends the
 * readable side (`push(null)`, then 'end') also when the stream closes any other way without an
 * error of its own: the connection cut mid-body (CANCEL), RST_STREAM with CANCEL or NO_ERROR,
 * so a truncated body would look whole. Such an end becomes an ECONNRESET error instead, as a
 * cut HTTP/1.1 body does. A destroy of our own (no error, stream still open) stays quiet.
 * (A content-length that the DATA received does not match at END_STREAM is nghttp2's
 * PROTOCOL_ERROR already.)
 *
 * Call it before the stream can receive anything (straight after `session.request()`).
 *
 * @example
 * const stream = session.request({ ':path': '/' });
 * endOnlyAtEndStream(stream);
 */
export function endOnlyAtEndStream(stream: http2.ClientHttp2Stream): void {
  let endStream = false;
  const push = stream.push.bind(stream);
  // node pushes the end while the stream is open only for END_STREAM (on DATA, HEADERS or
  // trailers); it pushes it again, closed, when the stream closes or is destroyed
  stream.push = (chunk: unknown, encoding?: BufferEncoding): boolean => {
    if (chunk !== null) return push(chunk, encoding);
    if (!stream.closed && !stream.destroyed) endStream = true;
    if (endStream) return push(null);
    // closed with NO_ERROR before END_STREAM; node still uses the stream after this push
    if (!stream.destroyed) process.nextTick(() => stream.destroy());
    return false;
  };
  const destroy = stream._destroy.bind(stream);
  stream._destroy = (error: Error | null, callback: (error?: Error | null) => void): void => {
    const cut = error == null && !endStream && stream.closed;
    destroy(error, (own?: Error | null) => callback(own ?? (cut ? truncated(stream.rstCode) : own)));
  };
}

function truncated(code: number): Error {
  const name = CODE_NAMES[code] ?? String(code);
  return Object.assign(new Error(`the HTTP/2 stream closed before the server ended it (${name})`), { code: 'ECONNRESET' });
}
