import { describe, expect, it } from '@jest/globals';
// No lib/index.js and no lib/node-platform.js here: jest gives each spec file its own modules, so
// the content layer below runs as in a browser or Worker bundle, with no node seam registered.
import { encodeBody } from '../../lib/content/encoders.js';
import '../../lib/pipeline/deferred-stage.js'; // plugs in the deferred codecs' loader, as every client does
import { openWithoutFileSystem } from '../../lib/content/file-source.js';
import { multipart } from '../../lib/content/multipart.js';
import { parseCsv } from '../../lib/content/csv.js';
import { parseXml } from '../../lib/content/xml.js';
import { iterableOf } from '../../lib/content/stream-source.js';
import { ConfigError, EncodeError, ParseError } from '../../lib/core/errors.js';
import type { WireBody } from '../../lib/model/backend.js';
import type { FromServer } from '../../lib/model/from-server.js';
import type { RequestRecord } from '../../lib/model/request-record.js';
import { parseMultipart } from '../support/multipart-parser.js';

function record(body: unknown, contentType?: string): RequestRecord {
  return { method: 'POST', url: 'http://127.0.0.1/up', headers: {}, body, contentType, charset: undefined, context: () => undefined };
}

async function encoded(body: unknown, contentType?: string): Promise<{ bytes: Buffer; contentType: string; length: number | undefined }> {
  const result = await encodeBody(record(body, contentType), []);
  const wire: WireBody = result!.body;
  const chunks: Uint8Array[] = [];
  for await (const chunk of wire) chunks.push(chunk);
  return { bytes: Buffer.concat(chunks), contentType: result!.contentType, length: wire.length };
}

function response(contentType: string, text: string): FromServer {
  return { statusCode: 200, contentType, text: () => Promise.resolve(text) } as unknown as FromServer;
}

describe('the content layer without the node platform (as in a browser bundle)', () => {
  it('a FormData body is framed as multipart/form-data: fields, then Files with their name and type, with a Content-Length', async () => {
    const form = new FormData();
    form.append('alpha', 'one');
    form.append('photo', new File([new Uint8Array([0xff, 0xd8, 0x0d, 0x0a])], 'photo.jpg', { type: 'image/jpeg' }));
    const { bytes, contentType, length } = await encoded(form);
    expect(contentType).toMatch(/^multipart\/form-data; boundary=httpbuilder-[0-9a-f]{32}$/);
    expect(length).toBe(bytes.length);
    const parts = parseMultipart(bytes, contentType).parts;
    expect(parts.map((part) => [part.disposition?.params.name, part.disposition?.params.filename, part.headers['content-type']])).toEqual([
      ['alpha', undefined, undefined],
      ['photo', 'photo.jpg', 'image/jpeg'],
    ]);
    expect(parts[0].body.toString()).toBe('one');
    expect([...parts[1].body]).toEqual([0xff, 0xd8, 0x0d, 0x0a]);
  });

  it('a Blob part is sent with its size as Content-Length, and its bytes as they are', async () => {
    const body = multipart((mp) => void mp.part('data', 'data.bin', 'application/octet-stream', new Blob(['héllo'])));
    const { bytes, contentType, length } = await encoded(body, 'multipart/form-data');
    expect(length).toBe(bytes.length);
    const [part] = parseMultipart(bytes, contentType).parts;
    expect(part.headers['content-length']).toBe('6');
    expect(part.body.toString('utf8')).toBe('héllo');
  });

  it("a web stream without Symbol.asyncIterator (Safari's) is read through its reader, as a raw upload and as a part", async () => {
    const readerOnly = () => {
      const stream = ReadableStream.from([new Uint8Array([1, 2]), new Uint8Array([3])]);
      return { getReader: () => stream.getReader(), locked: false } as unknown as ReadableStream<Uint8Array>;
    };
    const chunks: number[] = [];
    for await (const chunk of iterableOf(readerOnly())) chunks.push(...chunk);
    expect(chunks).toEqual([1, 2, 3]);
    expect([...(await encoded(readerOnly(), 'application/octet-stream')).bytes]).toEqual([1, 2, 3]);
    const { bytes, contentType } = await encoded(multipart((mp) => void mp.part('s', 's.bin', 'application/octet-stream', readerOnly())));
    expect([...parseMultipart(bytes, contentType).parts[0].body]).toEqual([1, 2, 3]);
  });

  it('a { path } part has no file system here: ConfigError naming the part and what to pass instead', async () => {
    const error = await openWithoutFileSystem('./photo.jpg', 'photo').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toBe(
      "multipart part 'photo' is a file path ('./photo.jpg'), but this runtime has no file system: pass a Blob or File, bytes or a stream instead",
    );
    const body = multipart((mp) => void mp.part('photo', 'photo.jpg', 'image/jpeg', { path: new URL('file:///tmp/photo.jpg') }));
    await expect(encoded(body, 'multipart/form-data')).rejects.toThrow(/part 'photo' is a file path \('file:\/\/\/tmp\/photo.jpg'\)/);
  });

  it('an XML or CSV object body is an EncodeError naming the content type (no codec), a string body is sent as is', async () => {
    await expect(encoded({ a: { $: { b: '1' } } }, 'application/xml')).rejects.toThrow(EncodeError);
    await expect(encoded({ a: 1 }, 'application/xml')).rejects.toThrow(
      "the request body of 'application/xml' needs the XML codec, which this build does not have (a browser or Workers build loads no XML or CSV library): register your own with c.request.encoder()",
    );
    await expect(encoded([['a', 'b']], 'text/csv')).rejects.toThrow(/^the request body of 'text\/csv' needs the CSV codec/);
    expect((await encoded('<a/>', 'application/xml')).bytes.toString()).toBe('<a/>');
  });

  it('an XML or CSV response is a ParseError naming the content type and the way out, carrying the text', async () => {
    const xml = await Promise.resolve(parseXml(response('text/xml', '<a/>'))).catch((e: unknown) => e);
    expect(xml).toBeInstanceOf(ParseError);
    expect((xml as ParseError).message).toMatch(/^the 200 response of 'text\/xml' needs the XML codec.*c\.response\.parser\(\)$/);
    expect((xml as ParseError).text).toBe('<a/>');
    const csv = await Promise.resolve(parseCsv(response('text/csv', 'a,b'))).catch((e: unknown) => e);
    expect(csv).toBeInstanceOf(ParseError);
    expect((csv as ParseError).message).toMatch(/^the 200 response of 'text\/csv' needs the CSV codec/);
  });
});
