import { expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import zlib from 'node:zlib';
import { ConfigError, NetworkError, ParseError } from '../../lib/index.js';
import { TestServer } from '../support/test-server.js';
import { conformance } from './kit.js';
import { expectNoLeak } from './no-leak.js';

const BIG = 'y'.repeat(4 * 1024 * 1024);

conformance('connections are released after every outcome', (kit) => {
  it('after an unsupported Content-Encoding', async () => {
    kit.server.expect({ method: 'GET', path: '/compress', respond: { headers: { 'Content-Type': 'text/plain', 'Content-Encoding': 'compress' }, body: BIG } });
    const client = kit.client();
    const error = await expectNoLeak(kit, client, () => client.get((c) => void (c.request.uri.path = '/compress')));
    expect(error).toBeInstanceOf(ParseError);
  });

  it('after six stacked codings', async () => {
    kit.server.expect({ method: 'GET', path: '/stacked', respond: { headers: { 'Content-Encoding': 'gzip, gzip, gzip, gzip, gzip, gzip' }, body: BIG } });
    const client = kit.client();
    expect(await expectNoLeak(kit, client, () => client.get((c) => void (c.request.uri.path = '/stacked')))).toBeInstanceOf(ParseError);
  });

  it('after a large body that is not the gzip it claims', async () => {
    kit.server.expect({ method: 'GET', path: '/bad-gzip', respond: { headers: { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' }, body: BIG } });
    const client = kit.client();
    expect(await expectNoLeak(kit, client, () => client.get((c) => void (c.request.uri.path = '/bad-gzip')))).toBeInstanceOf(ParseError);
  });

  it('after a chunked body that the parser never reads', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/unread',
      respond: (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/date' });
        res.write('2016.08.25 ');
        res.end('14:43');
      },
    });
    const client = kit.client();
    const result = await expectNoLeak(kit, client, () =>
      client.get((c) => {
        c.request.uri.path = '/unread';
        c.response.parser('text/date', () => 'not read');
      }),
    );
    expect(result).toBe('not read');
  });

  it('after a gzip body whose parser reads only the start', async () => {
    kit.server.expect({
      method: 'GET',
      path: '/partial',
      respond: { headers: { 'Content-Type': 'text/plain', 'Content-Encoding': 'gzip' }, body: zlib.gzipSync(BIG) },
    });
    const client = kit.client();
    const result = await expectNoLeak(kit, client, () =>
      client.get((c) => {
        c.request.uri.path = '/partial';
        c.response.parser('text/plain', async (fromServer) => {
          for await (const chunk of fromServer.stream()) return (chunk as Buffer).length > 0;
          return false;
        });
      }),
    );
    expect(result).toBe(true);
  });

  it('after a plain body whose parser reads only the start of the stream', async () => {
    kit.server.expect({ method: 'GET', path: '/plain-partial', respond: { headers: { 'Content-Type': 'text/plain' }, body: BIG } });
    const client = kit.client();
    const result = await expectNoLeak(kit, client, () =>
      client.get((c) => {
        c.request.uri.path = '/plain-partial';
        c.response.parser('text/plain', async (fromServer) => {
          for await (const chunk of fromServer.stream()) return (chunk as Buffer).length > 0;
          return false;
        });
      }),
    );
    expect(result).toBe(true);
  });

  it('after a plain body whose parser takes the stream and never reads it (nothing crashes later)', async () => {
    kit.server.expect({ method: 'GET', path: '/plain-untouched', respond: { headers: { 'Content-Type': 'text/plain' }, body: BIG } });
    const client = kit.client();
    let taken: NodeJS.ReadableStream | undefined;
    const result = await expectNoLeak(kit, client, () =>
      client.get((c) => {
        c.request.uri.path = '/plain-untouched';
        c.response.parser('text/plain', (fromServer) => {
          taken = fromServer.stream();
          return 'left alone';
        });
      }),
    );
    expect(result).toBe('left alone');
    expect(taken).toBeDefined();
  });
});

conformance('upload sources are closed when the request fails', (kit) => {
  it('on bad input found before sending', async () => {
    const source = new PassThrough();
    const error = await kit
      .client()
      .post((c) => {
        c.request.headers['X-Bad'] = 'a\r\nb';
        c.request.body = source;
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect(source.destroyed).toBe(true);
  });

  it('on a refused connection', async () => {
    const closed = await TestServer.start();
    await closed.close();
    const source = new PassThrough();
    const error = await kit
      .client()
      .post((c) => {
        c.request.uri = `${closed.httpUrl}/x`;
        c.request.body = source;
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect(source.destroyed).toBe(true);
  });
});
