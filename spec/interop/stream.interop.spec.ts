// Streams and pagination against a real server: nginx serving a 1.4 MB NDJSON file (gzip'd for
// the clients that accept it), a text/event-stream file, and JSON pages linked by a `Link`
// header (`add_header` from a `map`), on every backend, over HTTP/1.1 (plain and TLS) and
// HTTP/2 for the backends that speak it.
import { afterEach, describe, expect, it } from '@jest/globals';
import { HttpBuilder } from '../../lib/index.js';
import { Stream } from '../../lib/stream.js';
import { BACKENDS } from '../conformance/backends.js';
import { NGINX_NDJSON_COUNT, NGINX_PAGES, NGINX_PATHS, newTag, nginxChange, startNginx } from './servers/index.js';
import { usePeer } from './servers/use-peer.js';

const COLUMNS = [
  { name: 'http', scheme: 'http', http2: false },
  { name: 'https', scheme: 'https', http2: false },
  { name: 'h2', scheme: 'https', http2: true },
] as const;

describe('streams and pages from nginx', () => {
  const nginx = usePeer(startNginx);
  const open: HttpBuilder[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((http) => http.close()));
  });

  for (const backend of BACKENDS) {
    for (const column of COLUMNS) {
      if (column.http2 && !backend.traits.speaksHttp2) continue;
      describe(`${backend.name} ${column.name}`, () => {
        function client(): HttpBuilder {
          const http = HttpBuilder.configure((c) => {
            c.request.uri = column.scheme === 'https' ? nginx.server.httpsUrl : nginx.server.httpUrl;
            c.client.backend = backend.choice;
            c.client.http2 = column.http2;
            c.execution.tls = { ca: nginx.server.ca };
          });
          open.push(http);
          return http;
        }

        it(`Stream.ndjson reads all ${NGINX_NDJSON_COUNT} values of a gzip'd NDJSON file, in order`, async () => {
          const tag = newTag();
          const changes = await client().get((c) => {
            c.request.uri.path = NGINX_PATHS.ndjson;
            c.request.uri.query = { t: tag };
            return Stream.ndjson(c);
          });
          const seen: unknown[] = [];
          for await (const change of changes) seen.push(change);
          expect(seen).toEqual(Array.from({ length: NGINX_NDJSON_COUNT }, (_, index) => nginxChange(index + 1)));
          const [entry] = await nginx.server.accessLog.entries(tag);
          expect(entry).toMatchObject({ status: 200, contentEncoding: 'gzip', protocol: column.http2 ? 'HTTP/2.0' : 'HTTP/1.1' });
        });

        it('Stream.events parses a text/event-stream file', async () => {
          const events = await client().get((c) => ((c.request.uri.path = NGINX_PATHS.feed), Stream.events(c)));
          const seen = [];
          for await (const event of events) seen.push(event);
          expect(seen).toEqual([
            { event: 'created', data: '{"n":1}', id: '1', retry: undefined },
            { event: 'updated', data: 'line one\nline two', id: '2', retry: 2500 },
            { event: 'message', data: 'bye', id: '2', retry: 2500 },
          ]);
        });

        it('paginate follows the Link headers nginx adds, relative and absolute', async () => {
          const tag = newTag();
          const items: unknown[] = [];
          for await (const item of client().paginate(Number, (c) => {
            c.request.uri.path = NGINX_PATHS.pages;
            c.request.uri.query = { t: tag };
          }))
            items.push(item);
          expect(items).toEqual(NGINX_PAGES.flat());
          // the first page carries the tag; the next ones are the Link targets as nginx wrote them
          expect((await nginx.server.accessLog.entries(tag)).map((entry) => entry.target)).toEqual([`${NGINX_PATHS.pages}?t=${tag}`]);
        });
      });
    }
  }
});
