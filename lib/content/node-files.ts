import { fileURLToPath } from 'node:url';
import { EncodeError } from '../core/errors.js';
import { useFileOpener, type OpenedFile } from './file-source.js';

/**
 * Node's side of `{ path }` multipart parts: the size from `fs.stat` (a regular file only), the
 * bytes streamed with `fs.createReadStream`, never read whole. Registered on import, by the node
 * platform.
 */
async function openNodeFile(source: string | URL, partName: string): Promise<OpenedFile> {
  // node:fs at the first file part, not on import: its ES module face loads node:stream
  const { createReadStream, promises } = process.getBuiltinModule('node:fs');
  const path = source instanceof URL ? fileURLToPath(source) : source;
  let size: number;
  try {
    const stats = await promises.stat(path);
    if (!stats.isFile()) throw new Error('not a regular file');
    size = stats.size;
  } catch (error) {
    throw new EncodeError(`multipart part '${partName}': cannot read file '${path}': ${(error as Error).message}`, { cause: error });
  }
  // read no further than the size announced; a file that grew is cut there, one that shrank is caught by the encoder
  return { size, read: () => (size === 0 ? [] : createReadStream(path, { start: 0, end: size - 1 })) };
}

useFileOpener(openNodeFile);
