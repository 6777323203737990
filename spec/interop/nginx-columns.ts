import { afterEach, describe } from '@jest/globals';
import { HttpBuilder, type HttpConfig } from '../../lib/index.js';
import { BACKENDS } from '../conformance/backends.js';
import type { NginxPeer } from './servers/index.js';

/** HTTP/1.1 in plain text, HTTP/1.1 over TLS, and HTTP/2 (by ALPN) for the backends that speak it. */
const COLUMNS = [
  { name: 'http', scheme: 'http', http2: false },
  { name: 'https', scheme: 'https', http2: false },
  { name: 'h2', scheme: 'https', http2: true },
] as const;

/**
 * Defines the scenarios of `define` once per backend and column (`<backend> <column>`, as the
 * conformance kit names them), each given a maker of clients of nginx on that backend and
 * protocol, `more` added to their configuration; the clients are closed after each test.
 *
 * @example
 * eachNginxColumn(nginx, (client) => {
 *   it('reads JSON', async () => { expect(await client().get(...)).toEqual(NGINX_JSON); });
 * });
 */
export function eachNginxColumn(
  nginx: { readonly server: NginxPeer },
  define: (client: (more?: (c: HttpConfig) => void) => HttpBuilder, column: { readonly http2: boolean }) => void,
): void {
  const open: HttpBuilder[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((http) => http.close()));
  });
  for (const backend of BACKENDS) {
    for (const column of COLUMNS) {
      if (column.http2 && !backend.traits.speaksHttp2) continue;
      describe(`${backend.name} ${column.name}`, () =>
        define((more) => {
          const http = HttpBuilder.configure((c) => {
            c.request.uri = column.scheme === 'https' ? nginx.server.httpsUrl : nginx.server.httpUrl;
            c.client.backend = backend.choice;
            c.client.http2 = column.http2;
            c.execution.tls = { ca: nginx.server.ca };
            more?.(c);
          });
          open.push(http);
          return http;
        }, column));
    }
  }
}
