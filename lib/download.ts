// a node entry: node's transports, decoders and streams, whichever entry is imported first
import './node-platform.js';
import { randomUUID } from 'node:crypto';
import { createWriteStream, statSync } from 'node:fs';
import { chmod, open, realpath, rename, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type { HttpConfig } from './config/http-config.js';
import { parseMediaType } from './core/media-type.js';
import { defaultParser, DOWNLOADS, READS_EMPTY_BODIES, type Parser } from './content/parsers.js';
import { describeValue } from './core/describe-value.js';
import { ConfigError, ParseError } from './core/errors.js';
import { checkDownloadTarget } from './download-target.js';
import type { FromServer } from './model/from-server.js';

type Sink = (body: Readable, fromServer: FromServer) => Promise<unknown>;

/** The third argument of `Download.toFile` as options (a string there is the content type). */
export interface ToFileOptions {
  /** Only responses of this type are downloaded; others are parsed as usual and nothing is written. */
  readonly contentType?: string;
  /**
   * Continue the bytes already at the target (as `curl -C -`): `Range: bytes=N-` and `If-Range`
   * with the file's modification time. A 206 is appended, a 200 (range ignored, or the
   * resource changed) rewrites the file from its start; a download cut short keeps its bytes
   * at the target, so a rerun resumes. Off by default.
   */
  readonly resume?: boolean;
}

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
    return sink(fromServer.stream(), fromServer);
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
async function replaceFile(body: Readable, file: string, modified: Date | undefined): Promise<string> {
  // a symbolic link is written through, as writing to it in place would: the linked file is replaced
  const target = await realpath(file).catch(() => file);
  // /dev/null, a FIFO, a terminal: nothing to keep or replace, and no folder of ours to write beside it
  if ((await stat(target).catch(() => undefined))?.isFile() === false) return writeInPlace(body, target, file);
  // beside the target, so the rename stays on one file system (and so is atomic); hidden and unique
  const temp = join(dirname(target), `.httpbuilder-${randomUUID()}.part`);
  await writeFile(body, temp);
  try {
    await keepMode(temp, target);
    if (modified !== undefined) await utimes(temp, new Date(), modified);
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

/** `toFile`'s third argument: a content type string (as before) or {@link ToFileOptions}. */
function toFileOptions(options: string | ToFileOptions | undefined): ToFileOptions {
  if (options === undefined || typeof options === 'string') return { contentType: options };
  if (typeof options !== 'object' || options === null)
    throw new ConfigError(`Download.toFile(): the third argument must be a content type or { contentType, resume }, not ${describeValue(options)}`);
  if (options.resume !== undefined && typeof options.resume !== 'boolean')
    throw new ConfigError(`Download.toFile(): resume must be true or false, not ${describeValue(options.resume)}`);
  return options;
}

/** The response's `Last-Modified`, when it is a valid date: every file toFile writes gets it as its mtime (as `curl -R`). */
function lastModified(fromServer: FromServer): Date | undefined {
  const header = fromServer.headers.get('last-modified');
  const date = header === null ? undefined : new Date(header);
  return date === undefined || Number.isNaN(date.getTime()) ? undefined : date;
}

/**
 * `toFile(c, file, { resume: true })`: asks for the bytes after those already at `file`, valid
 * only for the version the file's mtime names (`If-Range`), and writes the answer in place: a
 * 206 appended, a 200 from the start (never spliced). The body is asked for unencoded, so the
 * bytes on disk are the ones a range counts.
 */
function resumeInto(config: HttpConfig, file: string, contentType: string | undefined): void {
  const info = statSync(file, { throwIfNoEntry: false });
  const have = info?.isFile() === true ? info.size : 0;
  if (have > 0 && info !== undefined) {
    config.request.headers.Range = `bytes=${have}-`;
    config.request.headers['If-Range'] = info.mtime.toUTCString();
  }
  if (!Object.keys(config.request.headers).some((name) => name.toLowerCase() === 'accept-encoding')) config.request.headers['Accept-Encoding'] = 'identity';
  download(config, contentType, async (body, fromServer) => {
    const partial = fromServer.statusCode === 206;
    const announced = partial ? await checkContinues(fromServer, file, have, body) : undefined;
    await writeKeeping(
      body,
      file,
      partial ? 'a' : 'w',
      lastModified(fromServer),
      announced === undefined ? undefined : { bytes: announced, contentType: fromServer.contentType },
    );
    return file;
  });
}

/**
 * A 206 must start where the file ends (`Content-Range: bytes N-M`), the file unchanged since the
 * request went out: else appending would splice. Gives the bytes its range announces (`M - N + 1`).
 */
async function checkContinues(fromServer: FromServer, file: string, have: number, body: Readable): Promise<number | undefined> {
  const range = fromServer.headers.get('content-range') ?? '';
  const [, start, end] = /^bytes\s+(\d+)-(\d+)?/i.exec(range) ?? [];
  const size = (await stat(file).catch(() => undefined))?.size ?? 0;
  if (have > 0 && start !== undefined && Number(start) === have && size === have) return end === undefined ? undefined : Number(end) - have + 1;
  body.destroy();
  const why =
    have === 0 ? 'no range was asked for' : size !== have ? `the file changed size (${have} to ${size} bytes) meanwhile` : `${have} bytes are already there`;
  throw new ParseError(`Download.toFile(): a 206 with Content-Range '${range}' cannot continue '${file}': ${why}`, {
    statusCode: 206,
    contentType: fromServer.contentType,
    text: '',
  });
}

/**
 * Streams `body` into `file` in place (`a`: appended, `w`: from the start); the bytes written stay,
 * even on a failure, with `modified` as the mtime. At most `limit` bytes (a 206's range): a server
 * that sends more fails the download after what it announced, instead of growing the file.
 */
async function writeKeeping(
  body: Readable,
  file: string,
  flags: 'a' | 'w',
  modified: Date | undefined,
  limit?: { readonly bytes: number; readonly contentType: string },
): Promise<void> {
  // each chunk written before the next is read (not a pipeline, whose failure drops the writes still queued): what arrived stays
  const handle = await open(file, flags).catch((error: unknown) => {
    body.destroy();
    throw error;
  });
  try {
    let left = limit?.bytes ?? Infinity;
    for await (const whole of body as AsyncIterable<Uint8Array>) {
      const chunk = whole.length > left ? whole.subarray(0, left) : whole;
      for (let done = 0; done < chunk.length;) done += (await handle.write(chunk, done)).bytesWritten;
      left -= chunk.length;
      if (chunk !== whole) {
        body.destroy();
        throw new ParseError(`Download.toFile(): the 206 for '${file}' sent more than the ${limit!.bytes} bytes its Content-Range announces`, {
          statusCode: 206,
          contentType: limit!.contentType,
          text: '',
        });
      }
    }
  } finally {
    await handle.close();
    if (modified !== undefined) await utimes(file, new Date(), modified).catch(() => undefined);
  }
}

/**
 * The download module (`httpbuilder-ts/download`): streams a response body to a file, a stream
 * or a temporary file, never holding it in memory. Call it inside a request block; the request
 * resolves, once every byte is written, to the path or the stream. Only 2xx responses are
 * downloaded (others go to the failure handlers as usual); with a `contentType`, only responses
 * of that type are (others are parsed as usual and nothing is written). A failed download
 * leaves no partial file (unless `toFile` resumes), and an existing file it was to replace untouched. A target that can
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
   * The file gets the response's `Last-Modified` as its modification time (as `curl -R`).
   * With `{ resume: true }` the download continues the bytes already at `file` instead (see
   * {@link ToFileOptions.resume}); a failure then keeps what was written.
   *
   * @example
   * await http.get((c) => { c.request.uri.path = '/big.iso'; Download.toFile(c, './big.iso', { resume: true }); });
   *
   * @throws {ConfigError} at once, before anything is sent, when `file` is not a non-empty
   *   string path (a `file:` URL is refused: pass `fileURLToPath(url)`), contains a NUL byte, is
   *   or names a directory, or its folder does not exist.
   */
  toFile(config: HttpConfig, file: string, options?: string | ToFileOptions): void {
    checkDownloadTarget(file, 'Download.toFile()');
    const { contentType, resume } = toFileOptions(options);
    if (resume === true) resumeInto(config, file, contentType);
    else download(config, contentType, (body, fromServer) => replaceFile(body, file, lastModified(fromServer)));
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
