// a node entry: node's transports, decoders and streams, whichever entry is imported first
import './node-platform.js';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, realpath, rename, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type { HttpConfig } from './config/http-config.js';
import { parseMediaType } from './core/media-type.js';
import { defaultParser, DOWNLOADS, READS_EMPTY_BODIES, type Parser } from './content/parsers.js';
import { describeValue } from './core/describe-value.js';
import { ConfigError } from './core/errors.js';
import { checkDownloadTarget } from './download-target.js';

type Sink = (body: Readable) => Promise<unknown>;

/**
 * Registers a parser that streams 2xx bodies into `sink`, for `contentType` or for every type.
 * Other statuses are parsed by the built-in parser, so the failure handlers see the error body.
 */
function download(config: HttpConfig, contentType: string | undefined, sink: Sink): void {
  if (contentType !== undefined && typeof contentType !== 'string') {
    throw new ConfigError(`Download: the content type must be a string, not ${describeValue(contentType)}`);
  }
  const type = contentType === undefined ? '*/*' : parseMediaType(contentType).type;
  if (!/^[^\s/]+\/[^\s/]+$/.test(type)) throw new ConfigError(`Download: '${contentType}' is not a 'type/subtype' content type`);
  const parser: Parser = (fromServer, request) => {
    if (fromServer.statusCode < 200 || fromServer.statusCode > 299) return defaultParser(fromServer.contentType)(fromServer, request);
    return sink(fromServer.stream());
  };
  // an empty 2xx (a 204 too) is downloaded as an empty file, as curl -o does
  config.response.parser(type, Object.assign(parser, { [READS_EMPTY_BODIES]: true, [DOWNLOADS]: true }));
}

/**
 * Streams `body` into a new file at `file`, created exclusively (never an existing file: only
 * then may a failure remove it) and readable by the owner only while it is written (a temporary
 * file in a shared folder stays so); on any error it is removed.
 */
async function writeFile(body: Readable, file: string): Promise<string> {
  const out = createWriteStream(file, { flags: 'wx', mode: 0o600 });
  // open first: a failed open touched nothing, and after it every failure leaves a file of ours
  // to remove (a body failing at once would otherwise race the open and leave the file behind)
  await once(out, 'open');
  try {
    await pipeline(body, out);
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
  return file;
}

/**
 * Streams `body` into a new temporary file beside `file` and renames it over `file` only once
 * every byte is written: an existing file is replaced whole or, when the download fails, left
 * untouched (truncating it first would lose it on a failure). Only the temporary file is ever
 * removed. Resolves to `file`.
 */
async function replaceFile(body: Readable, file: string): Promise<string> {
  // a symbolic link is written through, as writing to it in place would: the linked file is replaced
  const target = await realpath(file).catch(() => file);
  // /dev/null, a FIFO, a terminal: nothing to keep or replace, and no folder of ours to write beside it
  if ((await stat(target).catch(() => undefined))?.isFile() === false) return writeInPlace(body, target, file);
  // beside the target, so the rename stays on one file system (and so is atomic); hidden and unique
  const temp = join(dirname(target), `.httpbuilder-${randomUUID()}.part`);
  await writeFile(body, temp);
  try {
    await keepMode(temp, target);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return file;
}

/** Streams `body` into an existing target that is no regular file (a device, a FIFO), as it is; resolves to `file`. */
async function writeInPlace(body: Readable, target: string, file: string): Promise<string> {
  await pipeline(body, createWriteStream(target, { flags: 'w' }));
  return file;
}

/**
 * Gives `temp`, complete, the permissions of the file it replaces (overwriting in place kept
 * them), or those a new file gets from fs.writeFile and curl: 0666 less the umask (0644 usually).
 */
async function keepMode(temp: string, target: string): Promise<void> {
  const previous = await stat(target).catch(() => undefined);
  await chmod(temp, previous?.isFile() === true ? previous.mode & 0o777 : 0o666 & ~process.umask());
}

/**
 * The download module (`httpbuilder-ts/download`): streams a response body to a file, a stream
 * or a temporary file, never holding it in memory. Call it inside a request block; the request
 * resolves, once every byte is written, to the path or the stream. Only 2xx responses are
 * downloaded (others go to the failure handlers as usual); with a `contentType`, only responses
 * of that type are (others are parsed as usual and nothing is written). A failed download
 * leaves no partial file, and an existing file it was to replace untouched. A target that can
 * never be written is a ConfigError when `Download.*` is called, before anything is sent.
 *
 * @example
 * import { Download } from 'httpbuilder-ts/download';
 * const path = await http.get((c) => { c.request.uri.path = '/report.csv'; Download.toFile(c, './report.csv'); });
 */
export const Download = Object.freeze({
  /**
   * Writes the body to `file` and resolves to `file`. The body goes to a temporary file in the
   * same folder, renamed over `file` once complete: if the download fails, an existing `file`
   * is left as it was and nothing is left behind.
   *
   * @throws {ConfigError} at once, before anything is sent, when `file` is not a non-empty
   *   string path (a `file:` URL is refused: pass `fileURLToPath(url)`), contains a NUL byte, is
   *   or names a directory, or its folder does not exist.
   */
  toFile(config: HttpConfig, file: string, contentType?: string): void {
    checkDownloadTarget(file, 'Download.toFile()');
    download(config, contentType, (body) => replaceFile(body, file));
  },

  /**
   * Writes the body to `stream` and resolves to it. The stream is neither ended nor destroyed,
   * even when the download fails: the caller owns it.
   *
   * @throws {ConfigError} at once, before anything is sent, when `stream` is not a Writable or
   *   can no longer be written (ended or destroyed).
   */
  toStream<S extends Writable>(config: HttpConfig, stream: S, contentType?: string): void {
    if (typeof stream?.write !== 'function') throw new ConfigError('Download.toStream(): the target must be a Writable stream');
    // otherwise the server would send the whole body only for the first write to fail
    if (stream.destroyed) throw new ConfigError('Download.toStream(): the stream is destroyed');
    if (stream.writableEnded) throw new ConfigError('Download.toStream(): the stream has already ended');
    download(config, contentType, async (body) => {
      await pipeline(body, stream, { end: false });
      if (stream.writableNeedDrain) await once(stream, 'drain');
      return stream;
    });
  },

  /** Writes the body to a new file in the system's temporary directory and resolves to its path (the caller removes it). */
  toTempFile(config: HttpConfig, contentType?: string): void {
    download(config, contentType, (body) => writeFile(body, join(tmpdir(), `httpbuilder-${randomUUID()}.download`)));
  },
});
