import { expect } from '@jest/globals';
import type { TestServer } from './test-server.js';

/** Waits (up to 1 s) for the server to see its connections closed (all but `atMost`), then asserts it did. */
export async function untilClosed(server: TestServer, atMost = 0): Promise<void> {
  for (let waited = 0; server.openConnections > atMost && waited < 1000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(server.openConnections).toBeLessThanOrEqual(atMost);
}
