import { UsageError } from './failure.js';
import { pathOf, setPath } from './nested-json.js';

/**
 * One httpie request item, as written after the URL. `kind` is named by its separator:
 *
 * - `header` `Name:value` (`Name:` removes a header hb would send, `Name;` sends it empty)
 * - `query` `name==value`
 * - `field` `name=value` (a JSON string, or a form field with `--form`)
 * - `json` `name:=<json>` (a raw JSON value)
 * - `file` `name@path` (a multipart file part)
 */
export type RequestItem =
  | { readonly kind: 'header'; readonly name: string; readonly value: string | undefined }
  | { readonly kind: 'query'; readonly name: string; readonly value: string }
  | { readonly kind: 'field'; readonly name: string; readonly value: string }
  | { readonly kind: 'json'; readonly name: string; readonly value: unknown }
  | { readonly kind: 'file'; readonly name: string; readonly path: string };

// httpie's separators; where two start at the same place the longer one wins
const SEPARATORS = [':=', '==', '=', '@', ':', ';'] as const;

/**
 * Reads one request item as httpie does: the first separator (not escaped with `\`) splits the
 * name from the value; `\` before a separator character keeps it in the name.
 *
 * @throws {UsageError} for text without a separator, an empty name or `:=` text that is not JSON.
 * @example
 * parseItem('age:=36'); // → { kind: 'json', name: 'age', value: 36 }
 * parseItem('X-Trace:on'); // → { kind: 'header', name: 'X-Trace', value: 'on' }
 */
export function parseItem(text: string): RequestItem {
  let name = '';
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === '\\' && i + 1 < text.length && ':=@;\\'.includes(text[i + 1])) {
      name += text[++i];
      continue;
    }
    const separator = SEPARATORS.find((s) => text.startsWith(s, i));
    if (separator === undefined) {
      name += char;
      continue;
    }
    if (name === '') throw new UsageError(`request item '${text}' has no name before '${separator}'`);
    return item(separator, name, text.slice(i + separator.length), text);
  }
  throw new UsageError(`unexpected argument '${text}' (a request item needs a separator: name=value, name:=json, name==value, Header:value, name@file)`);
}

function item(separator: (typeof SEPARATORS)[number], name: string, value: string, text: string): RequestItem {
  switch (separator) {
    case ':=':
      return { kind: 'json', name, value: rawJson(value, text) };
    case '==':
      return { kind: 'query', name, value };
    case '=':
      return { kind: 'field', name, value };
    case '@':
      if (value === '') throw new UsageError(`request item '${text}' needs a file name after '@'`);
      return { kind: 'file', name, path: value };
    case ':':
      // httpie: `Name:` unsets the header; `Name;` sends it with an empty value
      return { kind: 'header', name, value: value === '' ? undefined : value.trim() };
    case ';':
      if (value !== '') throw new UsageError(`request item '${text}': 'Name;' sends an empty header, use 'Name:value' for a value`);
      return { kind: 'header', name, value: '' };
  }
}

function rawJson(value: string, text: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch (error) {
    throw new UsageError(`request item '${text}': not valid JSON after ':=' (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** True for the items that make a body: fields, raw JSON and files. */
export function carriesData(item: RequestItem): boolean {
  return item.kind === 'field' || item.kind === 'json' || item.kind === 'file';
}

/**
 * The JSON body of `field` and `json` items, in order, with httpie 3's nested names
 * (`user[name]=Ada`, `tags[]=x`, `[]=x` for an array body); a name set again keeps its last value.
 *
 * @throws {UsageError} for a nested name that is malformed or does not fit an earlier item.
 * @example
 * jsonBody([parseItem('name=Ada'), parseItem('age:=36'), parseItem('tags[]=x')]); // → '{"name":"Ada","age":36,"tags":["x"]}'
 */
export function jsonBody(items: readonly RequestItem[]): string {
  let body: unknown;
  for (const it of items) if (it.kind === 'field' || it.kind === 'json') body = setPath(body, pathOf(it.name, describe(it)), it.value, describe(it));
  return JSON.stringify(body ?? {});
}

function describe(item: RequestItem & { kind: 'field' | 'json' }): string {
  return `${item.name}${item.kind === 'json' ? ':=' : '='}${item.kind === 'json' ? JSON.stringify(item.value) : item.value}`;
}
