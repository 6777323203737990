// What fromServer.stream() returns, by platform: the node platform registers node's Readable
// (node-body-stream.ts, with a piped fast path for a node wire body); the browser/Workers build
// gives a web ReadableStream<Uint8Array> over the same bytes.

/** @internal What the piped fast path needs of the response it reads. */
export interface PipeWatch {
  /** the body was read to its end */
  ended(): void;
  /** whether it was */
  complete(): boolean;
  /** a failure while reading, as the error the reader gets */
  typed(error: unknown): Error;
}

/** @internal How a platform makes the stream of a body. */
export interface BodyStreams {
  /** a stream of `chunks` (whose errors are already typed) */
  of(chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): unknown;
  /** the stream straight off a wire body the platform can pipe (node's own streams), or `undefined` for any other */
  piped(body: AsyncIterable<Uint8Array>, watch: PipeWatch): unknown;
}

/** The web build's streams: a `ReadableStream` pulling chunks as its reader asks for them. */
const WEB_STREAMS: BodyStreams = { of: readableStreamOf, piped: () => undefined };

let streams: BodyStreams = WEB_STREAMS;

/** @internal Plugs in node's streams (the node platform does, on import). */
export function useBodyStreams(given: BodyStreams): void {
  streams = given;
}

/** @internal The platform's streams. */
export function bodyStreams(): BodyStreams {
  return streams;
}

/**
 * @internal A web `ReadableStream` of `chunks`: each read pulls one chunk (no read-ahead), a
 * failure errors the stream, and `cancel()` ends the iteration (freeing the connection).
 */
export function readableStreamOf(chunks: Iterable<Uint8Array> | AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel(reason) {
        await iterator.return?.(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
