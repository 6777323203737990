import type { Backend } from '../model/backend.js';
import { ConfigError } from '../core/errors.js';
import { assertClientLevel, type Scope } from './scope.js';

/** The backends that come with the library, by name. */
export type BackendName = 'native' | 'axios' | 'got' | 'fetch';

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
  #cookies: boolean | undefined;

  constructor(private readonly scope: Scope) {}

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

  /**
   * `true` keeps a cookie jar for this client: `Set-Cookie` is stored (domain, path, expiry,
   * `Secure` honoured) and sent back on later requests and redirects. Clients derived from
   * this one share the jar.
   */
  get cookies(): boolean | undefined {
    return this.#cookies;
  }
  set cookies(value: boolean | undefined) {
    assertClientLevel(this.scope, 'client.cookies');
    if (value !== undefined && typeof value !== 'boolean') throw new ConfigError('client.cookies must be true or false');
    this.#cookies = value;
  }
}
