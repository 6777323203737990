import { afterEach, beforeEach, describe } from '@jest/globals';
import { HttpBuilder, type ConfigBlock } from '../../lib/index.js';
import { MockBackend } from '../../lib/testing.js';

/** The origin every {@link PipelineKit} client starts from. */
export const ORIGIN = 'https://api.example.test';

/** What a pipeline scenario gets: a fresh mock for each test, and clients bound to it. */
export interface PipelineKit {
  /** This test's mock: register what it answers with `on(...)`, read what it received from `calls`. */
  readonly mock: MockBackend;
  /** A client on {@link ORIGIN} whose backend is this test's mock; closed after each test. */
  client(block?: ConfigBlock): HttpBuilder;
}

/**
 * The {@link MockBackend} counterpart of `conformance` (spec/conformance/kit.ts): for scenarios
 * about the pipeline (how levels merge, which handler or parser wins, result types), which gain
 * nothing from running on every transport. One describe block, no server; transports stay in
 * the conformance kit.
 *
 * @example
 * pipeline('result types', (kit) => {
 *   it('Number converts a JSON number', async () => {
 *     kit.mock.on('GET', '/n').reply(200, '7', { 'Content-Type': 'application/json' });
 *     expect(await kit.client().get(Number, (c) => void (c.request.uri.path = '/n'))).toBe(7);
 *   });
 * });
 */
export function pipeline(title: string, define: (kit: PipelineKit) => void): void {
  describe(title, () => {
    let mock: MockBackend | undefined;
    const open: HttpBuilder[] = [];
    beforeEach(() => {
      mock = new MockBackend();
    });
    afterEach(async () => {
      await Promise.all(open.splice(0).map((client) => client.close()));
    });
    const current = (): MockBackend => {
      if (mock === undefined) throw new Error('pipeline(): the mock is only available inside tests');
      return mock;
    };
    define({
      get mock() {
        return current();
      },
      client(block) {
        const backend = current();
        const client = HttpBuilder.configure((c) => {
          c.request.uri = ORIGIN;
          c.client.backend = backend;
          if (block) void block.call(c, c);
        });
        open.push(client);
        return client;
      },
    });
  });
}

/** Matches `path` with any query or none, on any origin: what a test server expectation on a path matches. */
export function anyQuery(path: string): RegExp {
  return new RegExp(`^https?://[^/]+${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\?|$)`);
}
