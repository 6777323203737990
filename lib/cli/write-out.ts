import type { Timings } from '../core/timings.js';
import { UsageError } from './failure.js';

/** What `-w` reads of one run: the response (none after a network failure), its URL and its attempt's timings. */
export interface WriteOutFacts {
  /** `undefined` when no response came (curl prints `000`). */
  readonly statusCode: number | undefined;
  readonly httpVersion: string | undefined;
  /** the URL that answered, after redirects (credentials hidden) */
  readonly url: string;
  readonly redirects: number;
  /** body bytes as received */
  readonly sizeDownload: number;
  readonly timings: Timings | undefined;
}

/** Seconds as curl prints them: six decimals. */
const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(6);
/** Seconds from the attempt's start to `instant` (0 when it did not happen, as curl's reused connection). */
const since = (timings: Timings | undefined, instant: keyof Omit<Timings, 'phases'>) =>
  seconds(timings?.[instant] === undefined ? undefined : timings[instant] - timings.start);

/** curl's `-w` variables that `hb` knows, each with how it reads the facts. */
const VARIABLES: Readonly<Record<string, (facts: WriteOutFacts) => string>> = {
  http_code: (f) => String(f.statusCode ?? 0).padStart(3, '0'),
  url_effective: (f) => f.url,
  num_redirects: (f) => String(f.redirects),
  size_download: (f) => String(f.sizeDownload),
  time_namelookup: (f) => since(f.timings, 'lookup'),
  time_connect: (f) => since(f.timings, 'connect'),
  time_appconnect: (f) => since(f.timings, 'secureConnect'),
  time_starttransfer: (f) => since(f.timings, 'response'),
  time_total: (f) => seconds(f.timings?.phases.total),
  http_version: (f) => (f.httpVersion === '2.0' ? '2' : (f.httpVersion ?? '0')),
};

const TOKENS = /%\{([^}]*)\}|%%|\\[nrt\\]/g;
const ESCAPES: Readonly<Record<string, string>> = { '\\n': '\n', '\\r': '\r', '\\t': '\t', '\\\\': '\\' };

/**
 * Checks a `-w` format before anything is sent: every `%{name}` must be one hb knows.
 *
 * @throws {UsageError} naming the unknown variable and the known ones.
 */
export function checkWriteOut(format: string): string {
  for (const [, name] of format.matchAll(TOKENS)) {
    if (name !== undefined && !(name in VARIABLES)) {
      throw new UsageError(`-w: unknown variable %{${name}} (known: ${Object.keys(VARIABLES).join(', ')})`);
    }
  }
  return format;
}

/**
 * The `-w` format with its variables filled in, as curl writes it: times in seconds from the
 * start of the last attempt (a redirect's hop is one), `\n`, `\r`, `\t` and `%%` unescaped.
 *
 * @example
 * formatWriteOut('%{http_code} %{time_total}\n', facts); // '200 0.012345\n'
 */
export function formatWriteOut(format: string, facts: WriteOutFacts): string {
  return format.replace(TOKENS, (token, name: string | undefined) => (name !== undefined ? VARIABLES[name](facts) : token === '%%' ? '%' : ESCAPES[token]));
}
