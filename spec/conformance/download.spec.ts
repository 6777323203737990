import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { chmodSync, existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { rawServer, type RawServer } from '../support/raw-server.js';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
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

/** A file in a folder of its own, holding `content`: the folder's listing shows any temporary file left beside it. */
function existingFile(content: string): { file: string; listing: () => string[] } {
  const folder = mkdtempSync(join(dir, 'folder-'));
  const file = join(folder, 'existing.txt');
  writeFileSync(file, content);
  return { file, listing: () => readdirSync(folder) };
}
const PREVIOUS = 'the previous content, which must survive a failed download\n';

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
      respond: respond ?? { headers: { 'Content-Type': 'text/plain', 'Transfer-Encoding': 'chunked' } },
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

  it('toFile replaces an existing file once the whole body is written, leaving no temporary file', async () => {
    download();
    const { file, listing } = existingFile(PREVIOUS);
    const result = await kit.client().get((c) => {
      c.request.uri.path = '/download';
      Download.toFile(c, file);
    });
    expect(result).toBe(file);
    expect(readFileSync(file, 'utf8')).toBe(BODY);
    expect(listing()).toEqual([basename(file)]);
  });

  // `hb -o /dev/null`, as with curl: a device is written as it is, never replaced by a file
  it('toFile into /dev/null writes through it, and leaves it a device', async () => {
    download();
    const result = await kit.client().get((c) => {
      c.request.uri.path = '/download';
      Download.toFile(c, '/dev/null');
    });
    expect(result).toBe('/dev/null');
    expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(readdirSync('/dev').filter((name) => name.startsWith('.httpbuilder-'))).toEqual([]);
  });

  it('toFile keeps the permissions of the file it replaces, and writes through a symbolic link', async () => {
    download();
    download();
    const { file, listing } = existingFile(PREVIOUS);
    chmodSync(file, 0o640);
    const link = `${file}.link`;
    symlinkSync(file, link);
    const http = kit.client();
    await http.get((c) => {
      c.request.uri.path = '/download';
      Download.toFile(c, file);
    });
    expect(statSync(file).mode & 0o777).toBe(0o640);
    writeFileSync(file, PREVIOUS);
    const result = await http.get((c) => {
      c.request.uri.path = '/download';
      Download.toFile(c, link);
    });
    expect(result).toBe(link);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(file, 'utf8')).toBe(BODY);
    expect(listing().sort()).toEqual([basename(file), basename(link)]);
  });

  const ended = () => new PassThrough().end();
  const destroyed = () => new PassThrough().destroy();
  it.each<[what: string, target: (c: Parameters<typeof Download.toFile>[0]) => void, message: RegExp]>([
    ['toFile to a directory', (c) => Download.toFile(c, dir), /is a directory/],
    ['toFile to a path ending with a separator', (c) => Download.toFile(c, join(dir, 'new-folder') + '/'), /ends with a path separator/],
    ['toFile into a folder that does not exist', (c) => Download.toFile(c, join(dir, 'no-such-folder', 'out.txt')), /folder .*no-such-folder.* does not exist/],
    ['toFile into a "folder" that is a file', (c) => Download.toFile(c, join(existingFile(PREVIOUS).file, 'out.txt')), /is not a folder/],
    ['toFile to a path with a NUL byte', (c) => Download.toFile(c, join(dir, 'a\0b.txt')), /NUL/],
    ['toFile to a number', (c) => Download.toFile(c, 5 as unknown as string), /needs a string path, not a number/],
    ['toFile to a file: URL', (c) => Download.toFile(c, new URL('file:///tmp/x') as unknown as string), /needs a string path, not an instance of URL/],
    ['toTempFile with a content type that is not a string', (c) => Download.toTempFile(c, {} as string), /content type must be a string, not an object/],
    ['toStream to an ended stream', (c) => Download.toStream(c, ended()), /stream has already ended/],
    ['toStream to a destroyed stream', (c) => Download.toStream(c, destroyed()), /stream is destroyed/],
  ])('%s is a ConfigError naming the problem, and nothing is sent', async (_what, target, message) => {
    download();
    const error = await kit
      .client()
      .get((c) => {
        c.request.uri.path = '/download';
        target(c);
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toMatch(message);
    expect(kit.server.requests).toHaveLength(0);
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

      it('toFile rejects with NetworkError and leaves an existing file untouched, with no temporary file beside it', async () => {
        const { file, listing } = existingFile(PREVIOUS);
        const error = await client()
          .get((c) => Download.toFile(c, file))
          .catch((e: unknown) => e);
        expect(error).toBeInstanceOf(NetworkError);
        expect(readFileSync(file, 'utf8')).toBe(PREVIOUS);
        expect(listing()).toEqual([basename(file)]);
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
