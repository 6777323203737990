import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { probe, sleep } from './http-probe.js';

/** One line of the access log, written in the format `%h "%r" %>s %u` by both servers. */
export interface LogEntry {
  readonly method: string;
  /** The request-target as sent: path and query. */
  readonly target: string;
  readonly status: number;
  /** The user the server authenticated, or `undefined` (`-`). Apache names the user of a rejected Digest/Basic try too; lighttpd does not. */
  readonly user: string | undefined;
  readonly line: string;
}

const LINE = /^\S+ "(\S+) (\S+)[^"]*" (\d{3}) (\S+)$/;

export function parseLogLine(line: string): LogEntry | undefined {
  const match = LINE.exec(line);
  if (match === null) return undefined;
  const [, method = '', target = '', status = '', user = '-'] = match;
  return { method, target, status: Number(status), user: user === '-' ? undefined : user, line };
}

/** A tag that marks the requests of one test in the access log: sent as the query parameter `t`. */
export function newTag(): string {
  return randomBytes(6).toString('hex');
}

/** Whether a request-target carries the query parameter `t=<tag>`. */
export function hasTag(target: string, tag: string): boolean {
  return new URLSearchParams(target.includes('?') ? target.slice(target.indexOf('?') + 1) : '').get('t') === tag;
}

/** How long the tagged lines must stay unchanged before {@link AccessLog.entries} trusts them. */
const QUIET_MS = 100;

export interface EntriesOptions {
  /** Keep waiting (up to `timeoutMs`) until at least this many tagged lines are there. */
  readonly atLeast?: number;
  readonly timeoutMs?: number;
}

/**
 * The entries of `log` tagged `tag`, in order: after `log.settle()`, once there are at least
 * `atLeast` and their count held still for a moment (or the timeout passed).
 */
export async function taggedOnceQuiet<E extends { readonly target: string }>(
  log: { read(): Promise<E[]>; settle(timeoutMs: number): Promise<void> },
  tag: string,
  { atLeast = 0, timeoutMs = 10_000 }: EntriesOptions = {},
): Promise<E[]> {
  const deadline = Date.now() + timeoutMs;
  await log.settle(timeoutMs);
  let previous = -1;
  for (;;) {
    const found = (await log.read()).filter((entry) => hasTag(entry.target, tag));
    if ((found.length === previous && found.length >= atLeast) || Date.now() > deadline) return found;
    previous = found.length;
    await sleep(QUIET_MS);
  }
}

/**
 * A server's access log. Requests of a test carry `?t=<tag>`; {@link AccessLog.entries} waits
 * until everything the server has answered so far is written before it reads them. Both servers
 * log a request after answering it (Apache once its CGI has been reaped, which can come after
 * the next request's line), and lighttpd writes a file log only every few seconds (the config
 * pipes it through cat, which writes at once). So: request the static marker file with a fresh
 * `?mark=`, poll until that line shows up, then until the tagged lines are at least `atLeast`
 * and have not changed for a moment.
 */
export class AccessLog {
  constructor(
    /** The log file, for a look when a test fails. */
    readonly path: string,
    private readonly markerUrl: string,
  ) {}

  /** Every line written so far. */
  async read(): Promise<LogEntry[]> {
    return (await this.#text())
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => parseLogLine(line) ?? { method: '?', target: '?', status: 0, user: undefined, line });
  }

  /** The entries of requests tagged `tag`, in order, once the log has caught up (see the class). */
  entries(tag: string, options?: EntriesOptions): Promise<LogEntry[]> {
    return taggedOnceQuiet(this, tag, options);
  }

  /** How many requests tagged `tag` the server answered with 401 (waits for the log as {@link AccessLog.entries} does). */
  async count401(tag: string, options?: EntriesOptions): Promise<number> {
    return (await this.entries(tag, options)).filter((entry) => entry.status === 401).length;
  }

  /** Sends a marker request and polls until its line is in the log. */
  async settle(timeoutMs = 10_000): Promise<void> {
    const mark = newTag();
    const status = await probe(`${this.markerUrl}?mark=${mark}`);
    if (status !== 200) throw new Error(`the marker request answered ${status}`);
    const deadline = Date.now() + timeoutMs;
    while (!(await this.#text()).includes(`mark=${mark} `)) {
      if (Date.now() > deadline) throw new Error(`the marker request is not in ${this.path} after ${timeoutMs} ms`);
      await sleep(20);
    }
  }

  async #text(): Promise<string> {
    return readFile(this.path, 'utf8').catch((error: unknown) => {
      if ((error as { code?: unknown }).code === 'ENOENT') return '';
      throw error;
    });
  }
}
