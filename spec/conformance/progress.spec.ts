import { expect, it } from '@jest/globals';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { conformance } from './kit.js';
import { type Progress } from '../../lib/config/execution-config.js';

const BIG = 'p'.repeat(256 * 1024);

conformance('progress callbacks', (kit) => {
  it('download: transferred grows to Content-Length, percent reaches 100', async () => {
    kit.server.expect({ method: 'GET', path: '/big', respond: { headers: { 'Content-Type': 'text/plain' }, body: BIG } });
    const seen: Progress[] = [];
    const text = await kit.client().get(String, (c) => {
      c.request.uri.path = '/big';
      c.execution.onDownloadProgress = (progress) => seen.push(progress);
    });
    expect(text).toHaveLength(BIG.length);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.at(-1)).toEqual({ transferred: BIG.length, total: BIG.length, percent: 100 });
    expect(seen.every((p, i) => i === 0 || p.transferred >= seen[i - 1].transferred)).toBe(true);
  });

  it('download of a gzip body: wire bytes against Content-Length, or (fetch) decoded bytes with no total', async () => {
    kit.server.expect({ method: 'GET', path: '/big-gzip', respond: { headers: { 'Content-Type': 'text/plain' }, body: BIG, encoding: 'gzip' } });
    const seen: Progress[] = [];
    const text = await kit.client().get(String, (c) => {
      c.request.uri.path = '/big-gzip';
      c.execution.onDownloadProgress = (progress) => seen.push(progress);
    });
    expect(text).toBe(BIG);
    const wireLength = gzipSync(BIG).length; // what the test server sends
    const last = kit.traits.countsDecodedDownload
      ? { transferred: BIG.length, total: undefined, percent: undefined }
      : { transferred: wireLength, total: wireLength, percent: 100 };
    expect(seen.at(-1)).toEqual(last);
  });

  it('download listener on a response without a body (HEAD, 204): null, and the connection given back', async () => {
    kit.server.expect({ method: 'HEAD', path: '/head', respond: { headers: { 'Content-Type': 'text/plain' }, body: BIG } });
    kit.server.expect({ method: 'GET', path: '/empty', respond: { status: 204 } });
    kit.server.expect({ method: 'GET', path: '/big', respond: { headers: { 'Content-Type': 'text/plain' }, body: BIG } });
    const client = kit.client((c) => (c.execution.onDownloadProgress = () => {}));
    expect(await client.head((c) => void (c.request.uri.path = '/head'))).toBeNull();
    expect(await client.get((c) => void (c.request.uri.path = '/empty'))).toBeNull();
    expect(await client.get(String, (c) => void (c.request.uri.path = '/big'))).toHaveLength(BIG.length);
  });

  it('upload of a stream: transferred counts every byte; no total when chunked', async () => {
    kit.server.expect({ method: 'PUT', path: '/up', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'ok' } });
    const seen: Progress[] = [];
    await kit.client().put((c) => {
      c.request.uri.path = '/up';
      c.request.body = Readable.from([Buffer.alloc(1000), Buffer.alloc(2000), Buffer.alloc(3000)]);
      c.execution.onUploadProgress = (progress) => seen.push(progress);
    });
    expect(seen.map((p) => p.transferred)).toEqual([1000, 3000, 6000]);
    expect(seen.at(-1)).toEqual({ transferred: 6000, total: undefined, percent: undefined });
    expect(kit.server.requests[0].body.length).toBe(6000);
  });

  // the caller's own bug, handed back as thrown: not a NetworkError, which would invite sending the POST again
  it('a listener that throws fails the call with what it threw: upload in memory, download, streamed upload', async () => {
    const respond = { headers: { 'Content-Type': 'text/plain' }, body: BIG };
    for (const [method, path] of [
      ['POST', '/up'],
      ['GET', '/big'],
      ['PUT', '/up-stream'],
      ['GET', '/after'],
    ])
      kit.server.expect({ method, path, respond });
    const bug = new RangeError('listener bug');
    const client = kit.client();
    const calls = [
      client.post((c) => {
        c.request.uri.path = '/up';
        Object.assign(c.request, { contentType: 'application/octet-stream', body: Buffer.alloc(10) });
        c.execution.onUploadProgress = () => {
          throw bug;
        };
      }),
      client.get(String, (c) => {
        c.request.uri.path = '/big';
        c.execution.onDownloadProgress = () => {
          throw bug;
        };
      }),
      client.put((c) => {
        c.request.uri.path = '/up-stream';
        c.request.body = Readable.from([Buffer.alloc(1000), Buffer.alloc(1000)]);
        c.execution.onUploadProgress = () => {
          throw bug;
        };
      }),
    ];
    for (const call of calls) await expect(call).rejects.toBe(bug);
    // the caller's bug, not an outcome of the exchange: an exception handler does not get to turn it into a result
    kit.server.expect({ method: 'GET', path: '/handled', respond });
    const handled = client.get(String, (c) => {
      c.request.uri.path = '/handled';
      c.response.exception(() => 'swallowed');
      c.execution.onDownloadProgress = () => {
        throw bug;
      };
    });
    await expect(handled).rejects.toBe(bug);
    // the POST went out once, and the client's connections are still good
    expect(kit.server.requests.filter((request) => request.method === 'POST')).toHaveLength(1);
    expect(await client.get(String, (c) => void (c.request.uri.path = '/after'))).toHaveLength(BIG.length);
  });

  it('upload of bytes in memory: reported once, complete, when sent', async () => {
    kit.server.expect({ method: 'POST', path: '/up', respond: { headers: { 'Content-Type': 'text/plain' }, body: 'ok' } });
    const seen: Progress[] = [];
    await kit.client().post((c) => {
      c.request.uri.path = '/up';
      c.request.body = 'twelve bytes';
      c.execution.onUploadProgress = (progress) => seen.push(progress);
    });
    expect(seen).toEqual([{ transferred: 12, total: 12, percent: 100 }]);
  });
});
