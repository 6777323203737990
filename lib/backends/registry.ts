import { ConfigError } from '../core/errors.js';
import { clientClosed, type Backend, type TransportOptions } from '../model/backend.js';
import { NativeBackend } from './native.js';
import type { BackendName } from '../config/client-config.js';

type Factory = (options: TransportOptions) => Promise<Backend>;

// Loaded on first use, so a client that never picks axios, got, fetch or undici never loads them.
const LOADERS: Readonly<Record<Exclude<BackendName, 'native'>, () => Promise<Factory>>> = {
  axios: () => import('./axios.js').then((module) => module.createAxiosBackend),
  got: () => import('./got.js').then((module) => module.createGotBackend),
  fetch: () => import('./undici-fetch.js').then((module) => module.createNodeFetchBackend),
  undici: () => import('./undici.js').then((module) => module.createUndiciBackend),
};

/**
 * @internal A Backend object's method that takes the client's transport settings: {@link backendFor}
 * calls it and uses the backend it returns, so a wrapper (the recorder of `MockBackend.record`)
 * sends as the client would without it. `Symbol.for`: one key for the ESM and CommonJS copies.
 */
export const WITH_TRANSPORT: unique symbol = Symbol.for('httpbuilder-ts.withTransport');

/** @internal A Backend object that takes the client's transport settings (see {@link WITH_TRANSPORT}). */
export interface TransportAware extends Backend {
  [WITH_TRANSPORT](options: TransportOptions): Backend;
}

/**
 * The backend for `client.backend`: a name (made with the client's transport settings), or a
 * Backend object used as it is (or, when it takes them, given those settings: {@link WITH_TRANSPORT}).
 */
export function backendFor(choice: BackendName | Backend | undefined, options: TransportOptions): Backend {
  if (options.http2 && choice === 'axios')
    throw new ConfigError("client.http2: the 'axios' backend cannot speak HTTP/2 (axios has no HTTP/2 transport): use 'native', 'undici', 'got' or 'fetch'");
  if (choice === undefined || choice === 'native') return new NativeBackend(options);
  if (typeof choice === 'object' && choice !== null && typeof choice.send === 'function')
    return WITH_TRANSPORT in choice ? (choice as TransportAware)[WITH_TRANSPORT](options) : choice;
  if (typeof choice === 'string' && Object.hasOwn(LOADERS, choice)) return new LazyBackend(choice, LOADERS[choice], options);
  throw new ConfigError(`client.backend ${JSON.stringify(choice)} is not a backend: use 'native', 'undici', 'axios', 'got', 'fetch' or a Backend object`);
}

/** Loads its backend (and the backend's package) on the first request, then delegates. */
class LazyBackend implements Backend {
  readonly proxies = true; // every backend it loads does
  #loading: Promise<Backend> | undefined;
  /** Once loaded: requests go straight to it, with no promise of this layer in between. */
  #loaded: Backend | undefined;
  #closed = false;

  constructor(
    readonly name: string,
    private readonly load: () => Promise<Factory>,
    private readonly options: TransportOptions,
  ) {}

  send(request: Parameters<Backend['send']>[0]): ReturnType<Backend['send']> {
    if (this.#closed) return Promise.reject(clientClosed());
    if (this.#loaded) return this.#loaded.send(request);
    // closed while the backend loaded: the request must not go out on a pool close() has let go
    return this.#backend().then((backend) => (this.#closed ? Promise.reject(clientClosed()) : backend.send(request)));
  }

  async close(): Promise<void> {
    this.#closed = true;
    const backend = await this.#loading?.catch(() => undefined);
    await backend?.close();
  }

  #backend(): Promise<Backend> {
    this.#loading ??= this.load()
      .then((create) => create(this.options))
      .then(
        (backend) => (this.#loaded = backend),
        (error: unknown) => {
          this.#loading = undefined; // a package installed later can still be picked up
          throw error;
        },
      );
    return this.#loading;
  }
}
