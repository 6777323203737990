/**
 * Two figures per call that do not drift with the machine's speed, for `overhead.ts`: promises
 * created (each one a trip through the microtask queue) and bytes allocated on the JS heap
 * (garbage the collector pays for, in proportion to how much the transport allocates too).
 *
 * @module
 */
import { Session } from 'node:inspector/promises';
import { promiseHooks } from 'node:v8';

/** Promises created per call of `call`, over `calls` sequential calls (exact). */
export async function promisesPerCall(call: () => Promise<unknown>, calls: number): Promise<number> {
  let created = 0;
  const stop = promiseHooks.onInit(() => created++) as () => void;
  try {
    for (let i = 0; i < calls; i++) await call();
  } finally {
    stop();
  }
  // the loop's own await of each call makes none: it awaits the call's promise
  return created / calls;
}

/**
 * Bytes allocated per call, from V8's sampling heap profiler with collected objects kept in the
 * sample (so garbage counts too): an estimate, steady to a few percent at this interval.
 */
export async function bytesPerCall(call: () => Promise<unknown>, calls: number): Promise<number> {
  const session = new Session();
  session.connect();
  try {
    await session.post('HeapProfiler.startSampling', { samplingInterval: 32, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    for (let i = 0; i < calls; i++) await call();
    const { profile } = await session.post('HeapProfiler.stopSampling');
    return sampledBytes(profile.head) / calls;
  } finally {
    session.disconnect();
  }
}

interface SampledNode {
  readonly selfSize: number;
  readonly children: readonly SampledNode[];
}

function sampledBytes(node: SampledNode): number {
  return node.children.reduce((sum, child) => sum + sampledBytes(child), node.selfSize);
}
