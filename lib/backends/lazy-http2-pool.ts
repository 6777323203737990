import { loadOnce } from '../core/load-once.js';
import { clientClosed, type TransportOptions, type WireRequest, type WireResponse } from '../model/backend.js';
import type { Http2Pool } from './native-h2.js';

// node:http2 and the session code load with the first HTTP/2 request, not with the package
const http2Code = loadOnce(() => import('./native-h2.js'));

/**
 * @internal The native backend's HTTP/2 sessions (`client.http2`), made on the first https
 * request: until then neither `node:http2` nor `native-h2.ts` is loaded, so a program that
 * imports the package and never sends over HTTP/2 does not pay for them. Once loaded, requests
 * go straight to the pool.
 */
export class LazyHttp2Pool {
  readonly #options: TransportOptions;
  #pool: Http2Pool | undefined;
  #closed = false;

  constructor(options: TransportOptions) {
    this.#options = options;
  }

  send(request: WireRequest, sendH1: (request: WireRequest) => Promise<WireResponse>): Promise<WireResponse> {
    const pool = this.#pool ?? this.#made(http2Code.loaded);
    if (pool !== undefined) return pool.send(request, sendH1);
    return http2Code().then((code) => {
      // closed while the code loaded: the request must not open a session close() has let go
      if (this.#closed) throw clientClosed();
      return (this.#made(code) as Http2Pool).send(request, sendH1);
    });
  }

  close(): void {
    this.#closed = true;
    this.#pool?.close();
  }

  #made(code: typeof import('./native-h2.js') | undefined): Http2Pool | undefined {
    if (code !== undefined) this.#pool ??= new code.Http2Pool(this.#options);
    return this.#pool;
  }
}
