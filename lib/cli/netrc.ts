import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { errorCode, UsageError } from './failure.js';

/** `--netrc` (the file `~/.netrc`) or `--netrc-file <path>`: where credentials for the URL's host come from. */
export interface CliNetrc {
  /** The file named by `--netrc-file`; `undefined` for `$HOME/.netrc`. */
  readonly file: string | undefined;
}

/** The `.netrc` options, spread into args.ts's OPTIONS. */
export const NETRC_OPTIONS = {
  netrc: { type: 'boolean', multiple: true },
  'netrc-file': { type: 'string', multiple: true },
} as const;

/** What parseArgs gave for {@link NETRC_OPTIONS}. */
export interface NetrcValues {
  readonly netrc?: boolean[];
  readonly 'netrc-file'?: string[];
}

/** What {@link withNetrc} reads of the request (args.ts's CliRequest, without importing it: args.ts imports this file). */
export interface NetrcRequest {
  readonly netrc: CliNetrc | undefined;
  readonly auth: object | undefined;
  readonly url: URL;
}

/** One `machine` (or `default`, with `machine` undefined) entry of a `.netrc` file. */
export interface NetrcEntry {
  readonly machine: string | undefined;
  readonly login: string | undefined;
  readonly password: string | undefined;
}

/**
 * Reads `--netrc` and `--netrc-file` (either one; as curl, a `.netrc` is read only when asked).
 *
 * @throws {UsageError} naming the flag.
 * @example
 * netrcFlag({ 'netrc-file': ['./my.netrc'] }); // { file: './my.netrc' }
 */
export function netrcFlag(values: NetrcValues): CliNetrc | undefined {
  const file = values['netrc-file'];
  if (file !== undefined && file.length > 1) throw new UsageError('--netrc-file given more than once');
  if (file !== undefined && values.netrc !== undefined) throw new UsageError('--netrc and --netrc-file cannot be combined');
  if (file?.[0] === '') throw new UsageError('--netrc-file needs a file name');
  if (file !== undefined) return { file: file[0] };
  return values.netrc === undefined ? undefined : { file: undefined };
}

/**
 * Reads a `.netrc` as curl does: whitespace-separated `machine <name>`, `default`, `login`,
 * `password`, `account` (ignored) and `macdef` (skipped up to a blank line); a token may be
 * double-quoted with `\"`, `\\`, `\n`, `\r`, `\t` escapes.
 *
 * @example
 * parseNetrc('machine api.test login ada password s3cret');
 * // [{ machine: 'api.test', login: 'ada', password: 's3cret' }]
 */
export function parseNetrc(text: string): NetrcEntry[] {
  const entries: Array<{ machine: string | undefined; login?: string; password?: string }> = [];
  const tokens = tokenize(text);
  for (let i = 0; i < tokens.length; i++) {
    const value = tokens[i];
    const current = entries.at(-1);
    if (value === 'machine') entries.push({ machine: tokens[++i]?.toLowerCase() ?? '' });
    else if (value === 'default') entries.push({ machine: undefined });
    else if (value === 'login' && current !== undefined) current.login = tokens[++i];
    else if (value === 'password' && current !== undefined) current.password = tokens[++i];
    else if (value === 'account') i++;
  }
  return entries.map(({ machine, login, password }) => ({ machine, login, password }));
}

/**
 * The request with Basic credentials from its `.netrc` when it asked for them (`--netrc`,
 * `--netrc-file`) and has none of its own (`--basic`, `--digest`, `--bearer` or a user in the URL
 * win, as `-u` wins in curl). A missing file gives none, as curl; `env.HOME` is the home folder.
 *
 * @throws {UsageError} when the file exists but cannot be read.
 */
export async function withNetrc<R extends NetrcRequest>(request: R, env: Readonly<Record<string, string | undefined>>): Promise<R> {
  if (request.netrc === undefined || request.auth !== undefined || request.url.username !== '') return request;
  const option = request.netrc.file === undefined ? '--netrc' : '--netrc-file';
  const file = request.netrc.file ?? join(env.HOME ?? homedir(), '.netrc');
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    if (errorCode(error) === 'ENOENT') return '';
    throw new UsageError(`${option}: cannot read '${file}' (${errorCode(error)})`);
  });
  const entries = parseNetrc(text);
  const host = request.url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  const entry = entries.find((e) => e.machine === host) ?? entries.find((e) => e.machine === undefined);
  if (entry?.login === undefined) return request;
  // curl sends a login without a password with an empty one
  return Object.assign({}, request, { auth: { scheme: 'basic' as const, user: entry.login, password: entry.password ?? '' } });
}

const ESCAPES: Readonly<Record<string, string>> = { n: '\n', r: '\r', t: '\t' };

/** The file's tokens, without comment lines and `macdef` bodies (up to the next blank line). */
function tokenize(text: string): string[] {
  const tokens: string[] = [];
  let inMacro = false;
  for (const line of text.split(/\r?\n/)) {
    if (inMacro || line.trimStart().startsWith('#')) {
      if (line.trim() === '') inMacro = false;
      continue;
    }
    for (const match of line.matchAll(/"((?:[^"\\]|\\.)*)"?|(\S+)/g)) {
      if (match[2] === 'macdef') {
        inMacro = true;
        break;
      }
      tokens.push(match[2] ?? match[1].replace(/\\(.)/g, (_, char: string) => ESCAPES[char] ?? char));
    }
  }
  return tokens;
}
