import { fstatSync } from 'node:fs';
import { addAbortSignal, type Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';

/**
 * What `hb` has on its standard input, from `fstat` (not `isTTY`, which cannot tell a pipe from
 * /dev/null): `pipe` (a FIFO or a socket: something may be writing), `file` (a regular file
 * with bytes in it), or `none` (a terminal, /dev/null, an empty file, nothing open).
 */
export type StdinKind = 'pipe' | 'file' | 'none';

/** The standard input `hb` reads `@-` from, and looks at for a body no option reads. */
export interface Stdin {
  readonly kind: StdinKind;
  /** The stream; only touched when it is read or looked at. */
  stream(): Readable;
}

/** How long a pipe may stay silent before `hb` takes it for one nobody writes to (GitHub Actions keeps such a pipe on every step's stdin). */
export const PIPE_GRACE_MS = 100;

/**
 * The process's standard input.
 *
 * @example
 * const stdin = processStdin();
 * if (stdin.kind === 'file') console.error('a file is redirected in');
 */
export function processStdin(): Stdin {
  return { kind: stdinKind(0), stream: () => process.stdin };
}

/** The {@link StdinKind} of file descriptor `fd`. */
export function stdinKind(fd: number): StdinKind {
  let info;
  try {
    info = fstatSync(fd);
  } catch {
    return 'none'; // closed
  }
  if (info.isFIFO() || info.isSocket()) return 'pipe';
  return info.isFile() && info.size > 0 ? 'file' : 'none';
}

/**
 * Whether a body is waiting on stdin that no option reads: a non-empty file, or a pipe with
 * bytes in it within {@link PIPE_GRACE_MS} (an empty pipe, or one nobody writes to, has none).
 * Whatever was looked at is not read again: the caller refuses to go on when this is true.
 *
 * @example
 * if (await bodyWaiting(processStdin())) throw new UsageError('stdin has a body: use --data @- or --json @-');
 */
export async function bodyWaiting(stdin: Stdin, graceMs = PIPE_GRACE_MS): Promise<boolean> {
  if (stdin.kind !== 'pipe') return stdin.kind === 'file';
  const stream = stdin.stream();
  return new Promise<boolean>((resolve) => {
    const settle = (waiting: boolean) => {
      clearTimeout(timer);
      stream.off('readable', onReadable).off('error', onError);
      stream.destroy(); // nothing reads it: it must not keep the process alive
      resolve(waiting);
    };
    // 'readable' comes with the first bytes, or at the end of an empty pipe
    const onReadable = () => settle(stream.readableLength > 0);
    const onError = () => settle(false);
    const timer = setTimeout(settle, graceMs, false);
    stream.on('readable', onReadable).on('error', onError);
  });
}

/**
 * All of `stream` (`--json @-`, `--data @-`), or an `AbortError` when `signal` fires first.
 *
 * @example
 * const body = await readAll(process.stdin);
 */
export function readAll(stream: Readable, signal?: AbortSignal): Promise<Buffer> {
  // Ctrl-C while a terminal waits for input stops the reading, as it stops a request
  return buffer(signal === undefined ? stream : addAbortSignal(signal, stream));
}
