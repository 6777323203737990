import { afterAll, afterEach, beforeAll } from '@jest/globals';
import { TestServer } from './test-server.js';

/**
 * Jest helper: starts a {@link TestServer} in `beforeAll`, `reset()`s it in `afterEach` and
 * `close()`s it in `afterAll`. Returns a holder because the server exists only once
 * `beforeAll` has run: read `holder.server` inside tests, not at describe time.
 */
export function useTestServer(): { readonly server: TestServer } {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await TestServer.start();
  });
  afterEach(() => server?.reset());
  afterAll(async () => {
    await server?.close();
  });
  return {
    get server(): TestServer {
      if (server === undefined) throw new Error('useTestServer(): the server is only available inside tests');
      return server;
    },
  };
}
