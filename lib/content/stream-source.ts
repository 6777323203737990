import { EncodeError } from '../core/errors.js';

/**
 * A Node `Readable` (or any stream with `pipe()` whose chunks can be iterated), described by its
 * shape so the types need no `node:stream` (a browser project has no Node types).
 */
export interface PipeableStream extends AsyncIterable<unknown> {
  pipe(...args: never[]): unknown;
}
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

/**
 * A stream's chunks as an async iterable: node streams, async iterables and web streams that
 * iterate (Node, Deno, recent browsers) as they are; a web `ReadableStream` without
 * `Symbol.asyncIterator` (Safari, older Chromium) read through its reader.
 */
export function iterableOf<T>(stream: AsyncIterable<T> | ReadableStream<T>): AsyncIterable<T> {
  if (typeof (stream as Partial<AsyncIterable<T>>)[Symbol.asyncIterator] === 'function') return stream as AsyncIterable<T>;
  return readerChunks(stream as ReadableStream<T>);
}

async function* readerChunks<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  let finished = false;
  try {
    for (let next = await reader.read(); !next.done; next = await reader.read()) yield next.value;
    finished = true;
  } finally {
    // stopped early (a failed request): cancel the stream, as its own iterator would
    if (!finished) await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}
