import { UsageError } from './failure.js';
import { helpText } from './help-topics.js';
import { closest } from './suggest.js';
import { carriesData, jsonBody, parseItem, type RequestItem } from './items.js';

/**
 * The options of request items and output modes, spread into `hb`'s option table. Every one is
 * `multiple`, as the others, so that a repeated single-valued one is an error.
 */
export const ITEM_OPTIONS = {
  method: { type: 'string', short: 'X', multiple: true },
  print: { type: 'string', multiple: true },
  headers: { type: 'boolean', multiple: true },
  body: { type: 'boolean', short: 'b', multiple: true },
  quiet: { type: 'boolean', multiple: true },
  offline: { type: 'boolean', multiple: true },
  curl: { type: 'boolean', multiple: true },
} as const;

/** What `--print`, `--headers`, `-b`, `--quiet`, `-i`, `--offline` and `--curl` ask to print. */
export interface CliPrint {
  /**
   * httpie's `--print` letters: `H` request head, `B` request body, `h` response head, `b`
   * response body. `undefined`: hb's default (the response body; with `-i` its head too).
   */
  readonly parts: string | undefined;
  /** `--offline`: print the request (`HB` unless `--print` says otherwise) without sending it. */
  readonly offline: boolean;
  /** `--curl`: print only the equivalent curl command, without sending. */
  readonly curl: boolean;
}

/** The positionals read: the method (lower case), the URL text and the request items; or a help topic. */
export type Target =
  | { readonly kind: 'help'; readonly topic: string | undefined }
  | { readonly kind: 'request'; readonly method: string | undefined; readonly url: string; readonly items: readonly RequestItem[] };

// RFC 9110 token: what a method may be made of
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Reads the positionals: `<verb> <url> [items]`, `<url> [items]` or, with `-X METHOD`,
 * `<url> [items]`; `help [topic]` asks for help. A word that is a verb (or `help`) is read as
 * one: a host named so needs a scheme (`http://get`).
 *
 * @throws {UsageError} for a missing URL, a bad `-X` or an item without a separator.
 * @example
 * readTarget(['localhost:8080/users', 'name=Ada'], undefined, ['get']);
 * // → { kind: 'request', method: undefined, url: 'localhost:8080/users', items: [{ kind: 'field', name: 'name', value: 'Ada' }] }
 */
export function readTarget(positionals: readonly string[], methodOption: string | undefined, verbs: readonly string[]): Target {
  const [first, ...rest] = positionals;
  if (first === undefined) throw new UsageError('missing the verb and the URL: hb <verb> <url>, hb <url> [items] or hb -X <METHOD> <url>');
  if (first.toLowerCase() === 'help' && methodOption === undefined) {
    if (rest.length > 1) throw new UsageError(`unexpected argument '${rest[1]}' (hb help <topic>)`);
    if (rest[0] !== undefined) helpText(rest[0]); // an unknown topic is bad input
    return { kind: 'help', topic: rest[0] };
  }
  const isVerb = verbs.includes(first.toLowerCase());
  // a bare word before something that looks like a URL, or close to a verb, was meant as a verb
  const bare = !isVerb && /^[A-Za-z]+$/.test(first) && rest.length > 0;
  const nearVerb = bare ? closest(first.toLowerCase(), verbs) : undefined;
  if (bare && (nearVerb !== undefined || looksLikeUrl(rest[0]))) {
    const hint = nearVerb === undefined ? `use ${verbs.join(', ')}, or -X ${first.toUpperCase()}` : `did you mean ${nearVerb}?`;
    throw new UsageError(`unknown verb '${first}' (${hint}); a host named so needs its scheme: http://${first}`);
  }
  if (isVerb && methodOption !== undefined) throw new UsageError(`-X ${methodOption} and the verb '${first}' both name the method: give one`);
  const method = isVerb ? first.toLowerCase() : methodOption === undefined ? undefined : checkMethod(methodOption);
  const [url, ...items] = isVerb ? rest : positionals;
  if (url === undefined) throw new UsageError('missing the URL');
  return { kind: 'request', method, url, items: items.map(parseItem) };
}

/** `http://...`, `example.com/...`, `localhost:8080`: a URL rather than a request item. */
function looksLikeUrl(text: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text) || /^(localhost|[\w-]+(\.[\w-]+)+|\[[\d:a-fA-F.]+\])(:\d+)?([/?]\S*)?$/.test(text);
}

function checkMethod(text: string): string {
  if (!TOKEN.test(text)) throw new UsageError(`-X expects a method name such as PROPFIND, got '${text}'`);
  if (text.toUpperCase() === 'CONNECT') throw new UsageError('-X CONNECT opens a tunnel, not a request: use --proxy');
  return text.toLowerCase();
}

type Pairs = ReadonlyArray<readonly [name: string, value: string]>;

/** The request parts the items go into, as the options gave them (`S`: where a body comes from). */
export interface ItemTargets<S> {
  readonly headers: Pairs;
  readonly query: Pairs;
  readonly form: Pairs;
  readonly files: ReadonlyArray<{ readonly name: string; readonly path: string }>;
  readonly json: S | undefined;
  readonly data: S | undefined;
}

/**
 * Adds the items to the options' parts: headers and query after `-H` and `-q`; fields and raw
 * JSON make the JSON object body (form fields with `--form` or when a file item makes a
 * multipart form); files make parts. `Name:` items are returned in `unsetHeaders`.
 *
 * @throws {UsageError} for data items with `--json` or `--data`, or raw JSON in a form.
 */
export function mergeItems<S>(
  items: readonly RequestItem[],
  given: ItemTargets<S>,
  formMode: boolean,
): ItemTargets<S | { readonly from: 'text'; readonly text: string }> & { readonly unsetHeaders: readonly string[] } {
  const data = items.filter(carriesData);
  if (data.length > 0 && (given.json !== undefined || given.data !== undefined)) {
    throw new UsageError(`${given.json !== undefined ? '--json' : '--data'} is the whole body: drop the data items (${describe(data[0])}) or the option`);
  }
  const asForm = formMode || given.form.length > 0 || given.files.length > 0 || items.some((it) => it.kind === 'file');
  const raw = data.find((it) => it.kind === 'json');
  if (asForm && raw !== undefined) throw new UsageError(`raw JSON (${describe(raw)}) cannot go into a form: use name=value, or drop --form and the files`);
  const pairs = (kind: 'query' | 'field') => items.flatMap((it) => (it.kind === kind ? [[it.name, it.value] as const] : []));
  const headerItems = items.flatMap((it) => (it.kind === 'header' && it.value !== undefined ? [[it.name, it.value] as const] : []));
  return {
    headers: [...given.headers, ...headerItems],
    query: [...given.query, ...pairs('query')],
    json: !asForm && data.length > 0 ? { from: 'text' as const, text: jsonBody(items) } : given.json,
    data: given.data,
    form: asForm ? [...given.form, ...pairs('field')] : given.form,
    files: [...given.files, ...items.flatMap((it) => (it.kind === 'file' ? [{ name: it.name, path: it.path }] : []))],
    unsetHeaders: items.flatMap((it) => (it.kind === 'header' && it.value === undefined ? [it.name] : [])),
  };
}

function describe(item: RequestItem): string {
  return item.kind === 'file' ? `${item.name}@...` : `${item.name}${item.kind === 'json' ? ':=' : '='}...`;
}

/**
 * `--form` without a value, as httpie's switch (`hb --form POST url a=1`): taken out of `argv`
 * when the next word is a verb, a URL, another option or nothing. Otherwise `--form` takes it
 * as its first-edition `name=value`.
 */
export function takeFormSwitch(argv: readonly string[], verbs: readonly string[]): { readonly argv: string[]; readonly formMode: boolean } {
  const out: string[] = [];
  let formMode = false;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const next = argv[i + 1];
    if (argv[i] === '--form' && (next === undefined || next.startsWith('-') || verbs.includes(next.toLowerCase()) || looksLikeUrl(next))) formMode = true;
    else out.push(argv[i]);
  }
  return { argv: out, formMode };
}

/**
 * Reads the output options into {@link CliPrint}: `--print` letters, `--headers` (`h`),
 * `-b`/`--body` (`b`), `--quiet` (nothing) and `-i` (`hb`) choose one mode; `--offline` prints
 * `HB` unless `--print` says otherwise.
 *
 * @throws {UsageError} for letters other than `HBhb`, or two modes at once.
 */
export function readPrint(
  values: { print?: string[]; headers?: boolean[]; body?: boolean[]; quiet?: boolean[]; offline?: boolean[]; curl?: boolean[] },
  include: boolean,
): CliPrint {
  if ((values.print?.length ?? 0) > 1) throw new UsageError('--print given more than once');
  const print = values.print?.[0];
  if (print !== undefined && !/^[HBhb]*$/.test(print))
    throw new UsageError(`--print expects letters from HBhb (H request head, B request body, h response head, b response body), got '${print}'`);
  const modes: Array<[given: boolean, flag: string, parts: string]> = [
    [print !== undefined, '--print', print ?? ''],
    [values.headers !== undefined, '--headers', 'h'],
    [values.body !== undefined, '--body', 'b'],
    [values.quiet !== undefined, '--quiet', ''],
    [include, '-i', 'hb'],
  ];
  const chosen = modes.filter(([given]) => given);
  if (chosen.length > 1) throw new UsageError(`${chosen[0][1]} and ${chosen[1][1]} both choose what is printed: give one`);
  const offline = values.offline !== undefined;
  const curl = values.curl !== undefined;
  if (offline && curl) throw new UsageError('--offline and --curl both print instead of sending: give one');
  if (curl && chosen.length > 0) throw new UsageError(`--curl prints only the curl command: drop ${chosen[0][1]}`);
  const parts = chosen[0]?.[2] ?? (offline ? 'HB' : undefined);
  return { parts, offline, curl };
}
