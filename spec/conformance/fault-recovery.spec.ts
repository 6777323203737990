import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { HttpBuilderError } from '../../lib/index.js';
import { rawServer, type RawServer } from '../support/raw-server.js';
import { BACKENDS, type BackendTraits } from './backends.js';
import { backendClients } from '../support/backend-clients.js';
import { expectNoUnhandledRejections } from '../support/unhandled-rejections.js';

const OK = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok';

/** One fault: what the server does, and the typed error every backend must reject with. */
interface Fault {
  readonly title: string;
  readonly script?: (socket: import('node:net').Socket) => void;
  /** a URL of its own (refused, dns); otherwise the fault's raw server */
  readonly url?: () => string;
  readonly expected: (traits: BackendTraits) => Record<string, unknown> | 'resolves';
}

const faults: Fault[] = [
  { title: 'refused connection', url: () => refusedUrl, expected: () => ({ name: 'NetworkError', reason: 'refused' }) },
  // *.invalid never resolves (RFC 6761): the resolver answers NXDOMAIN
  { title: 'unresolvable host', url: () => 'http://no-such-host.invalid/', expected: () => ({ name: 'NetworkError', reason: 'dns' }) },
  {
    title: 'reset during the headers',
    script: (s) => (s.write('HTTP/1.1 200 OK\r\nContent-Ty'), setTimeout(() => s.resetAndDestroy(), 10)),
    expected: () => ({ name: 'NetworkError', reason: 'reset' }),
  },
  {
    title: 'reset mid-body',
    script: (s) => (s.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial'), setTimeout(() => s.resetAndDestroy(), 10)),
    expected: () => ({ name: 'NetworkError', reason: 'reset' }),
  },
  {
    title: 'malformed chunked encoding',
    script: (s) => s.end('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nnot a chunk size\r\n'),
    expected: () => ({ name: 'NetworkError' }),
  },
  {
    title: 'invalid JSON',
    script: (s) => s.end('HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 8\r\nConnection: close\r\n\r\n{"broken'),
    expected: () => ({ name: 'ParseError', statusCode: 200, text: '{"broken' }),
  },
  {
    title: 'truncated gzip',
    script: (s) =>
      s.end(
        Buffer.concat([
          Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n'),
          Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3, 0x4b, 0x4c]),
        ]),
      ),
    expected: (traits) => (traits.detectsTruncatedGzip ? { name: 'ParseError' } : 'resolves'),
  },
  { title: 'a server that never answers', script: () => {}, expected: () => ({ name: 'TimeoutError', phase: 'response' }) },
];

expectNoUnhandledRejections();

let refusedUrl = '';
const servers = new Map<string, RawServer>();
let healthy: RawServer;

beforeAll(async () => {
  healthy = await rawServer((socket) => {
    socket.write(OK);
    socket.on('data', () => socket.write(OK));
  });
  const closed = await rawServer(() => {});
  refusedUrl = closed.url;
  await closed.close();
  for (const fault of faults) if (fault.script) servers.set(fault.title, await rawServer(fault.script));
});
afterAll(async () => {
  await Promise.all([healthy.close(), ...[...servers.values()].map((server) => server.close())]);
});

describe('every fault rejects with a typed error, and the same client then works', () => {
  for (const backend of BACKENDS) {
    describe(backend.name, () => {
      const client = backendClients(backend.choice);

      for (const fault of faults) {
        it(fault.title, async () => {
          // the backend's module loads on the first request, inside its timeout: on a loaded machine that alone can take 300 ms
          await client().get((c) => void (c.request.uri = healthy.url));
          const http = client(undefined, (c) => void (c.execution.timeout = { response: 300 }));
          const url = fault.url?.() ?? servers.get(fault.title)!.url;
          const expected = fault.expected(backend.traits);
          const outcome = http.get((c) => void (c.request.uri = url));
          if (expected === 'resolves') await expect(outcome).resolves.toBeDefined();
          else {
            const error = await outcome.catch((e: unknown) => e);
            expect(error).toBeInstanceOf(HttpBuilderError);
            expect(error).toMatchObject(expected);
          }
          await expect(http.get((c) => void (c.request.uri = healthy.url))).resolves.toBe('ok');
        });
      }
    });
  }
});
