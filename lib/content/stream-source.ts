// How a body source is recognised and given up, shared by raw uploads and multipart parts.
// Duck-typed on purpose: streams and blobs from another realm (jest's, a worker's) count too.

/** A Blob or File. */
export function isBlob(value: unknown): value is Blob {
  return typeof value === 'object' && value !== null && typeof (value as Blob).stream === 'function' && typeof (value as Blob).size === 'number';
}

/** Closes a node stream or cancels a web stream that will not be read (a file stream keeps its descriptor otherwise). */
export function releaseStream(stream: unknown): void {
  const source = stream as { destroy?: () => void; cancel?: () => Promise<void>; locked?: boolean };
  if (typeof source.destroy === 'function') source.destroy();
  else if (typeof source.cancel === 'function' && !source.locked) source.cancel().catch(() => {});
}
