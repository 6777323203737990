import type { CookieJar } from 'tough-cookie';
import type { Backend } from '../model/backend.js';
import { ConfigError } from '../core/errors.js';
import { describeValue } from '../core/describe-value.js';
import { assertClientLevel, type Scope } from './scope.js';

/** The backends that come with the library, by name. */
export type BackendName = 'native' | 'axios' | 'got' | 'fetch';

/** A backend by name, or your own {@link Backend} object. */
export type BackendChoice = BackendName | Backend;

/** `client.cookies`: on (the client's own jar), off, or your own tough-cookie jar. */
export type CookiesChoice = boolean | CookieJar;

/**
 * Client-level settings: `c.client` in `HttpBuilder.configure()`.
 *
 * @example
 * HttpBuilder.configure((c) => { c.client.backend = 'native'; });
 */
export class ClientConfig {
  #backend: BackendChoice | undefined;
  #cookies: CookiesChoice | undefined;

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
   * this one share the jar. A tough-cookie `CookieJar` of your own is used instead of one
   * made by the client, so you can persist it or share it with other code (as got's
   * `cookieJar` option); `true` in a derived client keeps the jar it inherits.
   *
   * @example
   * const jar = new CookieJar(); // from 'tough-cookie'
   * HttpBuilder.configure((c) => { c.client.cookies = jar; });
   */
  get cookies(): CookiesChoice | undefined {
    return this.#cookies;
  }
  set cookies(value: CookiesChoice | undefined) {
    assertClientLevel(this.scope, 'client.cookies');
    if (value !== undefined && typeof value !== 'boolean' && !isCookieJar(value)) {
      throw new ConfigError(`client.cookies must be true, false or a tough-cookie CookieJar, not ${describeValue(value)}`);
    }
    this.#cookies = value;
  }
}

/** A tough-cookie jar, by shape: one from the application's own copy of tough-cookie is as good. */
function isCookieJar(value: unknown): value is CookieJar {
  const jar = value as Partial<CookieJar> | null;
  return (
    typeof jar === 'object' && jar !== null && typeof jar.getCookies === 'function' && typeof jar.setCookie === 'function' && typeof jar.store === 'object'
  );
}
