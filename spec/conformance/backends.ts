import type { BackendChoice } from '../../lib/index.js';

/** Every backend the conformance kit runs on. A new backend adds itself here and nowhere else. */
export const BACKENDS: ReadonlyArray<{ readonly name: string; readonly choice: BackendChoice }> = [{ name: 'native', choice: 'native' }];
