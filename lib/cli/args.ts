import { checkWriteOut } from './write-out.js';
import { parseArgs } from 'node:util';
import type { BackendChoice } from '../config/client-config.js';
import { UsageError } from './failure.js';
import { ConfigError } from '../core/errors.js';
import { parseNoProxy } from '../proxy/no-proxy.js';
import { parseProxyUrl } from '../proxy/proxy-url.js';
import { redactUserInfo } from '../core/redact.js';
import { MAX_TIMER_MS } from '../config/execution-options.js';
import { checkToken } from '../config/auth-config.js';
import { tlsFlags, type CliTlsFlags } from './tls-args.js';
import { didYouMean } from './suggest.js';
import { ITEM_OPTIONS, mergeItems, readPrint, readTarget, takeFormSwitch, type CliPrint } from './args-items.js';
import { TRANSPORT_OPTIONS, transportFlags, type CliTransport } from './transport-args.js';
import { PAGE_OPTIONS, pageShape, type CliPageShape } from './page-args.js';
import { NETRC_OPTIONS, netrcFlag, type CliNetrc } from './netrc.js';
import { DOWNLOAD_OPTIONS, downloadFlags, type CliDownload } from './args-downloads.js';
import { COMPRESS_OPTIONS, compressFlags, type CliCompressed } from './compress-args.js';

/** The verbs `hb` knows, lower case (the command line accepts any case). */
export const VERBS = ['get', 'head', 'post', 'put', 'delete', 'patch', 'options'] as const;

/** One of {@link VERBS}. */
export type CliVerb = (typeof VERBS)[number];

/** The backend names `--backend` accepts. */
export const BACKENDS = ['native', 'undici', 'axios', 'got', 'fetch'] as const satisfies readonly BackendChoice[];

/** A `name=value` pair from `-q` or `--form`. */
export type Pair = readonly [name: string, value: string];

/** Where a `--json` or `--data` body comes from: the text itself, a file (`@path`) or stdin (`@-`). */
export type BodySource = { readonly from: 'text'; readonly text: string } | { readonly from: 'file'; readonly path: string } | { readonly from: 'stdin' };

/** The request the command line describes; every field has been checked (a `--json` body once it is read). */
export interface CliRequest extends CliCompressed {
  /** The method, lower case: one of {@link VERBS}, or any token given with `-X` (`propfind`). */
  readonly verb: CliVerb | (string & {});
  /** Absolute http(s) URL; `http://` is assumed when the command line gave no scheme. */
  readonly url: URL;
  /** `-H 'Name: value'`, in order. */
  readonly headers: readonly Pair[];
  /** `-q name=value`, in order. */
  readonly query: readonly Pair[];
  /** `--json '<text>'`, `@file` or `@-`: sent as it is (checked to be JSON once read). */
  readonly json: BodySource | undefined;
  /** `--data '<text>'`, `@file` or `@-`: sent as it is. */
  readonly data: BodySource | undefined;
  /** `--form name=value`, in order. */
  readonly form: readonly Pair[];
  /** `--file name=@path`, in order. */
  readonly files: ReadonlyArray<{ readonly name: string; readonly path: string }>;
  /** `--basic user:pass`, `--digest user:pass` or `--bearer token`. */
  readonly auth:
    | { readonly scheme: 'basic' | 'digest'; readonly user: string; readonly password: string }
    | { readonly scheme: 'bearer'; readonly token: string }
    | undefined;
  readonly backend: (typeof BACKENDS)[number] | undefined;
  /** `-k`, `--insecure`: certificate checks off (pins are still checked, as curl does). */
  readonly insecure: boolean;
  /** `--cacert`, `--cert`, `--cert-type`, `--key`, `--pass`, `--pinnedpubkey`, as curl reads them. */
  readonly tls: CliTlsFlags;
  /** `--http2`: offer HTTP/2 by ALPN on https (`client.http2`); http:// stays HTTP/1.1. */
  readonly http2: boolean;
  /** `--public-only`: connect only to public addresses (`client.publicOnly`). */
  readonly publicOnly: boolean;
  /** `--proxy <url>`: every request through this proxy (else the environment's, as curl). */
  readonly proxy: string | undefined;
  /** `--noproxy <list>`: hosts that go direct (comma-separated, curl's rules), instead of `no_proxy`. */
  readonly noProxy: readonly string[] | undefined;
  /** `-o <file>` or `-O` (the URL's file name): download the body to this file (`-o -`: stdout, so `undefined`). */
  readonly output: string | undefined;
  /** `-J` (name from Content-Disposition, with `-O`) and `-C -` (resume). */
  readonly download: CliDownload;
  /** `--paginate` (GET): every item of every page (`Link: rel="next"`), one JSON line each. */
  readonly paginate: boolean;
  /** `--items`, `--next`, `--cursor-param`: where `--paginate` finds items and the next cursor. */
  readonly pages: CliPageShape;
  /** `--unix-socket`, `--resolve`, `-4`/`-6`, `--no-follow`, `--max-redirs`, `--connect-timeout`, as curl reads them. */
  readonly transport: CliTransport;
  /** `--netrc` / `--netrc-file <path>`: Basic credentials for the URL's host from a `.netrc` file. */
  readonly netrc: CliNetrc | undefined;
  /** `--stream`: the body's lines, or its server-sent events as JSON lines, printed as they arrive. */
  readonly stream: boolean;
  /** `-i`: print the status line and the response headers before the body. */
  readonly include: boolean;
  /** `-v`: each exchange's request and response head on stderr. */
  readonly verbose: boolean;
  /** `--timeout <ms>`: the limit for the whole call; `undefined` (or `--timeout 0`) for none. */
  readonly timeout: number | undefined;
  /** `--retry <n>`: how many times to retry. */
  readonly retry: number | undefined;
  /** `--session <file>`: the cookie jar kept across runs. */
  readonly session: string | undefined;
  /** `--cache <dir>`: a file cache kept across runs (`client.cache` with a store in that folder). */
  readonly cache: string | undefined;
  /** `-w <format>` (`--write-out`): curl's variables (`%{http_code}`, `%{time_total}`, ...) written to stdout after the body. */
  readonly writeOut: string | undefined;
  /** `Name:` request items: headers hb would send that are left out (httpie's unsetting). */
  readonly unsetHeaders: readonly string[];
  /** `--print`, `--headers`, `-b`, `--quiet`, `--offline`, `--curl`. */
  readonly print: CliPrint;
}

/** What the command line asks for. */
export type Command =
  { readonly kind: 'help'; readonly topic?: string } | { readonly kind: 'version' } | { readonly kind: 'request'; readonly request: CliRequest };

// Every option is declared `multiple` so that a repeated single-valued one is an error, not silently last-wins.
const OPTIONS = {
  header: { type: 'string', short: 'H', multiple: true },
  query: { type: 'string', short: 'q', multiple: true },
  json: { type: 'string', multiple: true },
  data: { type: 'string', multiple: true },
  form: { type: 'string', multiple: true },
  file: { type: 'string', multiple: true },
  basic: { type: 'string', multiple: true },
  digest: { type: 'string', multiple: true },
  bearer: { type: 'string', multiple: true },
  backend: { type: 'string', multiple: true },
  insecure: { type: 'boolean', short: 'k', multiple: true },
  cacert: { type: 'string', multiple: true },
  cert: { type: 'string', multiple: true },
  'cert-type': { type: 'string', multiple: true },
  key: { type: 'string', multiple: true },
  pass: { type: 'string', multiple: true },
  pinnedpubkey: { type: 'string', multiple: true },
  http2: { type: 'boolean', multiple: true },
  'public-only': { type: 'boolean', multiple: true },
  proxy: { type: 'string', multiple: true },
  noproxy: { type: 'string', multiple: true },
  output: { type: 'string', short: 'o', multiple: true },
  paginate: { type: 'boolean', multiple: true },
  stream: { type: 'boolean', multiple: true },
  include: { type: 'boolean', short: 'i', multiple: true },
  verbose: { type: 'boolean', short: 'v', multiple: true },
  timeout: { type: 'string', multiple: true },
  retry: { type: 'string', multiple: true },
  session: { type: 'string', multiple: true },
  cache: { type: 'string', multiple: true },
  'write-out': { type: 'string', short: 'w', multiple: true },
  ...DOWNLOAD_OPTIONS,
  help: { type: 'boolean', short: 'h', multiple: true },
  version: { type: 'boolean', multiple: true },
  ...ITEM_OPTIONS,
  ...TRANSPORT_OPTIONS,
  ...PAGE_OPTIONS,
  ...NETRC_OPTIONS,
  ...COMPRESS_OPTIONS,
} as const;

const SHORTS = Object.values(OPTIONS).flatMap((option) => ('short' in option ? [option.short] : []));

// RFC 9110 token: what a header or form name may be made of
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Reads `hb`'s arguments (without `node` and the script). Options may come before, between or
 * after the verb and the URL; `--` ends the options.
 *
 * @throws {UsageError} for anything malformed; its message never repeats a password.
 * @example
 * parseCommandLine(['get', 'localhost:8080/users', '-q', 'page=2']);
 * // → { kind: 'request', request: { verb: 'get', url: URL('http://localhost:8080/users'), query: [['page', '2']], ... } }
 */
export function parseCommandLine(argv: readonly string[]): Command {
  const { argv: args, formMode } = takeFormSwitch(argv, VERBS);
  const { values, positionals } = readOptions(args);
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const target = readTarget(positionals, single(values.method, '-X'), VERBS);
  if (target.kind === 'help') return target.topic === undefined ? { kind: 'help' } : { kind: 'help', topic: target.topic };

  const { json, data, form, files, headers, query, unsetHeaders } = mergeItems(
    target.items,
    {
      json: bodySource(single(values.json, '--json'), '--json'),
      data: bodySource(single(values.data, '--data'), '--data'),
      form: (values.form ?? []).map((text) => pair(text, '--form')),
      files: (values.file ?? []).map(filePair),
      headers: (values.header ?? []).map(header),
      query: (values.query ?? []).map((text) => pair(text, '-q')),
    },
    formMode,
  );
  // httpie's default: GET, or POST when there is a body
  const verb = target.method ?? ((json ?? data ?? form[0] ?? files[0]) ? 'post' : 'get');
  if (data !== undefined && (json !== undefined || form.length > 0 || files.length > 0))
    throw new UsageError('--data cannot be combined with --json, --form or --file');
  if (json !== undefined && (form.length > 0 || files.length > 0)) throw new UsageError('--json cannot be combined with --form or --file');
  const basic = single(values.basic, '--basic');
  const digest = single(values.digest, '--digest');
  const bearer = single(values.bearer, '--bearer');
  if ([basic, digest, bearer].filter((given) => given !== undefined).length > 1) throw new UsageError('--basic, --digest and --bearer cannot be combined');
  if ((form.length > 0 || files.length > 0) && headers.some(([name]) => name.toLowerCase() === 'content-type')) {
    throw new UsageError('--form and --file set the Content-Type themselves: drop -H Content-Type');
  }
  const paginate = values.paginate !== undefined;
  const stream = values.stream !== undefined;
  if (paginate && verb !== 'get') throw new UsageError('--paginate walks the pages of a list: use it with get');
  if (paginate && stream) throw new UsageError('--paginate and --stream cannot be combined');
  const url = parseUrl(target.url);
  const { output, download } = downloadFlags(values, url);
  if ((paginate || stream) && output !== undefined) throw new UsageError(`${paginate ? '--paginate' : '--stream'} prints to stdout: drop -o`);
  if (paginate && values.include !== undefined) throw new UsageError('--paginate prints items, not responses: drop -i');
  const writeOut = single(values['write-out'], '-w');
  const chosenBackend = backend(single(values.backend, '--backend'));
  const http2 = values.http2 !== undefined;
  if (http2 && chosenBackend === 'axios') throw new UsageError('--http2: the axios backend cannot speak HTTP/2 (use native, undici, got or fetch)');
  if (paginate && writeOut !== undefined) throw new UsageError('--paginate prints items, not responses: drop -w');
  const print = readPrint(values, values.include !== undefined);
  if (paginate && print.parts !== undefined && !print.offline)
    throw new UsageError('--paginate prints items, not responses: drop --print, --headers, -b or --quiet');
  return {
    kind: 'request',
    request: {
      verb,
      url,
      headers,
      query,
      json,
      data,
      form,
      files,
      auth:
        basic !== undefined
          ? credentials('basic', basic)
          : digest !== undefined
            ? credentials('digest', digest)
            : bearer !== undefined
              ? { scheme: 'bearer', token: bearerToken(bearer) }
              : undefined,
      backend: chosenBackend,
      insecure: values.insecure !== undefined,
      tls: tlsFlags({
        cacert: single(values.cacert, '--cacert'),
        cert: single(values.cert, '--cert'),
        certType: single(values['cert-type'], '--cert-type'),
        key: single(values.key, '--key'),
        pass: single(values.pass, '--pass'),
        pinnedpubkey: single(values.pinnedpubkey, '--pinnedpubkey'),
      }),
      http2,
      publicOnly: values['public-only'] !== undefined,
      proxy: proxyUrl(single(values.proxy, '--proxy')),
      noProxy: noProxyList(single(values.noproxy, '--noproxy')),
      output,
      download,
      paginate,
      pages: pageShape(values, paginate),
      transport: transportFlags(values),
      netrc: netrcFlag(values),
      compress: compressFlags(values, print.curl),
      stream,
      include: values.include !== undefined,
      verbose: values.verbose !== undefined,
      timeout: whole(single(values.timeout, '--timeout'), '--timeout', MAX_TIMER_MS) || undefined, // 0: no limit, as curl's --max-time 0
      retry: whole(single(values.retry, '--retry'), '--retry'),
      session: path(single(values.session, '--session'), '--session'),
      cache: path(single(values.cache, '--cache'), '--cache'),
      writeOut: writeOut === undefined ? undefined : checkWriteOut(writeOut),
      unsetHeaders,
      print,
    },
  };
}

function readOptions(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    // node's messages run over several lines and suggest things; keep the gist on one line
    const message = error instanceof Error ? error.message : String(error);
    const code = (error as { code?: unknown }).code;
    const option = /'(-[^']*)'/.exec(message)?.[1] ?? '';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new UsageError(`unknown option '${option}'${didYouMean(option, Object.keys(OPTIONS), SHORTS)}`);
    if (/argument missing/.test(message)) throw new UsageError(`option ${option} needs a value`);
    if (/ambiguous/.test(message)) throw new UsageError(`option ${option} needs a value (to pass one starting with '-', write ${option}=-...)`);
    if (/does not take an argument/.test(message)) throw new UsageError(`option ${option} takes no value`);
    throw new UsageError(message.split('\n')[0]);
  }
}

function single(values: readonly string[] | undefined, option: string): string | undefined {
  if (values !== undefined && values.length > 1) throw new UsageError(`${option} given more than once`);
  return values?.[0];
}

function parseUrl(text: string): URL {
  // like curl: no scheme means http
  const withScheme = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new UsageError(`not a valid URL: '${redactUserInfo(text)}'`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`only http and https URLs are supported, not '${url.protocol.slice(0, -1)}'`);
  return url;
}

function header(text: string): Pair {
  const colon = text.indexOf(':');
  if (colon < 0) throw new UsageError(`-H expects 'Name: value', got '${text}'`);
  const name = text.slice(0, colon).trim();
  if (!TOKEN.test(name)) throw new UsageError(`-H: '${name}' is not a valid header name`);
  const value = text.slice(colon + 1).trim();
  if (/[\r\n\0]/.test(value)) throw new UsageError(`-H ${name}: the value contains CR, LF or NUL`);
  return [name, value];
}

function pair(text: string, option: string): Pair {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new UsageError(`${option} expects name=value, got '${text}'`);
  return [text.slice(0, eq), text.slice(eq + 1)];
}

function filePair(text: string): { name: string; path: string } {
  const [name, value] = pair(text, '--file');
  if (!value.startsWith('@') || value.length === 1) throw new UsageError(`--file expects name=@path, got '${text}'`);
  return { name, path: value.slice(1) };
}

/** `@-` is stdin, `@path` a file (as curl reads `-d @file`), anything else the body itself. */
function bodySource(text: string | undefined, option: string): BodySource | undefined {
  if (text === undefined) return undefined;
  if (text === '@-') return { from: 'stdin' };
  if (!text.startsWith('@')) return { from: 'text', text };
  if (text === '@') throw new UsageError(`${option} @ needs a file name (or @- for stdin)`);
  return { from: 'file', path: text.slice(1) };
}

/** A whole number from 0 (to `max` when given): digits only, no sign, fraction or unit. */
function whole(text: string | undefined, option: string, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (/^\d+$/.test(text) && value <= max) return value;
  throw new UsageError(`${option} expects a whole number ${max === Number.MAX_SAFE_INTEGER ? '>= 0' : `from 0 to ${max}`}, got '${text}'`);
}

function credentials(scheme: 'basic' | 'digest', text: string): { scheme: 'basic' | 'digest'; user: string; password: string } {
  const colon = text.indexOf(':');
  // the text holds the password: never echo it
  if (colon < 0) throw new UsageError(`--${scheme} expects user:password (no ':' found)`);
  return { scheme, user: text.slice(0, colon), password: text.slice(colon + 1) };
}

/** `--bearer`, checked now so a bad token is a usage error (its message does not echo it). */
function bearerToken(text: string): string {
  usage(() => checkToken(text, '--bearer'));
  return text;
}

/** `--proxy`, checked now so a typo is a usage error (its message hides the credentials). */
function proxyUrl(text: string | undefined): string | undefined {
  if (text !== undefined) usage(() => parseProxyUrl(text, '--proxy'));
  return text;
}

/** `--noproxy a,b`: the entries, each checked (`''` exempts nothing, as curl's `--noproxy ''`). */
function noProxyList(text: string | undefined): readonly string[] | undefined {
  if (text === undefined) return undefined;
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  usage(() => parseNoProxy(entries, '--noproxy'));
  return entries;
}

/** Runs a library check, its ConfigError as a UsageError. */
function usage(check: () => unknown): void {
  try {
    check();
  } catch (error) {
    throw error instanceof ConfigError ? new UsageError(error.message) : error;
  }
}

function backend(text: string | undefined): CliRequest['backend'] {
  if (text === undefined) return undefined;
  const name = BACKENDS.find((b) => b === text);
  if (name === undefined) throw new UsageError(`unknown backend '${text}' (use ${BACKENDS.join(', ')})`);
  return name;
}

function path(text: string | undefined, option: string): string | undefined {
  if (text === '') throw new UsageError(`${option} needs a file name`);
  return text;
}
