import type { Backend } from '../backends/backend.js';
import type { BackendName } from '../backends/registry.js';
import { assertClientLevel, type Scope } from './scope.js';

/** A backend by name, or your own {@link Backend} object. */
export type BackendChoice = BackendName | Backend;

/**
 * Client-level settings: `c.client` in `HttpBuilder.configure()`.
 *
 * @example
 * HttpBuilder.configure((c) => { c.client.backend = 'native'; });
 */
export class ClientConfig {
  #backend: BackendChoice | undefined;

  constructor(private readonly scope: Scope) {
    Object.seal(this);
  }

  /**
   * The transport: `'native'` (default, `node:http`/`node:https`), `'axios'`, `'got'`, `'fetch'`
   * (the package is loaded on first use; install it yourself), or a {@link Backend} object.
   */
  get backend(): BackendChoice | undefined {
    return this.#backend;
  }
  set backend(value: BackendChoice | undefined) {
    assertClientLevel(this.scope, 'client.backend');
    this.#backend = value;
  }
}
