import { EncodeError } from '../core/errors.js';
// How a body source is recognised and given up, shared by raw uploads and multipart parts.
// Duck-typed on purpose: streams and blobs from another realm (jest's, a worker's) count too.

/** A Blob or File. */
export function isBlob(value: unknown): value is Blob {
  return typeof value === 'object' && value !== null && typeof (value as Blob).stream === 'function' && typeof (value as Blob).size === 'number';
}

/**
 * Refuses a node stream that has nothing left to give: ended (read to its end, by an earlier
 * request, say), destroyed or errored. Sent, it would go out as an empty body. (A web stream
 * read to its end cannot be told apart: it reads as empty.)
 */
export function checkUnread(stream: unknown, what: string): void {
  const source = stream as { readableEnded?: unknown; destroyed?: unknown; errored?: unknown };
  if (source.readableEnded === true || source.destroyed === true || (source.errored ?? null) !== null) {
    throw new EncodeError(
      `${what} is a stream that was already read to its end, destroyed or failed: a stream can be sent only once (make a new one for each request)`,
    );
  }
}

/** Closes a node stream or cancels a web stream that will not be read (a file stream keeps its descriptor otherwise). */
export function releaseStream(stream: unknown): void {
  const source = stream as { destroy?: () => void; cancel?: () => Promise<void>; locked?: boolean };
  if (typeof source.destroy === 'function') source.destroy();
  else if (typeof source.cancel === 'function' && !source.locked) source.cancel().catch(() => {});
}
