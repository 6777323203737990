import { isBlob, releaseStream } from './stream-source.js';

/**
 * A stream a part reads from (a Node `Readable`, a web `ReadableStream`, any async iterable):
 * chunks are bytes (strings are taken as UTF-8). Read once, when the request is sent.
 */
export type PartStream = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

/**
 * A file on disk: its size (`fs.stat`, when the body is encoded) is the part's `Content-Length`; its
 * bytes are streamed. Node, Bun and Deno only: a browser or Worker has no file system (a `ConfigError`).
 */
export interface PathSource {
  readonly path: string | URL;
}

/** A stream whose byte count is known up front: the part gets a `Content-Length` and must deliver exactly `size` bytes. */
export interface SizedStream {
  readonly stream: PartStream;
  readonly size: number;
}

/**
 * What a file part can be made of. Strings (UTF-8), bytes, Blobs, paths and sized streams have a
 * known size; a bare stream does not (the whole body is then sent chunked).
 */
export type PartContent = string | Uint8Array | ArrayBuffer | Blob | PathSource | SizedStream | PartStream;

// How a part's content is recognised (duck-typed: streams and views from another realm count too).

/** @internal a stream-like source: node Readable, web ReadableStream or async iterable. */
export function isPartStream(value: unknown): value is PartStream {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string | symbol, unknown>;
  return typeof candidate.pipe === 'function' || typeof candidate.getReader === 'function' || typeof candidate[Symbol.asyncIterator] === 'function';
}

/** @internal */
export function isPathSource(value: unknown): value is PathSource {
  if (typeof value !== 'object' || value === null || isPartStream(value)) return false; // fs.ReadStream has a `path` too
  const path = (value as PathSource).path;
  return typeof path === 'string' || path instanceof URL;
}

/** @internal */
export function isSizedStream(value: unknown): value is SizedStream {
  if (typeof value !== 'object' || value === null || isPartStream(value) || isBlob(value)) return false;
  const { stream, size } = value as SizedStream;
  return isPartStream(stream) && Number.isSafeInteger(size) && size >= 0;
}

/** @internal */
export function isPartContent(value: unknown): value is PartContent {
  return (
    typeof value === 'string' ||
    ArrayBuffer.isView(value) ||
    value instanceof ArrayBuffer ||
    isBlob(value) ||
    isPathSource(value) ||
    isSizedStream(value) ||
    isPartStream(value)
  );
}

/** @internal closes a part's stream that will not be read (a path is opened only when sent: nothing to close). */
export function releaseContent(content: PartContent): void {
  const stream = isSizedStream(content) ? content.stream : isPartStream(content) ? content : undefined;
  if (stream !== undefined) releaseStream(stream);
}
