import { HeaderLexer } from '../core/header-lexer.js';
import { setOwn } from '../core/own-property.js';

/** One link of a `Link` header: its target (resolved against `base`), and its parameters (names lower case; `rel` split into lower-case relation types). */
export interface Link {
  readonly url: string;
  readonly rel: readonly string[];
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Every link in the given `Link` values (RFC 8288 §3), in order: a response may send several `Link`
 * headers, each may hold several comma-separated links. Each link is `<uri-reference>` then
 * `;`-separated params, whose values are tokens or quoted-strings. The first occurrence of a param
 * wins (a second `rel` is ignored); `params` keeps every param verbatim, `rel*` (RFC 8187) included,
 * which is not decoded and does not feed `rel`. A malformed link, or one whose target does not resolve
 * against `base` (an absolute URL, normally the page's), is skipped, never thrown.
 *
 * @example
 * parseLinks(['<https://api.github.com/repositories/1/issues?page=2>; rel="next", </issues?page=5>; rel="last"'], 'https://api.github.com/')
 * // [{ url: 'https://api.github.com/repositories/1/issues?page=2', rel: ['next'], params: { rel: 'next' } },
 * //  { url: 'https://api.github.com/issues?page=5', rel: ['last'], params: { rel: 'last' } }]
 */
export function parseLinks(values: readonly string[], base: string): Link[] {
  const links: Link[] = [];
  for (const value of values) {
    const lexer = new HeaderLexer(value);
    for (;;) {
      lexer.take(/[\s,]*/y);
      if (lexer.done()) break;
      const link = readLink(lexer, base);
      if (link) links.push(link);
      // resync at the next comma outside quotes (not outside `<...>`: a missing `>` would swallow the next link)
      else lexer.take(/(?:[^",]|"(?:[^"\\]|\\.)*"?)*/sy);
    }
  }
  return links;
}

/**
 * The URL of the first link whose `rel` includes `rel` (compared case-insensitively, as RFC 8288 §2.1 asks), or undefined.
 *
 * @example
 * linkTo(fromServer.headers.getAll('link'), 'next', fromServer.uri) // e.g. 'https://api.example.com/users?page=2', or undefined on the last page
 */
export function linkTo(values: readonly string[], rel: string, base: string): string | undefined {
  const wanted = rel.toLowerCase();
  return parseLinks(values, base).find((link) => link.rel.includes(wanted))?.url;
}

/** One link from the lexer's position up to (not including) its comma, or undefined when it is malformed. */
function readLink(lexer: HeaderLexer, base: string): Link | undefined {
  const target = lexer.take(/<[^<>]*>/y);
  if (target === undefined) return undefined;
  const params: Record<string, string> = {};
  for (;;) {
    lexer.take(/\s*/y);
    if (lexer.done() || lexer.take(/(?=,)/y) !== undefined) break; // the comma stays: a skipped link resyncs from it
    if (lexer.take(/;\s*/y) === undefined) return undefined; // junk where a `;` or `,` belongs
    const name = lexer.take(/[!#$%&'*+\-.^_`|~0-9A-Za-z]+/y)?.toLowerCase();
    if (!name) continue; // an empty param (`;;`, trailing `;`) carries nothing
    // a param without `=` (`; crossorigin`) is a flag: its value is ''
    const value = lexer.take(/\s*=\s*/y) === undefined ? '' : (lexer.quoted() ?? lexer.take(/[^\s,;"]*/y) ?? '');
    if (!Object.hasOwn(params, name)) setOwn(params, name, value);
  }
  const url = resolve(target.slice(1, -1), base);
  if (url === undefined) return undefined;
  const rel = (params.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return { url, rel, params };
}

/** The target resolved against `base` (an empty `<>` is the base itself, minus its fragment), or undefined. */
function resolve(target: string, base: string): string | undefined {
  try {
    return new URL(target, base).href;
  } catch {
    return undefined;
  }
}
