// The cache (client.cache) against a real server: nginx's static files carry ETag and
// Last-Modified and answer 304 to If-None-Match / If-Modified-Since; a location with
// `expires 1h` adds Cache-Control: max-age=3600. nginx's access log counts what reached it.
import { describe, expect, it } from '@jest/globals';
import type { FromServer, HttpBuilder } from '../../lib/index.js';
import { eachNginxColumn } from './nginx-columns.js';
import { NGINX_JSON, NGINX_PATHS, newTag, startNginx } from './servers/index.js';
import { usePeer } from './servers/use-peer.js';

describe('the cache against nginx', () => {
  const nginx = usePeer(startNginx);
  eachNginxColumn(nginx, (cachedClient) => {
    const client = () => cachedClient((c) => void (c.client.cache = true));

    /** A GET of `path` tagged for the access log (as the user of `apiKey`): where it came from, and its body. */
    function read(http: HttpBuilder, path: string, tag: string, noCache = false, apiKey?: string): Promise<[FromServer['cache'], unknown]> {
      return http.get((c) => {
        c.request.uri.path = path;
        c.request.uri.query = { t: tag };
        if (noCache) c.request.headers['Cache-Control'] = 'no-cache';
        if (apiKey !== undefined) c.request.headers['X-Api-Key'] = apiKey;
        c.response.success((fromServer, body) => [fromServer.cache, body]);
      }) as Promise<[FromServer['cache'], unknown]>;
    }

    it('a static file is revalidated with its ETag: nginx answers 304 and the stored body is served', async () => {
      const tag = newTag();
      const http = client();
      expect(await read(http, NGINX_PATHS.json, tag)).toEqual(['miss', NGINX_JSON]);
      expect(await read(http, NGINX_PATHS.json, tag, true)).toEqual(['revalidated', NGINX_JSON]);
      expect((await nginx.server.accessLog.entries(tag)).map((entry) => entry.status)).toEqual([200, 304]);
    });

    it('a file nginx marks max-age=3600 is answered from the cache without a request', async () => {
      const tag = newTag();
      const http = client();
      expect(await read(http, NGINX_PATHS.cacheable, tag)).toEqual(['miss', NGINX_JSON]);
      expect(await read(http, NGINX_PATHS.cacheable, tag)).toEqual(['hit', NGINX_JSON]);
      expect(
        await read(
          http.configure(() => {}),
          NGINX_PATHS.cacheable,
          tag,
        ),
      ).toEqual(['hit', NGINX_JSON]);
      expect((await nginx.server.accessLog.entries(tag)).map((entry) => entry.status)).toEqual([200]);
    });

    it('each user of the client (their own X-Api-Key) gets that file from nginx once, then from the cache', async () => {
      const tag = newTag();
      const http = client();
      const seen = [];
      for (const user of ['alice', 'bob', 'alice', 'bob']) seen.push((await read(http, NGINX_PATHS.cacheable, tag, false, `${user}-key`))[0]);
      expect(seen).toEqual(['miss', 'miss', 'hit', 'hit']);
      expect((await nginx.server.accessLog.entries(tag)).map((entry) => entry.status)).toEqual([200, 200]);
    });
  });
});
