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
   * `Content-Length`; a FIFO or a device as a stream).
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
  // --json is checked before sending, and stdin sent with its Content-Length (as curl -d @-), so both are read whole;
  // --data @file is streamed, except for --digest, whose challenge needs the body sent twice (a stream goes once)
  const whole = json || source?.from !== 'file' || request.auth?.scheme === 'digest';
  const body = source && { json, content: whole ? await read(source, json ? '--json' : '--data', stdin, signal) : await streamed(source.path) };
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

/** `--data @file`, streamed from the file (never read whole: a 200 MiB upload stays out of memory). */
async function streamed(path: string): Promise<Blob | Readable> {
  const cannotRead = (error: unknown): never => {
    throw new UsageError(`--data: cannot read '${path}' (${errorCode(error)})`);
  };
  const info = await stat(path).catch(cannotRead);
  if (info.isDirectory()) throw new UsageError(`--data: '${path}' is a directory`);
  await access(path, fsConstants.R_OK).catch(cannotRead);
  // a regular file has a size, so a Content-Length as curl sends; a FIFO or a device is streamed chunked
  return info.isFile() ? openAsBlob(path) : createReadStream(path);
}

function checkJson(bytes: Buffer): void {
  try {
    JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new UsageError(`--json: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}
