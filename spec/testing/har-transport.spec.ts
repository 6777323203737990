// MockBackend.record sends exactly as the client would without it: the client's execution.tls
// (a private CA), client.connection (a Unix socket) and client.http2 reach the backend it
// records through, on every backend; what it cannot honour is a ConfigError.
import { rootCertificates } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import * as http from 'node:http';
import { ConfigError, HttpBuilder, type BackendName, type ConfigBlock } from '../../lib/index.js';
import { MockBackend, type Har, type HarEntry } from '../../lib/testing.js';
import { useTestServer } from '../support/use-test-server.js';
import { useHarFiles } from './support/har-files.js';

const holder = useTestServer();
const files = useHarFiles('hb-har-transport-');
const harFile = files.file;
const path = (p: string) => (c: Parameters<ConfigBlock>[0]) => void (c.request.uri.path = p);

// a plain HTTP server on a Unix domain socket (Docker's kind of API)
const socketPath = files.path('api.sock');
let unixServer: http.Server;
beforeAll(async () => {
  unixServer = http.createServer((req, res) => {
    res.setHeader('Content-Type', 'text/plain');
    res.end(`unix ${req.url} for ${req.headers.host}`);
  });
  await new Promise<void>((resolve) => unixServer.listen(socketPath, resolve));
});
afterAll(async () => {
  unixServer.closeAllConnections();
  await new Promise((resolve) => unixServer.close(resolve));
});

/** Records one GET of `p` through `backend` with the client settings of `block`; the call's result and the file's entries. */
async function recordOne(backend: BackendName, origin: string, p: string, block: ConfigBlock): Promise<{ result: unknown; entries: HarEntry[] }> {
  const file = harFile();
  const client = HttpBuilder.configure((c) => {
    c.request.uri = origin;
    c.client.backend = MockBackend.record(file, backend);
    void block.call(c, c);
  });
  try {
    const result = await client.get(path(p));
    return { result, entries: (JSON.parse(await readFile(file, 'utf8')) as Har).log.entries };
  } finally {
    await client.close();
  }
}

const TEXT = { headers: { 'Content-Type': 'text/plain' }, body: 'hello' };

describe.each(['native', 'undici', 'axios', 'got', 'fetch'] as const)('MockBackend.record through %s: as the client would send', (backend) => {
  it("uses the client's execution.tls: a server with a private CA", async () => {
    const { server } = holder;
    server.expect({ method: 'GET', path: '/tls', respond: TEXT });
    const { result, entries } = await recordOne(backend, server.httpsUrl, '/tls', (c) => void (c.execution.tls = { ca: server.ca }));
    expect(result).toBe('hello');
    expect(entries.map((e) => [e.request.url, e.request.httpVersion, e.response.httpVersion, e.response.status])).toEqual([
      [`${server.httpsUrl}/tls`, 'HTTP/1.1', 'HTTP/1.1', 200],
    ]);
  });

  it("uses the client's connection: a Unix socketPath", async () => {
    const { result, entries } = await recordOne(backend, 'http://docker', '/v1.43/_ping', (c) => void (c.client.connection = { socketPath }));
    expect(result).toBe('unix /v1.43/_ping for docker');
    expect(entries.map((e) => [e.request.url, e.response.content.text])).toEqual([['http://docker/v1.43/_ping', 'unix /v1.43/_ping for docker']]);
  });

  if (backend === 'axios') {
    it('refuses client.http2 with a ConfigError, as the client does without it (axios has no HTTP/2)', () => {
      expect(() =>
        HttpBuilder.configure((c) => {
          c.client.backend = MockBackend.record(harFile(), backend);
          c.client.http2 = true;
        }),
      ).toThrow(/client\.http2: the 'axios' backend cannot speak HTTP\/2/);
    });
  } else {
    it("uses the client's http2: the entry says HTTP/2, as the server saw it", async () => {
      const { server } = holder;
      server.expect({ method: 'GET', path: '/h2', respond: TEXT });
      const { result, entries } = await recordOne(backend, server.httpsUrl, '/h2', (c) => {
        c.execution.tls = { ca: server.ca };
        c.client.http2 = true;
      });
      expect(result).toBe('hello');
      expect(server.requests.map((r) => r.httpVersion)).toEqual(['2.0']);
      expect(entries.map((e) => [e.request.httpVersion, e.response.httpVersion])).toEqual([['HTTP/2', 'HTTP/2']]);
    });
  }
});

describe('MockBackend.record: one recorder, several clients', () => {
  it('each client sends with its own settings, and every exchange goes into the one file', async () => {
    const { server } = holder;
    server.expect({ method: 'GET', path: '/h2', respond: TEXT });
    const file = harFile();
    const recorder = MockBackend.record(file);
    const onSocket = HttpBuilder.configure((c) => {
      c.request.uri = 'http://docker';
      c.client.backend = recorder;
      c.client.connection = { socketPath };
    });
    const overH2 = onSocket.configure((c) => {
      c.request.uri = server.httpsUrl;
      c.client.connection = { socketPath: undefined };
      c.client.http2 = true;
      c.execution.tls = { ca: server.ca };
    });
    expect(await onSocket.get(path('/_ping'))).toBe('unix /_ping for docker');
    expect(await overH2.get(path('/h2'))).toBe('hello');
    await Promise.all([onSocket.close(), overH2.close()]);
    const { entries } = (JSON.parse(await readFile(file, 'utf8')) as Har).log;
    expect(entries.map((e) => [e.request.url, e.response.httpVersion])).toEqual([
      ['http://docker/_ping', 'HTTP/1.1'],
      [`${server.httpsUrl}/h2`, 'HTTP/2'],
    ]);
  });

  it("options.tls with the client's execution.tls is a ConfigError when the client is made, before anything is sent", () => {
    const recorder = MockBackend.record(harFile(), 'native', { tls: { ca: rootCertificates[1] } });
    const make = () =>
      HttpBuilder.configure((c) => {
        c.client.backend = recorder;
        c.execution.tls = { ca: rootCertificates[0] };
      });
    expect(make).toThrow(ConfigError);
    expect(make).toThrow(/MockBackend\.record: options\.tls and the client's execution\.tls are both set/);
  });
});
