import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type { HttpConfig } from './config/http-config.js';
import { parseMediaType } from './content/media-type.js';
import { defaultParser, READS_EMPTY_BODIES, type Parser } from './content/parsers.js';
import { ConfigError } from './errors.js';

type Sink = (body: Readable) => Promise<unknown>;

/**
 * Registers a parser that streams 2xx bodies into `sink`, for `contentType` or for every type.
 * Other statuses are parsed by the built-in parser, so the failure handlers see the error body.
 */
function download(config: HttpConfig, contentType: string | undefined, sink: Sink): void {
  const type = contentType === undefined ? '*/*' : parseMediaType(contentType).type;
  if (!/^[^\s/]+\/[^\s/]+$/.test(type)) throw new ConfigError(`Download: '${contentType}' is not a 'type/subtype' content type`);
  const parser: Parser = (fromServer, request) => {
    if (fromServer.statusCode < 200 || fromServer.statusCode > 299) return defaultParser(fromServer.contentType)(fromServer, request);
    return sink(fromServer.stream());
  };
  // an empty 2xx (a 204 too) is downloaded as an empty file, as curl -o does
  config.response.parser(type, Object.assign(parser, { [READS_EMPTY_BODIES]: true }));
}

/** Streams `body` into a new file at `file`; on any error the partial file is removed. */
async function writeFile(body: Readable, file: string, flags: string): Promise<string> {
  const out = createWriteStream(file, { flags, mode: 0o600 });
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
 * The download module (`httpbuilder-ts/download`): streams a response body to a file, a stream
 * or a temporary file, never holding it in memory. Call it inside a request block; the request
 * resolves, once every byte is written, to the path or the stream. Only 2xx responses are
 * downloaded (others go to the failure handlers as usual); with a `contentType`, only responses
 * of that type are (others are parsed as usual and nothing is written). A failed download
 * leaves no partial file.
 *
 * @example
 * import { Download } from 'httpbuilder-ts/download';
 * const path = await http.get((c) => { c.request.uri.path = '/report.csv'; Download.toFile(c, './report.csv'); });
 */
export const Download = Object.freeze({
  /**
   * Writes the body to `file` (created or truncated) and resolves to `file`. The file is
   * removed if the download fails.
   */
  toFile(config: HttpConfig, file: string, contentType?: string): void {
    if (typeof file !== 'string' || file === '') throw new ConfigError('Download.toFile(): the file must be a non-empty path');
    download(config, contentType, (body) => writeFile(body, file, 'w'));
  },

  /**
   * Writes the body to `stream` and resolves to it. The stream is neither ended nor destroyed,
   * even when the download fails: the caller owns it.
   */
  toStream<S extends Writable>(config: HttpConfig, stream: S, contentType?: string): void {
    if (typeof stream?.write !== 'function') throw new ConfigError('Download.toStream(): the target must be a Writable stream');
    download(config, contentType, async (body) => {
      await pipeline(body, stream, { end: false });
      if (stream.writableNeedDrain) await once(stream, 'drain');
      return stream;
    });
  },

  /** Writes the body to a new file in the system's temporary directory and resolves to its path (the caller removes it). */
  toTempFile(config: HttpConfig, contentType?: string): void {
    download(config, contentType, (body) => writeFile(body, join(tmpdir(), `httpbuilder-${randomUUID()}.download`), 'wx'));
  },
});
