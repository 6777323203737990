import { afterAll, beforeAll } from '@jest/globals';
import type { PeerServer } from './peer.js';

/**
 * Jest helper: starts a peer server in `beforeAll` and stops it in `afterAll` (also when a test
 * failed). Returns a holder: read `holder.server` inside tests, not at describe time.
 */
export function usePeer(start: () => Promise<PeerServer>): { readonly server: PeerServer } {
  let server: PeerServer | undefined;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await server?.stop();
  });
  return {
    get server(): PeerServer {
      if (server === undefined) throw new Error('usePeer(): the server is only available inside tests, once it started');
      return server;
    },
  };
}
