// Streams and pagination against a real server: nginx serving a 1.4 MB NDJSON file (gzip'd for
// the clients that accept it), a text/event-stream file, and JSON pages linked by a `Link`
// header (`add_header` from a `map`), on every backend, over HTTP/1.1 (plain and TLS) and
// HTTP/2 for the backends that speak it.
import { describe, expect, it } from '@jest/globals';
import { Stream } from '../../lib/stream.js';
import { eachNginxColumn } from './nginx-columns.js';
import { NGINX_NDJSON_COUNT, NGINX_PAGES, NGINX_PATHS, newTag, nginxChange, startNginx } from './servers/index.js';
import { usePeer } from './servers/use-peer.js';

describe('streams and pages from nginx', () => {
  const nginx = usePeer(startNginx);
  eachNginxColumn(nginx, (client, column) => {
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
});
