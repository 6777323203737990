/**
 * What a transfer contender is: a client that can download N bytes of the server's pattern to a
 * file and upload a file from a path as `multipart/form-data`, both streamed. Every contender
 * does the same work: the same request, the body to or from disk, nothing kept.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { libraryLikeHeaders } from '../contender.js';

/** The server's download route: `GET /bytes?n=N` streams N pattern bytes (`pattern.ts`). */
export const DOWNLOAD_PATH = '/bytes';
/** The server's upload route: counts the file part and answers `{ bytes, fileName, total }` (`upload-counter.ts`). */
export const UPLOAD_PATH = '/upload';
/** Field name, file name and type of the one part every upload sends. */
export const UPLOAD_PART = { name: 'file', fileName: 'big.bin', contentType: 'application/octet-stream' } as const;

/** One open client (its own connection pool). */
export interface TransferSession {
  /** `GET /bytes?n=size`, the body streamed into `file` (created or truncated); resolves once it is all written. */
  download(size: number, file: string): Promise<void>;
  /** `POST /upload` of `source` (a file of `size` bytes) as one multipart file part; resolves to the server's JSON answer. */
  upload(source: string, size: number): Promise<unknown>;
  /** Releases sockets so the process can exit. */
  close(): Promise<void>;
}

/** A client under test in the transfer scenarios. */
export interface TransferContender {
  readonly name: string;
  /** What it does, for the report. */
  readonly description: string;
  /** The reference every contender is compared against (exactly one: raw node:http). */
  readonly baseline?: boolean;
  /** Name of the raw client this contender runs on, compared round by round. */
  readonly comparedWith?: string;
  /** Opens a client on `origin` (`http://127.0.0.1:PORT`); may load the client's package. */
  open(origin: string): Promise<TransferSession>;
}

/** The request headers raw clients send (those the library sends by default). */
export const RAW_HEADERS = (client: string): Record<string, string> => libraryLikeHeaders(client);

/** A multipart body framed by hand, for the raw clients: header block, the file streamed, closing delimiter. */
export interface HandBuiltMultipart {
  readonly contentType: string;
  /** Exact body length (`Content-Length`). */
  readonly length: number;
  /** The body, read once: the file comes from `fs.createReadStream`, never whole in memory. */
  readonly body: AsyncIterable<Buffer>;
}

/** Frames `source` (`size` bytes) as the one file part of a `multipart/form-data` body. */
export function handBuiltMultipart(source: string, size: number): HandBuiltMultipart {
  const boundary = `raw-${randomBytes(16).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${UPLOAD_PART.name}"; filename="${UPLOAD_PART.fileName}"\r\n` +
      `Content-Type: ${UPLOAD_PART.contentType}\r\n\r\n`,
  );
  const closing = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* body(): AsyncGenerator<Buffer> {
    yield head;
    yield* createReadStream(source) as AsyncIterable<Buffer>;
    yield closing;
  }
  return { contentType: `multipart/form-data; boundary=${boundary}`, length: head.byteLength + size + closing.byteLength, body: body() };
}

/** The download URL for `size` bytes. */
export function downloadUrl(origin: string, size: number): string {
  return `${origin}${DOWNLOAD_PATH}?n=${size}`;
}
