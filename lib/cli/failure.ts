import { types } from 'node:util';

/**
 * The exit codes of `hb`: 0 for a 2xx/3xx answer, 2 for bad command-line input or a
 * `ConfigError` of the library (nothing was sent), 4 and 5 for a 4xx and a 5xx answer, 1 for any other failure (network, TLS, timeout,
 * a library error), 130 when interrupted (Ctrl-C).
 */
export const EXIT = Object.freeze({ OK: 0, FAILURE: 1, USAGE: 2, CLIENT_ERROR: 4, SERVER_ERROR: 5, INTERRUPTED: 130 });

/** Bad command-line input: reported as one line, exit code 2, before anything is sent. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** True for the error of writing to a pipe whose reader has gone. */
export function isBrokenPipe(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'EPIPE';
}

/** The `code` of a file system error (`ENOENT`, `EACCES`, ...) for a message, or `error`. */
export function errorCode(error: unknown): string {
  return (error as { code?: string } | null)?.code ?? 'error';
}

/** The exit code for a response with `status`: 0 below 400, 4 for 4xx, 5 for 5xx and above. */
export function exitCodeForStatus(status: number): number {
  if (status < 400) return EXIT.OK;
  return status < 500 ? EXIT.CLIENT_ERROR : EXIT.SERVER_ERROR;
}

/**
 * Makes `text` safe to print as one terminal line: control characters (escape sequences from a
 * server's reason phrase, line breaks from a multi-line message) become spaces, runs of spaces
 * collapse, and every secret in `secrets` is replaced by `***`.
 */
export function oneLine(text: string, secrets: readonly string[] = []): string {
  let line = text;
  for (const secret of secrets) {
    // very short secrets would mangle ordinary words; the library never puts passwords in messages anyway
    if (secret.length >= 4) line = line.split(secret).join('***');
  }
  return (
    line
      // eslint-disable-next-line no-control-regex -- control characters are what is taken out
      .replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ')
      .replace(/ {2,}/g, ' ')
      .trim()
  );
}

/**
 * The one-line description of a failure, `Name: message`, without a stack trace: for errors of
 * the library (`ConfigError: ...`, `NetworkError: ...`) and Node's own (`Error: EPIPE ...`).
 * Recognised by shape, not `instanceof`, so errors from another realm read the same.
 */
export function describeError(error: unknown): string {
  if (types.isNativeError(error) || (typeof error === 'object' && error !== null && 'message' in error)) {
    const { name, message } = error as { name?: unknown; message?: unknown };
    const label = typeof name === 'string' && name !== '' ? name : 'Error';
    return typeof message === 'string' && message !== '' ? `${label}: ${message}` : label;
  }
  return `Error: ${String(error)}`;
}
