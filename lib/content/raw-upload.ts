import { bufferedBody, streamedBody, type WireBody } from '../model/backend.js';
import { EncodeError } from '../core/errors.js';
import { isMultipart } from './multipart-brand.js';
import { releaseContent } from './multipart-source.js';
import { checkUnread, isBlob, iterableOf, releaseStream, type PipeableStream } from './stream-source.js';

/** A body that is sent as bytes, whatever the content type: never converted, never buffered whole. */
export type RawUpload = Uint8Array | ArrayBuffer | PipeableStream | ReadableStream<Uint8Array> | Blob;

// Duck-typed on purpose: streams and views from another realm (jest's, a worker's) are still uploads.
export function isRawUpload(value: unknown): value is RawUpload {
  if (typeof value !== 'object' || value === null) return false;
  if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return true;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate.pipe === 'function' || // node Readable
    typeof candidate.getReader === 'function' || // web ReadableStream
    isBlob(value)
  );
}

/** Turns a raw upload into a wire body: bytes in one piece, streams and blobs streamed. */
export function rawUploadBody(value: RawUpload): WireBody {
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return bufferedBody(bytesOf(value, 'the request body'));
  if (isBlob(value)) return streamedBody(iterableOf(value.stream() as ReadableStream<Uint8Array>), value.size);
  // a web stream someone else is reading: reading it here too would fail once connected
  if ((value as { locked?: unknown }).locked === true)
    throw new EncodeError('the request body is a ReadableStream that is locked (a reader already holds it): pass a stream nobody reads');
  // a web stream is read through its reader where it does not iterate (Safari)
  if (typeof (value as Partial<ReadableStream>).getReader === 'function') return streamedBody(iterableOf(value as ReadableStream<Uint8Array>));
  // has pipe(), but no way to read it chunk by chunk (an Observable, an old stream library's)
  if (typeof (value as Partial<AsyncIterable<unknown>>)[Symbol.asyncIterator] !== 'function') {
    throw new EncodeError(
      'the request body has pipe() or getReader() but cannot be iterated, so it cannot be streamed: pass a Node Readable, a web ReadableStream, bytes, a string or a Blob',
    );
  }
  checkUnread(value, 'the request body');
  return streamedBody(value as AsyncIterable<Uint8Array>);
}

/** The bytes of a buffer or a view: an EncodeError naming `what` before sending, not a network error, when its buffer was transferred away. */
export function bytesOf(value: ArrayBuffer | ArrayBufferView, what: string): Uint8Array {
  try {
    return value instanceof ArrayBuffer ? new Uint8Array(value) : new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  } catch (error) {
    throw new EncodeError(`${what} is (a view of) a detached ArrayBuffer, transferred elsewhere: it has no bytes left to send`, { cause: error });
  }
}

/**
 * Closes an upload's source when the request fails, so a file stream does not keep its
 * descriptor open. Bytes and blobs hold nothing; a stream already finished is left alone.
 */
export function releaseUpload(value: unknown): void {
  if (isMultipart(value)) {
    for (const part of value.parts) releaseContent(part.content); // its streams too
    return;
  }
  if (!isRawUpload(value) || ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return;
  releaseStream(value);
}
