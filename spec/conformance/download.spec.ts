import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { rawServer, type RawServer } from '../support/raw-server.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { ConfigError, HttpException, NetworkError } from '../../lib/index.js';
import { Download } from '../../lib/download.js';
import { BACKENDS } from './backends.js';
import { conformance } from './kit.js';
import { backendClients } from '../support/backend-clients.js';

const BODY = 'some downloaded text\n'.repeat(2000); // 42 000 bytes: more than one chunk

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'hb-download-spec-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The download files in the temp directory, to spot one created (or left) by a test. */
const tempDownloads = () => new Set(readdirSync(tmpdir()).filter((name) => /^httpbuilder-.*\.download$/.test(name)));
const created = (before: Set<string>) => [...tempDownloads()].filter((name) => !before.has(name));

let counter = 0;
const freshFile = () => join(dir, `file-${++counter}.txt`);

/** Collects what a PassThrough receives, without ending it. */
function collector(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString() };
}

conformance('download module', (kit) => {
  const download = () => kit.server.expect({ method: 'GET', path: '/download', respond: { headers: { 'Content-Type': 'text/plain' }, body: BODY } });
  const temps: string[] = [];
  afterEach(() => {
    for (const path of temps.splice(0)) rmSync(path, { force: true });
  });

  for (const contentType of [undefined, 'text/plain']) {
    const label = contentType ? ` for ${contentType}` : '';

    it(`toFile writes the body and resolves to the path${label}`, async () => {
      download();
      const file = freshFile();
      const result = await kit.client().get((c) => {
        c.request.uri.path = '/download';
        Download.toFile(c, file, contentType);
      });
      expect(result).toBe(file);
      expect(readFileSync(file, 'utf8')).toBe(BODY);
    });

    it(`toStream writes the body, does not end the stream and resolves to it${label}`, async () => {
      download();
      const { stream, text } = collector();
      const result = await kit.client().get((c) => {
        c.request.uri.path = '/download';
        Download.toStream(c, stream, contentType);
      });
      expect(result).toBe(stream);
      expect(stream.writableEnded).toBe(false);
      expect(stream.destroyed).toBe(false);
      stream.end();
      expect(text()).toBe(BODY);
    });

    it(`toTempFile writes a new temporary file and resolves to its path${label}`, async () => {
      download();
      const path = await kit.client().get((c) => {
        c.request.uri.path = '/download';
        Download.toTempFile(c, contentType);
      });
      expect(typeof path).toBe('string');
      temps.push(path as string);
      expect((path as string).startsWith(tmpdir())).toBe(true);
      expect(readFileSync(path as string, 'utf8')).toBe(BODY);
    });
  }

  it.each([
    ['an empty 200', { status: 200, headers: { 'Content-Type': 'text/plain' }, body: '' }],
    ['an empty chunked 200', undefined],
    ['a 204', { status: 204 }],
  ])('%s is downloaded as an empty file (as curl -o does)', async (_title, respond) => {
    kit.server.expect({
      method: 'GET',
      path: '/empty',
      respond: respond ?? ((_req, res) => void res.writeHead(200, { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' }).end()),
    });
    const file = freshFile();
    const result = await kit.client().get((c) => {
      c.request.uri.path = '/empty';
      Download.toFile(c, file);
    });
    expect(result).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe('');
  });

  it('with another content type the response is parsed as usual and nothing is written', async () => {
    download();
    download();
    download();
    const file = freshFile();
    const { stream, text } = collector();
    const before = tempDownloads();
    const http = kit.client();
    const texts = [
      await http.get((c) => {
        c.request.uri.path = '/download';
        Download.toFile(c, file, 'application/octet-stream');
      }),
      await http.get((c) => {
        c.request.uri.path = '/download';
        Download.toStream(c, stream, 'application/json');
      }),
      await http.get((c) => {
        c.request.uri.path = '/download';
        Download.toTempFile(c, 'text/csv');
      }),
    ];
    expect(texts).toEqual([BODY, BODY, BODY]);
    expect(existsSync(file)).toBe(false);
    expect(text()).toBe('');
    expect(created(before)).toEqual([]);
  });

  it('a failure status is not downloaded: the failure handler gets the parsed body', async () => {
    kit.server.expect({ method: 'GET', path: '/missing', respond: { status: 404, headers: { 'Content-Type': 'text/plain' }, body: 'no such file' } });
    const file = freshFile();
    const error = await kit
      .client()
      .get((c) => {
        c.request.uri.path = '/missing';
        Download.toFile(c, file);
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpException);
    expect((error as HttpException).body).toBe('no such file');
    expect(existsSync(file)).toBe(false);
  });

  it('a bad target or content type is a ConfigError', () => {
    kit.client((c) => {
      expect(() => Download.toFile(c, '')).toThrow(ConfigError);
      expect(() => Download.toStream(c, {} as PassThrough)).toThrow(ConfigError);
      expect(() => Download.toTempFile(c, 'plain')).toThrow(ConfigError);
    });
  });
});

/** A raw TCP server that sends a 200 head and part of the body, then resets the connection. */
function resetMidBody(): Promise<RawServer> {
  return rawServer((socket) => {
    socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 100000\r\n\r\n' + 'x'.repeat(20000));
    setTimeout(() => socket.resetAndDestroy(), 30);
  });
}

describe('download module: a reset mid-body leaves no partial file', () => {
  let server: Awaited<ReturnType<typeof resetMidBody>>;
  beforeAll(async () => {
    server = await resetMidBody();
  });
  afterAll(() => server.close());

  for (const backend of BACKENDS) {
    describe(backend.name, () => {
      const clients = backendClients(backend.choice);
      const client = () => clients(server.url);

      it('toFile rejects with NetworkError and removes the file', async () => {
        const file = freshFile();
        const error = await client()
          .get((c) => Download.toFile(c, file))
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NetworkError);
        expect(existsSync(file)).toBe(false);
      });

      it('toTempFile rejects with NetworkError and removes the temporary file', async () => {
        const before = tempDownloads();
        const error = await client()
          .get((c) => Download.toTempFile(c, 'text/plain'))
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NetworkError);
        expect(created(before)).toEqual([]);
      });

      it('toStream rejects with NetworkError and leaves the stream open for its owner', async () => {
        const { stream } = collector();
        const error = await client()
          .get((c) => Download.toStream(c, stream))
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NetworkError);
        expect(stream.destroyed).toBe(false);
        expect(stream.writableEnded).toBe(false);
        stream.end();
      });
    });
  }
});
