import { afterAll, beforeAll } from '@jest/globals';
import type { PeerServer } from './peer.js';

/** What the helpers below need of a peer: a way to stop it. */
export interface Stoppable {
  stop(): Promise<void>;
}

/**
 * Jest helper: starts a peer (a web server, or a proxy) in `beforeAll` and stops it in
 * `afterAll` (also when a test failed). Returns a holder: read `holder.server` inside tests,
 * not at describe time.
 */
export function usePeer<T extends Stoppable = PeerServer>(start: () => Promise<T>): { readonly server: T } {
  let server: T | undefined;
  beforeAll(async () => {
    server = await start();
  });
  afterAll(async () => {
    await server?.stop();
  });
  return {
    get server(): T {
      if (server === undefined) throw new Error('usePeer(): the server is only available inside tests, once it started');
      return server;
    },
  };
}

/**
 * Jest helper: starts several peers at once in `beforeAll` and stops them all at once in
 * `afterAll` (squid takes about 2 s to stop: one after the other, that adds up). When one
 * fails to start, the others are stopped and the error is thrown. `holder.servers[i]` is the
 * peer of `starts[i]`, inside tests only.
 */
export function usePeers<T extends Stoppable>(starts: ReadonlyArray<() => Promise<T>>): { readonly servers: readonly T[] } {
  let servers: T[] | undefined;
  beforeAll(async () => {
    const results = await Promise.allSettled(starts.map((start) => start()));
    const started = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failed !== undefined) {
      await Promise.all(started.map((server) => server.stop()));
      throw failed.reason;
    }
    servers = started;
  });
  afterAll(async () => {
    await Promise.all((servers ?? []).map((server) => server.stop()));
  });
  return {
    get servers(): readonly T[] {
      if (servers === undefined) throw new Error('usePeers(): the servers are only available inside tests, once they started');
      return servers;
    },
  };
}
