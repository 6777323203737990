// HTTP/2 on every backend against a real server: nginx with `listen ... ssl http2`. With
// `c.client.http2 = true`, native, undici, got and fetch negotiate h2 by ALPN, and everything
// above the transport behaves as over HTTP/1.1: JSON parsed, gzip'd text decoded, a 2 MiB
// download, a 3 MiB upload, a redirect followed, a 404 rejected. nginx's access log is the
// witness: `HTTP/2.0` per request, and one connection (`$connection`) for concurrent
// requests. axios cannot speak HTTP/2: `http2 = true` is a ConfigError naming it. Without
// `http2`, and on a plain http URL, requests stay HTTP/1.1.
import { afterEach, describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { ConfigError, HttpBuilder, HttpException, type ConfigBlock } from '../../lib/index.js';
import { BACKENDS } from '../conformance/backends.js';
import { NGINX_BIG_SIZE, NGINX_JSON, NGINX_PATHS, NGINX_TEXT, newTag, startNginx, type NginxLogEntry } from './servers/index.js';
import { usePeer } from './servers/use-peer.js';
import { pinOf } from '../support/tls-chain.js';

/** The backends that cannot speak HTTP/2: `http2 = true` is a ConfigError naming them (API.md). */
const WITHOUT_HTTP2: ReadonlySet<string> = new Set(['axios']);
/** Requests sent at once to show they share one connection. */
const CONCURRENT = 8;
const UPLOAD_SIZE = 3 * 1024 * 1024 + 7;

function shown(entries: readonly NginxLogEntry[]): string[] {
  return entries.map((entry) => `${entry.method} ${entry.status} ${entry.protocol}`);
}

describe('HTTP/2 on every backend (nginx)', () => {
  const nginx = usePeer(startNginx);
  const open: HttpBuilder[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((http) => http.close()));
  });

  for (const backend of BACKENDS) {
    describe(backend.name, () => {
      /** A client of nginx's TLS port (or its plain one), with `http2` set when given. */
      function client(http2: boolean | undefined, scheme: 'https' | 'http' = 'https'): HttpBuilder {
        const http = HttpBuilder.configure((c) => {
          c.request.uri = scheme === 'https' ? nginx.server.httpsUrl : nginx.server.httpUrl;
          c.client.backend = backend.choice;
          if (http2 !== undefined) c.client.http2 = http2;
          c.execution.tls = { ca: nginx.server.ca };
        });
        open.push(http);
        return http;
      }

      /** A request block for `path`, tagged for the access log. */
      function at(path: string, tag: string, more?: ConfigBlock): ConfigBlock {
        return (c) => {
          c.request.uri.path = path;
          c.request.uri.query = { t: tag };
          more?.call(c, c);
        };
      }

      /** The HTTP version the library reports for a GET of `path`. */
      function versionOf(http: HttpBuilder, path: string, tag: string): Promise<unknown> {
        return http.get(
          at(path, tag, (c) => {
            c.response.success((fromServer) => fromServer.httpVersion);
          }),
        );
      }

      if (WITHOUT_HTTP2.has(backend.name)) {
        it(`http2 = true rejects with a ConfigError naming ${backend.name}, and nothing is sent`, async () => {
          const tag = newTag();
          // at configure() or at the first request: either is the contract
          const error = await (async () => {
            await client(true).get(at(NGINX_PATHS.json, tag));
          })().then(
            () => undefined,
            (caught: unknown) => caught,
          );
          expect(error).toBeInstanceOf(ConfigError);
          expect((error as ConfigError).message).toContain(backend.name);
          expect(await nginx.server.accessLog.entries(tag)).toEqual([]);
        });
      } else {
        describe('http2 = true', () => {
          it("JSON parsed and gzip'd text decoded, both over HTTP/2 (nginx logs HTTP/2.0, ALPN h2, the text sent gzip'd)", async () => {
            const tag = newTag();
            const http = client(true);
            expect(await http.get(at(NGINX_PATHS.json, tag))).toEqual(NGINX_JSON);
            expect(await http.get(String, at(NGINX_PATHS.text, tag))).toBe(NGINX_TEXT);
            const entries = await nginx.server.accessLog.entries(tag, { atLeast: 2 });
            expect(
              entries.map((entry) => `${entry.target.split('?')[0] ?? ''} ${entry.protocol} ${entry.alpn ?? '-'} ${entry.contentEncoding ?? '-'}`),
            ).toEqual([`${NGINX_PATHS.json} HTTP/2.0 h2 -`, `${NGINX_PATHS.text} HTTP/2.0 h2 gzip`]);
          });

          it("execution.tls.pins: nginx's key pinned goes over HTTP/2; another key fails as TLS before nginx logs a request", async () => {
            const tag = newTag();
            const pinned = (pins: string[]) => {
              const http = HttpBuilder.configure((c) => {
                c.request.uri = nginx.server.httpsUrl;
                c.client.backend = backend.choice;
                c.client.http2 = true;
                c.execution.tls = { ca: nginx.server.ca, pins };
              });
              open.push(http);
              return http;
            };
            await expect(pinned([`${'A'.repeat(43)}=`]).get(at(NGINX_PATHS.json, tag))).rejects.toMatchObject({ name: 'NetworkError', reason: 'tls' });
            expect(await nginx.server.accessLog.entries(tag)).toEqual([]);
            expect(await versionOf(pinned([pinOf(nginx.server.ca)]), NGINX_PATHS.json, tag)).toBe('2.0');
          });

          it("fromServer.httpVersion is '2.0'", async () => {
            const tag = newTag();
            expect(await versionOf(client(true), NGINX_PATHS.json, tag)).toBe('2.0');
            expect(shown(await nginx.server.accessLog.entries(tag, { atLeast: 1 }))).toEqual(['GET 200 HTTP/2.0']);
          });

          it(`${CONCURRENT} concurrent requests, and then more, share one connection`, async () => {
            const tag = newTag();
            const http = client(true);
            const paths = Array.from({ length: CONCURRENT }, (_, index) => (index % 2 === 0 ? NGINX_PATHS.json : NGINX_PATHS.text));
            expect(await Promise.all(paths.map((path) => versionOf(http, path, tag)))).toEqual(paths.map(() => '2.0'));
            expect(await versionOf(http, NGINX_PATHS.json, tag)).toBe('2.0');
            expect(await versionOf(http, NGINX_PATHS.text, tag)).toBe('2.0');
            const entries = await nginx.server.accessLog.entries(tag, { atLeast: CONCURRENT + 2 });
            expect(entries).toHaveLength(CONCURRENT + 2);
            expect(new Set(entries.map((entry) => entry.protocol))).toEqual(new Set(['HTTP/2.0']));
            expect(new Set(entries.map((entry) => entry.connection)).size).toBe(1);
          });

          it('a 2 MiB download arrives whole', async () => {
            const tag = newTag();
            const bytes = await client(true).get(Buffer, at(NGINX_PATHS.big, tag));
            expect(bytes.length).toBe(NGINX_BIG_SIZE);
            expect(createHash('sha256').update(bytes).digest('hex')).toBe(nginx.server.bigSha256);
            expect(shown(await nginx.server.accessLog.entries(tag, { atLeast: 1 }))).toEqual(['GET 200 HTTP/2.0']);
          });

          it('a 3 MiB upload arrives whole (nginx answers with the bytes it read)', async () => {
            const tag = newTag();
            const answer = await client(true).post(
              String,
              at(NGINX_PATHS.upload, tag, (c) => {
                c.request.contentType = 'application/octet-stream';
                c.request.body = Buffer.alloc(UPLOAD_SIZE, 'x');
              }),
            );
            expect(answer).toBe(`POST ${UPLOAD_SIZE}`);
            expect(shown(await nginx.server.accessLog.entries(tag, { atLeast: 1 }))).toEqual(['POST 200 HTTP/2.0']);
          });

          it('a redirect is followed on the same HTTP/2 connection', async () => {
            const tag = newTag();
            expect(await client(true).get(at(NGINX_PATHS.redirect, tag))).toEqual(NGINX_JSON);
            const entries = await nginx.server.accessLog.entries(tag, { atLeast: 2 });
            expect(shown(entries)).toEqual(['GET 302 HTTP/2.0', 'GET 200 HTTP/2.0']);
            expect(new Set(entries.map((entry) => entry.connection)).size).toBe(1);
          });

          it('a 404 rejects with HttpException', async () => {
            const tag = newTag();
            await expect(client(true).get(at('/missing.json', tag))).rejects.toMatchObject({ constructor: HttpException, statusCode: 404 });
            expect(shown(await nginx.server.accessLog.entries(tag, { atLeast: 1 }))).toEqual(['GET 404 HTTP/2.0']);
          });

          it("a plain http URL still works, over HTTP/1.1 (httpVersion '1.1')", async () => {
            const tag = newTag();
            const http = client(true, 'http');
            expect(await http.get(at(NGINX_PATHS.json, tag))).toEqual(NGINX_JSON);
            expect(await versionOf(http, NGINX_PATHS.json, tag)).toBe('1.1');
            const entries = await nginx.server.accessLog.entries(tag, { atLeast: 2 });
            expect(shown(entries)).toEqual(['GET 200 HTTP/1.1', 'GET 200 HTTP/1.1']);
            expect(entries.map((entry) => entry.port)).toEqual([nginx.server.httpPort, nginx.server.httpPort]);
          });
        });
      }

      it("http2 unset: HTTP/1.1 over TLS (ALPN http/1.1 or none), httpVersion '1.1'", async () => {
        const tag = newTag();
        const http = client(undefined);
        expect(await http.get(at(NGINX_PATHS.json, tag))).toEqual(NGINX_JSON);
        expect(await http.get(String, at(NGINX_PATHS.text, tag))).toBe(NGINX_TEXT);
        expect(await versionOf(http, NGINX_PATHS.json, tag)).toBe('1.1');
        const entries = await nginx.server.accessLog.entries(tag, { atLeast: 3 });
        expect(shown(entries)).toEqual(['GET 200 HTTP/1.1', 'GET 200 HTTP/1.1', 'GET 200 HTTP/1.1']);
        expect(entries.map((entry) => entry.alpn)).not.toContain('h2');
      });

      it('http2 = false: HTTP/1.1 over TLS', async () => {
        const tag = newTag();
        expect(await versionOf(client(false), NGINX_PATHS.json, tag)).toBe('1.1');
        expect(shown(await nginx.server.accessLog.entries(tag, { atLeast: 1 }))).toEqual(['GET 200 HTTP/1.1']);
      });
    });
  }
});
