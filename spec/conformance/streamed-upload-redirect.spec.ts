import { expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import { RedirectError } from '../../lib/index.js';
import { conformance } from './kit.js';

conformance('a redirect answering a streamed upload', (kit) => {
  // fetch sends streamed bodies with redirect 'error' so undici keeps no copy of them (nodejs/undici#4058): docs/backends.md
  const handsOver = kit.backend !== 'fetch';

  it(
    handsOver ? 'is not followed (the body cannot be sent again): the 307 goes to the handlers' : 'rejects with RedirectError on fetch (documented)',
    async () => {
      kit.server.expect({
        method: 'PUT',
        path: '/upload',
        respond: { status: 307, headers: { Location: '/elsewhere', 'Content-Type': 'text/plain' }, body: 'moved' },
      });
      const outcome = kit.client().put((c) => {
        c.request.uri.path = '/upload';
        c.request.contentType = 'application/octet-stream';
        c.request.body = Readable.from([Buffer.from('streamed bytes')]);
        c.response.success((fromServer, body) => `${fromServer.statusCode} ${String(body)}`);
      });
      if (handsOver) await expect(outcome).resolves.toBe('307 moved');
      else await expect(outcome).rejects.toBeInstanceOf(RedirectError);
      expect(kit.server.requests.map((r) => r.path)).toEqual(['/upload']);
    },
  );
});
