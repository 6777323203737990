import { ConfigError } from '../core/errors.js';
import { checkBasicUser } from './auth-config.js';
import { CONTROL } from '../core/text.js';
import { redactUserInfo } from '../core/redact.js';

/** A query parameter value: a list repeats the name once per element; `null` removes an inherited one. */
export type QueryValue = string | number | boolean | ReadonlyArray<string | number | boolean> | null | undefined;

/** Query parameters by name. */
export type Query = Record<string, QueryValue>;

/**
 * The URI of a request (or of every request of a client), set whole or by parts.
 *
 * @example
 * c.request.uri = 'https://api.example.com/v1';   // whole
 * c.request.uri.path = 'users';                     // → /v1/users (no leading '/': joined)
 * c.request.uri.path = '/health';                   // → /health (leading '/': replaces)
 * c.request.uri.query = { tag: ['a', 'b'] };        // → ?tag=a&tag=b
 */
export class UriConfig {
  /** `http` or `https`. */
  scheme: string | undefined;
  /** Host name without the port (IPv6 literals in brackets). */
  host: string | undefined;
  /** Port; the scheme's default when unset. */
  port: number | string | undefined;
  /** Starting with `/`: replaces the inherited path; otherwise joined to it with one `/`. */
  path: string | undefined;
  /** Fragment (never sent to the server; kept in `url`). */
  fragment: string | undefined;
  /** A pre-encoded path and query that replaces `path` and `query`, sent byte for byte. */
  raw: string | undefined;
  /** @internal user info taken from a URL string; becomes Basic credentials. */
  user: string | undefined;
  /** @internal */
  password: string | undefined;
  /** @internal `true` when set from a whole URL: nothing of the inherited URI is kept. */
  replacesBase = false;
  #query: Query | null | undefined;
  #queryTouched = false;
  #rawQuery: string | undefined;
  #pathFromUrl: string | undefined;

  /** @internal the query of a whole URL as written, while nobody touched `query` since. */
  get rawQuery(): string | undefined {
    return this.#queryTouched ? undefined : this.#rawQuery;
  }

  /** @internal `true` while the path is the one a whole URL brought (`https://h//x` may have any path). */
  get pathFromUrl(): boolean {
    return this.path !== undefined && this.path === this.#pathFromUrl;
  }

  /** Query parameters; assign an object, or add to it in place. `null`/`{}` adds none. */
  get query(): Query {
    this.#queryTouched = true;
    return (this.#query ??= {});
  }
  set query(value: Query | null | undefined) {
    this.#queryTouched = true;
    this.#query = value ?? {};
  }

  /** @internal the query as set (undefined when untouched). */
  get querySet(): Query | undefined {
    return this.#query ?? undefined;
  }

  /** The whole URI as a string; assigning one is the same as assigning `request.uri`. */
  get full(): string {
    const authority = this.port === undefined ? (this.host ?? '') : `${this.host ?? ''}:${this.port}`;
    return `${this.scheme ?? 'http'}://${authority}${this.raw ?? this.path ?? ''}`;
  }
  set full(value: string | URL) {
    this.assign(value);
  }

  /** @internal replaces every part from a URL string or object. */
  assign(value: string | URL): void {
    // WHATWG parsing silently drops CR, LF and tabs: refuse them instead of sending something else
    if (typeof value === 'string' && CONTROL.test(value.trim())) {
      throw new ConfigError(`request.uri '${redactUserInfo(JSON.stringify(value).slice(1, -1))}' contains a control character (CR, LF, NUL, ...)`);
    }
    let url: URL;
    try {
      url = value instanceof URL ? value : new URL(value);
    } catch {
      // no cause: node's TypeError keeps the raw input, credentials included
      throw new ConfigError(`request.uri is not a valid absolute URL: '${redactUserInfo(String(value))}'`);
    }
    this.replacesBase = true;
    this.scheme = url.protocol.slice(0, -1);
    this.host = url.hostname;
    this.port = url.port === '' ? undefined : Number(url.port);
    this.path = this.#pathFromUrl = url.pathname;
    this.fragment = url.hash === '' ? undefined : url.hash.slice(1);
    this.user = url.username === '' ? undefined : decodeUserInfo(url.username);
    if (this.user !== undefined) checkBasicUser(this.user, 'the user name in request.uri (%3A decoded)');
    this.password = url.password === '' ? undefined : decodeUserInfo(url.password);
    this.raw = undefined;
    // a Map: a parameter named `__proto__` or `constructor` is a parameter like any other
    const query = new Map<string, string[]>();
    for (const [name, item] of url.searchParams) query.set(name, [...(query.get(name) ?? []), item]);
    this.#query = Object.fromEntries(query);
    this.#rawQuery = url.search === '' ? undefined : url.search.slice(1);
    this.#queryTouched = false;
  }
}

function decodeUserInfo(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new ConfigError('the user info of request.uri has an invalid percent-encoding');
  }
}
