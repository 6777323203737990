import { afterEach, describe } from '@jest/globals';
import { HttpBuilder, type ConfigBlock } from '../../lib/index.js';
import type { TestServer } from '../support/test-server.js';
import { useTestServer } from '../support/use-test-server.js';
import { BACKENDS, type BackendTraits } from './backends.js';

/** What a conformance scenario gets: the server, and clients bound to it over one backend and protocol. */
export interface Kit {
  readonly server: TestServer;
  readonly backend: string;
  /** What this backend's transport does that cannot be switched off. */
  readonly traits: BackendTraits;
  /** True over HTTPS, and so over HTTP/2 too. */
  readonly secure: boolean;
  /** True in the HTTP/2 column: the client sets `client.http2` and the server's HTTPS listener answers in HTTP/2. */
  readonly http2: boolean;
  /** A header name as the server receives it: as written, or in lower case over HTTP/2 (RFC 9113 §8.2). */
  asSent(name: string): string;
  /** A client whose URI is the server's (HTTP or HTTPS), trusting its CA, on this backend (over HTTP/2 in that column); closed after each test. */
  client(block?: ConfigBlock): HttpBuilder;
}

/** The columns of the kit: each backend runs every scenario over each protocol it speaks. */
const PROTOCOLS = [
  { name: 'http', secure: false, http2: false },
  { name: 'https', secure: true, http2: false },
  { name: 'h2', secure: true, http2: true },
] as const;

/**
 * Defines scenarios once; they run on every backend, over HTTP, HTTPS and HTTP/2 (HTTPS with
 * `client.http2`, for the backends that speak it). Filter with `npm test -- -t 'got h2'`.
 *
 * @example
 * conformance('GET /alpha', (kit) => {
 *   it('returns text', async () => { ... await kit.client().get(...) ... });
 * });
 */
export function conformance(title: string, define: (kit: Kit) => void): void {
  describe(title, () => {
    const holder = useTestServer();
    for (const backend of BACKENDS) {
      for (const { name, secure, http2 } of PROTOCOLS) {
        if (http2 && !backend.traits.speaksHttp2) continue;
        describe(`${backend.name} ${name}`, () => {
          const open: HttpBuilder[] = [];
          afterEach(async () => {
            await Promise.all(open.splice(0).map((client) => client.close()));
          });
          define({
            get server() {
              return holder.server;
            },
            backend: backend.name,
            traits: http2 ? { ...backend.traits, ...backend.traits.overHttp2 } : backend.traits,
            secure,
            http2,
            asSent: (name) => (http2 ? name.toLowerCase() : name),
            client(block) {
              const server = holder.server;
              // one level: the client made here owns its pool, so a test's close() releases it
              const client = HttpBuilder.configure((c) => {
                c.request.uri = server.url(secure);
                c.client.backend = backend.choice;
                c.execution.tls = { ca: server.ca };
                if (http2) c.client.http2 = true;
                if (block) void block.call(c, c);
              });
              open.push(client);
              return client;
            },
          });
        });
      }
    }
  });
}

/** The seven verbs, as the client's method names and the wire method. */
export const VERBS = [
  ['get', 'GET'],
  ['head', 'HEAD'],
  ['post', 'POST'],
  ['put', 'PUT'],
  ['delete', 'DELETE'],
  ['patch', 'PATCH'],
  ['options', 'OPTIONS'],
] as const;
