import { clientClosed, type Backend, type TransportOptions } from '../model/backend.js';

/** @internal Makes a backend with the client's transport settings (a backend module's `create...Backend`). */
export type BackendFactory = (options: TransportOptions) => Promise<Backend>;

/**
 * @internal A backend whose module (and the package it wraps) is loaded on the first request,
 * then delegated to: a client that never sends loads nothing.
 */
export class LazyBackend implements Backend {
  readonly proxies = true; // every backend it loads follows WireRequest.proxy (and the web build routes none)
  #loading: Promise<Backend> | undefined;
  #closed = false;

  constructor(
    readonly name: string,
    private readonly load: () => Promise<BackendFactory>,
    private readonly options: TransportOptions,
  ) {}

  send(request: Parameters<Backend['send']>[0]): ReturnType<Backend['send']> {
    if (this.#closed) return Promise.reject(clientClosed());
    // (once loaded, an own `send` bound to the loaded backend stands in front of this one)
    // closed while the backend loaded: the request must not go out on a pool close() has let go
    return this.#backend().then((backend) => (this.#closed ? Promise.reject(clientClosed()) : backend.send(request)));
  }

  async close(): Promise<void> {
    this.#closed = true;
    delete (this as { send?: unknown }).send; // this class's send() again, which refuses from now on
    const backend = await this.#loading?.catch(() => undefined);
    await backend?.close();
  }

  #backend(): Promise<Backend> {
    this.#loading ??= this.load()
      .then((create) => create(this.options))
      .then(
        (backend) => {
          // from now on a request goes to the loaded backend's own send(), not through this one
          if (!this.#closed) this.send = backend.send.bind(backend);
          return backend;
        },
        (error: unknown) => {
          this.#loading = undefined; // a package installed later can still be picked up
          throw error;
        },
      );
    return this.#loading;
  }
}
