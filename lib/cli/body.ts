import { readFile } from 'node:fs/promises';
import type { BodySource, CliRequest } from './args.js';
import { errorCode, UsageError } from './failure.js';
import { bodyWaiting, readAll, type Stdin } from './stdin.js';

/** The body of `--json` or `--data`, as it is sent. */
export interface CliBody {
  /** `true` for `--json` (checked to be JSON), `false` for `--data`. */
  readonly json: boolean;
  readonly bytes: Buffer;
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
  const body = source && { json, bytes: await read(source, json ? '--json' : '--data', stdin, signal) };
  if (body?.json) checkJson(body.bytes);
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

function checkJson(bytes: Buffer): void {
  try {
    JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new UsageError(`--json: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}
