/** How far (bytes kept) the fastest reader may get ahead of the slowest before it waits for it. */
const MAX_AHEAD = 1024 * 1024;

/**
 * One response body read by several readers (`client.dedupe`): the source is read once, as fast
 * as the fastest reader asks, and each chunk kept only until the slowest reader has passed it;
 * the fastest waits while more than {@link MAX_AHEAD} bytes are kept (memory stays bounded
 * whatever a slow reader does).
 * When every reader has finished or given up, `done(whole)` is told whether the source was read
 * to its end.
 *
 * @example
 * const [a, b] = teeBody(response.body, 2, () => response.discard());
 * for await (const chunk of a.body) ...; b.close();
 */
export function teeBody(source: AsyncIterable<Uint8Array>, readers: number, done: (whole: boolean) => void): TeeReader[] {
  const iterator = source[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  /** index of chunks[0] in the whole body */
  let dropped = 0;
  let ended = false;
  let failure: { error: unknown } | undefined;
  let pulling: Promise<void> | undefined;
  const positions = Array.from({ length: readers }, () => 0);
  let open = readers;
  let kept = 0;
  /** Resolved when the slowest reader lets chunks go: a reader waiting to pull more goes on. */
  let caughtUp: { promise: Promise<void>; resolve: () => void } | undefined;

  const pull = () =>
    (pulling ??= iterator.next().then(
      (next) => {
        pulling = undefined;
        if (next.done) ended = true;
        else {
          chunks.push(next.value);
          kept += next.value.byteLength;
        }
      },
      (error: unknown) => {
        pulling = undefined;
        failure = { error };
      },
    ));

  const forget = () => {
    const slowest = Math.min(...positions);
    let freed = false;
    while (dropped < slowest && chunks.length > 0) {
      kept -= chunks.shift()!.byteLength;
      dropped++;
      freed = true;
    }
    if (freed && caughtUp) {
      caughtUp.resolve();
      caughtUp = undefined;
    }
  };

  const behind = () => {
    if (!caughtUp) {
      let resolve!: () => void;
      caughtUp = { promise: new Promise<void>((r) => (resolve = r)), resolve };
    }
    return caughtUp.promise;
  };

  const close = (reader: number) => {
    if (positions[reader] === Infinity) return;
    positions[reader] = Infinity;
    forget();
    if (--open === 0) done(ended);
  };

  return positions.map((_, reader) => ({
    close: () => close(reader),
    body: {
      async *[Symbol.asyncIterator]() {
        try {
          for (;;) {
            const at = positions[reader];
            if (at - dropped < chunks.length) {
              positions[reader] = at + 1;
              const chunk = chunks[at - dropped];
              forget();
              yield chunk;
              continue;
            }
            if (failure) throw failure.error;
            if (ended) return;
            await (kept > MAX_AHEAD ? behind() : pull());
          }
        } finally {
          close(reader);
        }
      },
    },
  }));
}

/** One reader of a {@link teeBody}: its body, and `close()` for a reader that gives up without reading it to the end. */
export interface TeeReader {
  readonly body: AsyncIterable<Uint8Array>;
  readonly close: () => void;
}
