import { constants as fsConstants, createReadStream, openAsBlob } from 'node:fs';
import { access, readFile, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { BodySource, CliRequest } from './args.js';
import { errorCode, UsageError } from './failure.js';
import { bodyWaiting, readAll, type Stdin } from './stdin.js';

/** The body of `--json` or `--data`, as it is sent. */
export interface CliBody {
  /** `true` for `--json` (checked to be JSON), `false` for `--data`. */
  readonly json: boolean;
  /**
   * The bytes; for `--data @file` the file as a Blob (streamed as it is sent, with its
   * `Content-Length`; a FIFO or device as a stream), for `--data @-` stdin as a stream.
   */
  readonly content: Buffer | Blob | Readable;
}

/**
 * Reads the body the command line names (`--json`/`--data` text, `@file` or `@-`) and checks
 * that a `--json` body is JSON. A body waiting on stdin that no `@-` reads is refused rather
 * than left behind: the request would go out without it.
 *
 * @throws {UsageError} for a file that cannot be read, JSON that is not, or an unread stdin.
 * @example
 * const body = await loadBody(request, processStdin()); // → { json: true, bytes: <Buffer 7b ...> }
 */
export async function loadBody(request: CliRequest, stdin: Stdin, signal?: AbortSignal): Promise<CliBody | undefined> {
  const json = request.json !== undefined;
  const source = request.json ?? request.data;
  // --json is checked before sending, so it is read whole; --data goes out as it is read
  const body = source && { json, content: json ? await read(source, '--json', stdin, signal) : await streamed(source, stdin) };
  if (body?.json) checkJson(body.content as Buffer);
  if (source?.from !== 'stdin' && (await bodyWaiting(stdin))) {
    throw new UsageError('stdin has data that no option reads: send it with --data @- or --json @-, or give hb < /dev/null');
  }
  return body;
}

async function read(source: BodySource, option: string, stdin: Stdin, signal: AbortSignal | undefined): Promise<Buffer> {
  if (source.from === 'text') return Buffer.from(source.text, 'utf8');
  if (source.from === 'stdin') return readAll(stdin.stream(), signal);
  return readFile(source.path).catch((error: unknown) => {
    throw new UsageError(`${option}: cannot read '${source.path}' (${errorCode(error)})`);
  });
}

/** `--data`: its text, `@file` streamed from the file (never read whole: a 200 MiB upload stays out of memory), `@-` from stdin. */
async function streamed(source: BodySource, stdin: Stdin): Promise<Buffer | Blob | Readable> {
  if (source.from === 'text') return Buffer.from(source.text, 'utf8');
  if (source.from === 'stdin') return stdin.stream();
  const cannotRead = (error: unknown): never => {
    throw new UsageError(`--data: cannot read '${source.path}' (${errorCode(error)})`);
  };
  const info = await stat(source.path).catch(cannotRead);
  if (info.isDirectory()) throw new UsageError(`--data: '${source.path}' is a directory`);
  await access(source.path, fsConstants.R_OK).catch(cannotRead);
  // a regular file has a size, so a Content-Length as curl sends; a FIFO or a device is streamed chunked
  return info.isFile() ? openAsBlob(source.path) : createReadStream(source.path);
}

function checkJson(bytes: Buffer): void {
  try {
    JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new UsageError(`--json: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}
