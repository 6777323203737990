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
