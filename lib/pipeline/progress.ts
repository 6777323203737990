import { inMemory, streamedBody, type WireBody } from '../model/backend.js';
import { HttpBuilderError } from '../core/errors.js';
import type { Progress, ProgressListener } from '../config/execution-config.js';

/**
 * @internal What a caller's callback (a progress listener, a hook) threw, carried through the
 * transport's error mapping (as an HttpBuilderError it passes unchanged) and handed back to the
 * caller as it was thrown ({@link listenerThrown}): the caller's own bug, not a network failure
 * that would invite a retry.
 */
class ListenerFailure extends HttpBuilderError {
  constructor(
    readonly thrown: unknown,
    source: string,
  ) {
    super(`${source} threw`);
  }
}

/** `error`, or what a progress listener or a hook threw when that is what `error` carries. */
export function listenerThrown(error: unknown): unknown {
  return error instanceof ListenerFailure ? error.thrown : error;
}

/** What `source` (a caller's callback) threw, wrapped to travel as a {@link ListenerFailure}; one already wrapped stays as it is. */
export function carriedThrow(thrown: unknown, source: string): HttpBuilderError {
  return thrown instanceof ListenerFailure ? thrown : new ListenerFailure(thrown, source);
}

function notify(listener: ProgressListener, transferred: number, total: number | undefined): void {
  try {
    listener(progress(transferred, total));
  } catch (error) {
    throw new ListenerFailure(error, 'a progress listener');
  }
}

function progress(transferred: number, total: number | undefined): Progress {
  return { transferred, total, percent: total === undefined || total === 0 ? (total === 0 ? 100 : undefined) : Math.min(100, (transferred / total) * 100) };
}

/** The body, counted as it streams (bytes as they go on the wire, before any decompression). */
export function countedBody(body: AsyncIterable<Uint8Array>, total: number | undefined, listener: ProgressListener): AsyncIterable<Uint8Array> {
  return {
    async *[Symbol.asyncIterator]() {
      let transferred = 0;
      for await (const chunk of body) {
        transferred += chunk.byteLength;
        notify(listener, transferred, total);
        yield chunk;
      }
    },
  };
}

/** An upload body that reports progress as the transport reads it; an in-memory one reports once, when sent. */
export function countedUpload(body: WireBody, listener: ProgressListener): WireBody {
  if (inMemory(body)) return body;
  return streamedBody(countedBody(body, body.length, listener), body.length);
}

/** Reports a body that went out in one piece (bytes in memory) as complete. */
export function reportSent(body: WireBody | undefined, listener: ProgressListener | undefined): void {
  if (!listener || body === undefined || !inMemory(body)) return;
  // the length, when the body states it: the bytes of a text body are not made just for this
  const size = body.length ?? body.bytes!.byteLength;
  notify(listener, size, size);
}
