/** What {@link earlierFailure} reads of a Node `Readable` (its shape: this file imports no `node:` module). */
export interface StreamState {
  readonly errored: Error | null;
  readonly destroyed: boolean;
  readonly readableEnded: boolean;
}

/**
 * Why `stream` can no longer be read, when it failed or was closed before its end: its error,
 * or a reset. Its 'error' and 'close' events are over by then, so listeners would wait forever.
 */
export function earlierFailure(stream: StreamState): Error | undefined {
  if (stream.errored) return stream.errored;
  if (stream.destroyed && !stream.readableEnded) return cutShort();
  return undefined;
}

/** What a body cut short without an error of its own fails with (node's own wording and code). */
export function cutShort(): Error {
  return Object.assign(new Error('aborted'), { code: 'ECONNRESET' });
}

/** What an HTTP/2 body that ended `owed` bytes short of its content-length fails with: cut, as a reset HTTP/1.1 body. */
export function shortOfLength(owed: number): Error {
  return Object.assign(new Error(`the HTTP/2 stream ended ${owed} bytes short of its content-length`), { code: 'ECONNRESET' });
}
