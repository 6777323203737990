import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { EncodeError, HttpBuilder, multipart, type PartContent } from '../../lib/index.js';
import { BACKENDS } from './backends.js';
import { boundaryOf, parseMultipart } from '../support/multipart-parser.js';
import type { RecordedRequest } from '../support/test-server.js';
import { conformance } from './kit.js';

const OK = { headers: { 'Content-Type': 'text/plain' }, body: 'ok' };
const A = 'some-a-content';
const B = 'some-b-content';

const dir = mkdtempSync(join(tmpdir(), 'httpbuilder-multipart-'));
const fileA = join(dir, 'file-a.txt');
const fileB = join(dir, 'file-b.txt');
writeFileSync(fileA, A);
writeFileSync(fileB, B);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Each source kind: how to make a part's content, and whether its size is known up front. */
const SOURCES: Array<[kind: string, make: (text: string, path: string) => PartContent, sized: boolean]> = [
  ['string', (text) => text, true],
  ['bytes', (text) => Buffer.from(text), true],
  ['Uint8Array', (text) => new TextEncoder().encode(text), true],
  ['path', (_text, path) => ({ path }), true],
  ['Readable', (text) => Readable.from([Buffer.from(text.slice(0, 5)), Buffer.from(text.slice(5))]), false],
  ['web ReadableStream', (text) => ReadableStream.from([new TextEncoder().encode(text)]), false],
  ['Blob', (text) => new Blob([text]), true],
  ['{ stream, size }', (text) => ({ stream: Readable.from([Buffer.from(text)]), size: Buffer.byteLength(text) }), true],
];

interface ExpectedPart {
  name: string;
  filename?: string;
  contentType?: string;
  length?: string;
  content: string;
}

/** Parses the recorded body and compares every part, and the request's framing. */
function expectMultipart(request: RecordedRequest, expected: ExpectedPart[], sized: boolean): void {
  const contentType = request.headers['content-type'] as string;
  expect(contentType).toMatch(/^multipart\/form-data; boundary=[^;]+$/);
  const parsed = parseMultipart(request.body, contentType);
  expect(parsed.preamble.length).toBe(0);
  expect(parsed.epilogue.length).toBe(0);
  const actual = parsed.parts.map((part) => {
    const got: ExpectedPart = { name: part.disposition?.params.name ?? '<none>', content: part.body.toString('utf8') };
    expect(part.disposition?.type).toBe('form-data');
    if (part.disposition?.params.filename !== undefined) got.filename = part.disposition.params.filename;
    if (part.headers['content-type'] !== undefined) got.contentType = part.headers['content-type'];
    if (part.headers['content-length'] !== undefined) got.length = part.headers['content-length'];
    return got;
  });
  expect(actual).toEqual(expected);
  expect(request.chunked).toBe(!sized);
  expect(request.headers['content-length']).toBe(sized ? String(request.body.length) : undefined);
}

/** The specification's `/multi` parts: two fields, two text files (with Content-Length when their size is known). */
function multiScenario(sized: boolean): ExpectedPart[] {
  const file = (name: string, filename: string, text: string): ExpectedPart => ({
    name,
    filename,
    contentType: 'text/plain',
    ...(sized ? { length: String(text.length) } : {}),
    content: text,
  });
  return [
    { name: 'alpha', length: '3', content: 'one' },
    { name: 'bravo', length: '3', content: 'two' },
    file('filea', 'file-a.txt', A),
    file('fileb', 'file-b.txt', B),
  ];
}

conformance('multipart/form-data', (kit) => {
  for (const [verb, method] of [
    ['post', 'POST'],
    ['put', 'PUT'],
    ['patch', 'PATCH'],
  ] as const) {
    for (const [kind, make, sized] of SOURCES) {
      it(`${method} /multi with files from a ${kind} (${sized ? 'Content-Length' : 'chunked'})`, async () => {
        kit.server.expect({ method, path: '/multi', respond: OK });
        const text = await kit.client()[verb](String, (c) => {
          c.request.uri.path = '/multi';
          c.request.contentType = 'multipart/form-data';
          c.request.body = multipart((mp) => {
            mp.field('alpha', 'one');
            mp.field('bravo', 'two');
            mp.part('filea', 'file-a.txt', 'text/plain', make(A, fileA));
            mp.part('fileb', 'file-b.txt', 'text/plain', make(B, fileB));
          });
        });
        expect(text).toBe('ok');
        expect(kit.server.requests).toHaveLength(1);
        expectMultipart(kit.server.requests[0], multiScenario(sized), sized);
      });
    }
  }

  it('without a content type, a multipart body selects multipart/form-data; every request gets a fresh boundary', async () => {
    kit.server.expect({ method: 'POST', path: '/multi', respond: OK });
    const client = kit.client((c) => void (c.request.uri.path = '/multi'));
    const body = multipart((mp) => void mp.field('alpha', 'one'));
    await client.post((c) => void (c.request.body = body));
    await client.post((c) => void (c.request.body = body));
    const [first, second] = kit.server.requests;
    expectMultipart(first, [{ name: 'alpha', length: '3', content: 'one' }], true);
    expectMultipart(second, [{ name: 'alpha', length: '3', content: 'one' }], true);
    expect(boundaryOf(first.headers['content-type'] as string)).not.toBe(boundaryOf(second.headers['content-type'] as string));
    expect(boundaryOf(first.headers['content-type'] as string)).toMatch(/^httpbuilder-[0-9a-f]{32}$/);
  });

  it('a FormData body (no content type set): strings are fields, Files file parts with their name and type, in order', async () => {
    kit.server.expect({ method: 'POST', path: '/multi', respond: OK });
    const form = new FormData();
    form.append('alpha', 'one');
    form.append('filea', new File([A], 'file-a.txt', { type: 'text/plain' }));
    form.append('raw', new Blob([new Uint8Array([0, 13, 10])]));
    form.append('alpha', 'two');
    const text = await kit.client().post(String, (c) => {
      c.request.uri.path = '/multi';
      c.request.body = form;
    });
    expect(text).toBe('ok');
    expectMultipart(
      kit.server.requests[0],
      [
        { name: 'alpha', length: '3', content: 'one' },
        { name: 'filea', filename: 'file-a.txt', contentType: 'text/plain', length: String(A.length), content: A },
        { name: 'raw', filename: 'blob', contentType: 'application/octet-stream', length: '3', content: '\0\r\n' },
        { name: 'alpha', length: '3', content: 'two' },
      ],
      true,
    );
  });

  it('a sized part and an unsized one: the unsized part has no Content-Length and the body goes chunked', async () => {
    kit.server.expect({ method: 'POST', path: '/multi', respond: OK });
    await kit.client().post((c) => {
      c.request.uri.path = '/multi';
      c.request.body = multipart((mp) => {
        mp.part('known', 'k.bin', 'application/octet-stream', Buffer.from([0, 1, 2, 13, 10]));
        mp.part('unknown', 'u.txt', 'text/plain', Readable.from(['str', 'ings']));
        mp.part('empty', '', 'text/plain', '');
      });
    });
    const request = kit.server.requests[0];
    expectMultipart(
      request,
      [
        { name: 'known', filename: 'k.bin', contentType: 'application/octet-stream', length: '5', content: '\0\x01\x02\r\n' },
        { name: 'unknown', filename: 'u.txt', contentType: 'text/plain', content: 'strings' },
        { name: 'empty', filename: '', contentType: 'text/plain', length: '0', content: '' },
      ],
      false,
    );
  });

  it('quotes in names and file names are sent as %22; non-ASCII as UTF-8', async () => {
    kit.server.expect({ method: 'POST', path: '/multi', respond: OK });
    await kit.client().post((c) => {
      c.request.uri.path = '/multi';
      c.request.body = multipart((mp) => {
        mp.field('say "hi"', 'café');
        mp.part('f"x', 'naïve "q".txt', 'text/plain; charset=utf-8', 'ü');
      });
    });
    expectMultipart(
      kit.server.requests[0],
      [
        { name: 'say %22hi%22', length: '5', content: 'café' },
        { name: 'f%22x', filename: 'naïve %22q%22.txt', contentType: 'text/plain; charset=utf-8', length: '2', content: 'ü' },
      ],
      true,
    );
  });

  const bad: Array<[what: string, culprit: RegExp, add: (mp: Parameters<Parameters<typeof multipart>[0]>[0]) => void]> = [
    ['CR in a field name', /field name 'a\\rb' contains CR/, (mp) => mp.field('a\rb', 'x')],
    ['LF in a part name', /part name 'a\\nb' contains LF/, (mp) => mp.part('a\nb', 'f.txt', 'text/plain', 'x')],
    ['NUL in a file name', /file name of part 'f'.*contains NUL/, (mp) => mp.part('f', 'f\0.txt', 'text/plain', 'x')],
    ['CRLF in a content type', /content type of part 'f'.*contains CR/, (mp) => mp.part('f', 'f.txt', 'text/plain\r\nX-Evil: 1', 'x')],
  ];
  for (const [what, culprit, add] of bad) {
    it(`${what} rejects with EncodeError naming it, before sending (and closes streams already added)`, async () => {
      kit.server.expect({ method: 'POST', path: '/multi', respond: OK });
      const earlier = Readable.from([Buffer.from('x')]);
      const error = await kit
        .client()
        .post((c) => {
          c.request.uri.path = '/multi';
          c.request.body = multipart((mp) => {
            mp.part('earlier', 'e.txt', 'text/plain', earlier);
            add(mp);
          });
        })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EncodeError);
      expect((error as Error).message).toMatch(culprit);
      expect(earlier.destroyed).toBe(true);
      expect(kit.server.requests).toHaveLength(0);
    });
  }

  it('a missing file rejects with EncodeError naming its path, before sending', async () => {
    kit.server.expect({ method: 'POST', path: '/multi', respond: OK });
    const missing = join(dir, 'missing.txt');
    const error = await kit
      .client()
      .post((c) => {
        c.request.uri.path = '/multi';
        c.request.body = multipart((mp) => void mp.part('f', 'missing.txt', 'text/plain', { path: missing }));
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EncodeError);
    expect((error as Error).message).toContain(missing);
    expect(kit.server.requests).toHaveLength(0);
  });

  it('a multipart body with another content type, or multipart/form-data with another body, rejects before sending', async () => {
    kit.server.expect({ method: 'POST', path: '/multi', respond: OK });
    const client = kit.client((c) => void (c.request.uri.path = '/multi'));
    const asJson = await client
      .post((c) => Object.assign(c.request, { contentType: 'application/json', body: multipart((mp) => void mp.field('a', 'b')) }))
      .catch((e: unknown) => e);
    expect(asJson).toBeInstanceOf(EncodeError);
    expect((asJson as Error).message).toContain('multipart/form-data');
    const notBuilt = await client.post((c) => Object.assign(c.request, { contentType: 'multipart/form-data', body: { a: 'b' } })).catch((e: unknown) => e);
    expect(notBuilt).toBeInstanceOf(EncodeError);
    expect((notBuilt as Error).message).toContain('multipart()');
    expect(kit.server.requests).toHaveLength(0);
  });

  it('a { stream, size } that delivers fewer bytes than its size fails the request instead of sending a short body', async () => {
    kit.server.expect({ method: 'POST', path: '/multi', respond: OK });
    const sent = kit.client().post((c) => {
      c.request.uri.path = '/multi';
      c.request.body = multipart((mp) => void mp.part('f', 'f.txt', 'text/plain', { stream: Readable.from([Buffer.from('short')]), size: 10 }));
    });
    await expect(sent).rejects.toThrow(/multipart part 'f' is 5 bytes, shorter than its size \(10\)/);
    expect(kit.server.requests.filter((r) => r.matched)).toHaveLength(0);
  });
});

/**
 * Proof that a part's stream is streamed: its second chunk comes only after the server has
 * received the first. A client that read the part (or the body) whole first would wait forever.
 */
describe('multipart parts are streamed, not buffered', () => {
  let server: http.Server;
  let url = '';
  let firstChunkArrived: () => void = () => {};

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (Buffer.concat(chunks).includes('first,')) firstChunkArrived();
      });
      req.on('end', () => res.end(Buffer.concat(chunks)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  for (const backend of BACKENDS) {
    it(`${backend.name}: a stream part reaches the server chunk by chunk`, async () => {
      const arrived = new Promise<string>((resolve) => {
        firstChunkArrived = () => resolve('arrived');
        setTimeout(() => resolve('timed out'), 2000).unref();
      });
      const source = (async function* () {
        yield Buffer.from('first,');
        yield Buffer.from(await arrived);
      })();
      const client = HttpBuilder.configure((c) => {
        c.request.uri = url;
        c.client.backend = backend.choice;
      });
      try {
        const echoed = await client.post(String, (c) => {
          c.request.body = multipart((mp) => void mp.part('f', 'f.txt', 'text/plain', { stream: source, size: 'first,arrived'.length }));
        });
        expect(echoed).toContain('\r\n\r\nfirst,arrived\r\n');
      } finally {
        await client.close();
      }
    });
  }
});

conformance('multipart part streams are closed when the request fails', (kit) => {
  it('on a refused connection', async () => {
    const { PassThrough } = await import('node:stream');
    const { TestServer } = await import('../support/test-server.js');
    const { multipart } = await import('../../lib/index.js');
    const closed = await TestServer.start();
    await closed.close();
    const source = new PassThrough();
    const error = await kit
      .client()
      .post((c) => {
        c.request.uri = `${closed.httpUrl}/multi`;
        c.request.body = multipart((mp) => mp.part('file', 'f.txt', 'text/plain', source));
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(source.destroyed).toBe(true);
  });
});
