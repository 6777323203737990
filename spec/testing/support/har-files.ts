import { afterAll } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Jest helper: a temporary folder for the HAR files of one spec file, removed in `afterAll`.
 * `file()` names a new file in it each call; `path(name)` any other.
 *
 * @example
 * const files = useHarFiles('hb-har-');
 * it('...', () => { const recorder = MockBackend.record(files.file()); });
 */
export function useHarFiles(prefix: string): { readonly file: () => string; readonly path: (name: string) => string } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  let count = 0;
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return { file: () => join(dir, `recorded-${++count}.har`), path: (name) => join(dir, name) };
}
