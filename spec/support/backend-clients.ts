import { afterEach } from '@jest/globals';
import { HttpBuilder, type HttpConfig } from '../../lib/index.js';
import type { BackendChoice } from '../../lib/config/client-config.js';

/**
 * For scenarios against a server of their own (a raw fault server, a stalled listener) rather
 * than the kit's: makes clients on `backend`, closing each after its test. Call it inside a
 * `describe`, once per backend.
 *
 * @example
 * const client = backendClients(backend.choice);
 * it('...', async () => { await client(raw.url, (c) => void (c.execution.timeout = { read: 100 })).get(); });
 */
export function backendClients(backend: BackendChoice): (url?: string, block?: (c: HttpConfig) => void) => HttpBuilder {
  const open: HttpBuilder[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((http) => http.close()));
  });
  return (url, block) => {
    const http = HttpBuilder.configure((c) => {
      if (url !== undefined) c.request.uri = url;
      c.client.backend = backend;
      block?.(c);
    });
    open.push(http);
    return http;
  };
}
