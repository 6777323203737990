// What a piece of code keeps alive, measured in the jest worker itself.
import v8 from 'node:v8';
import vm from 'node:vm';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** The bytes the process holds after a full collection (heap and array buffers): what is retained, not garbage. */
export function retainedBytes(): number {
  gc();
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
}

/**
 * A body of `piece` repeated `times` and then `end`; `retained()` is what the process came to
 * retain while reading the repeats, measured just before `end` (the item they make still open).
 */
export function bodyRetaining(piece: Uint8Array, times: number, end: Uint8Array): { body: AsyncIterable<Uint8Array>; retained: () => number } {
  let retained = 0;
  async function* body(): AsyncGenerator<Uint8Array> {
    await Promise.resolve();
    const before = retainedBytes();
    for (let k = 0; k < times; k++) yield piece;
    retained = retainedBytes() - before;
    yield end;
  }
  return { body: body(), retained: () => retained };
}
