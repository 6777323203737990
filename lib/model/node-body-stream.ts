import type { Readable } from 'node:stream';
import { useBodyStreams, type PipeWatch } from './body-stream.js';
import { nodeStream } from './node-builtins.js';
import { cutShort, earlierFailure } from './stream-end.js';

/**
 * A node stream straight off the wire (native and axios backends, nothing to decode), piped
 * through with its errors typed: no promise per chunk, which for a large download is most of
 * what an async-iterator chain would cost. `undefined` for a body that is no node stream.
 */
function piped(body: AsyncIterable<Uint8Array>, watch: PipeWatch): Readable | undefined {
  const { PassThrough, Readable } = nodeStream();
  if (!(body instanceof Readable)) return undefined;
  const out = new PassThrough();
  // a stream taken and never read is closed with the exchange: that error must not crash the
  // process (readers still get it through their own listener or iteration)
  out.on('error', () => {});
  // failed before it was taken (a handler awaited something first): its events are over
  const failed = earlierFailure(body);
  if (failed) return out.destroy(watch.typed(failed));
  body.once('end', () => watch.ended());
  body.once('error', (error) => out.destroy(watch.typed(error)));
  // a body cut short may close without 'end' or 'error' (as readAll knows)
  body.once('close', () => {
    if (!watch.complete() && !out.destroyed) out.destroy(watch.typed(cutShort()));
  });
  return body.pipe(out);
}

// Node's fromServer.stream() is a Readable (API.md); registered on import, by the node platform.
useBodyStreams({ of: (chunks) => nodeStream().Readable.from(chunks), piped });
