import type { Backend, TlsOptions } from '../backends/backend.js';
import type { Encoder } from '../content/encoders.js';
import type { Parser } from '../content/parsers.js';
import type { Interceptor } from '../pipeline/interceptors.js';
import { ConfigError } from '../errors.js';
import { escape, SCHEME_PREFIX } from '../pipeline/build-url.js';
import { VERSION } from '../version.js';
import type { BackendChoice } from './client-config.js';
import { mergeHandlers, NO_HANDLERS, type HandlerTier } from './handlers.js';
import type { ContextMap, HttpConfig } from './http-config.js';
import type { Cookies, Headers } from './request-config.js';
import type { Query, UriConfig } from './uri-config.js';

/** The URI as resolved from every level. */
export interface UriParts {
  readonly scheme: string | undefined;
  readonly host: string | undefined;
  readonly port: string | undefined;
  readonly path: string;
  readonly query: ReadonlyMap<string, readonly string[]>;
  readonly fragment: string | undefined;
  readonly raw: string | undefined;
}

/** Credentials for Basic auth, from a URL's user info. */
export interface Credentials {
  readonly user: string;
  readonly password: string;
}

/** Everything resolved for a client (or, merged once more, for one request): nearest level wins. */
export interface Settings {
  readonly uri: UriParts;
  /** lower-case name → [name as written, value] */
  readonly headers: ReadonlyMap<string, readonly [string, string]>;
  readonly cookies: ReadonlyMap<string, string>;
  readonly contentType: string | undefined;
  readonly charset: string | undefined;
  readonly accept: string | undefined;
  readonly body: unknown;
  readonly credentials: Credentials | undefined;
  readonly encoders: ReadonlyMap<string, Encoder> | undefined;
  readonly parsers: ReadonlyMap<string, Parser> | undefined;
  readonly handlers: HandlerTier;
  readonly interceptors: ReadonlyArray<{ readonly methods: ReadonlySet<string>; readonly intercept: Interceptor }>;
  readonly context: ContextMap;
  readonly tls: TlsOptions | undefined;
  readonly backend: BackendChoice | Backend | undefined;
}

export const DEFAULT_SETTINGS: Settings = Object.freeze({
  uri: { scheme: undefined, host: undefined, port: undefined, path: '', query: new Map(), fragment: undefined, raw: undefined },
  headers: new Map<string, readonly [string, string]>([
    ['user-agent', ['User-Agent', `httpbuilder-ts/${VERSION}`]],
    ['accept', ['Accept', '*/*']],
    ['accept-encoding', ['Accept-Encoding', 'gzip, deflate, br']],
  ]),
  cookies: new Map(),
  contentType: undefined,
  charset: undefined,
  accept: undefined,
  body: undefined,
  credentials: undefined,
  encoders: undefined,
  parsers: undefined,
  handlers: NO_HANDLERS,
  interceptors: [],
  context: new Map(),
  tls: undefined,
  backend: undefined,
});

/** `layer` (what one block set) over `base`: scalars by nearest value, maps per name. */
export function mergeSettings(base: Settings, layer: HttpConfig, handlers: HandlerTier = mergeHandlers(base.handlers, layer.response.tier())): Settings {
  const request = layer.request;
  const uri = request.uriSet;
  const interceptors = layer.execution.interceptors;
  const accept = request.accept;
  return {
    uri: uri ? mergeUri(base.uri, uri) : base.uri,
    headers: mergeEntries(base.headers, request.headersSet, (name, value) => [name, String(value)] as const),
    cookies: mergeEntries(base.cookies, request.cookiesSet, (_name, value) => String(value), false),
    contentType: request.contentType ?? base.contentType,
    charset: request.charset ?? base.charset,
    accept: accept === undefined ? base.accept : typeof accept === 'string' ? accept : accept.join(', '),
    body: request.body ?? base.body,
    credentials: uri?.user !== undefined ? { user: uri.user, password: uri.password ?? '' } : base.credentials,
    encoders: mergeMaps(base.encoders, request.encoders),
    parsers: mergeMaps(base.parsers, layer.response.parsers),
    handlers,
    interceptors: interceptors ? [...base.interceptors, ...interceptors] : base.interceptors,
    context: layer.contextSet ? mergeContext(base.context, layer.contextSet) : base.context,
    tls: layer.execution.tls ?? base.tls,
    backend: layer.client.backend ?? base.backend,
  };
}

function mergeUri(base: UriParts, layer: UriConfig): UriParts {
  const from = layer.replacesBase ? DEFAULT_SETTINGS.uri : base;
  const touchesTarget = layer.path !== undefined || layer.querySet !== undefined;
  return {
    scheme: layer.scheme ?? from.scheme,
    host: layer.host ?? from.host,
    port: layer.port === undefined ? from.port : String(layer.port),
    path: layer.path === undefined ? from.path : layer.pathFromUrl ? layer.path : joinPath(from.path, layer.path),
    query: mergeQuery(from.query, layer.querySet),
    fragment: layer.fragment ?? from.fragment,
    raw: layer.raw ?? (touchesTarget ? undefined : from.raw),
  };
}

/** `/api` + `users` → `/api/users`; `/api` + `/health` → `/health`. A path never carries an origin. */
function joinPath(base: string, path: string): string {
  if (path.startsWith('//') || SCHEME_PREFIX.test(path)) {
    throw new ConfigError(`uri.path '${escape(path)}' would change the origin: set request.uri to change host or scheme`);
  }
  if (path.startsWith('/') || path === '') return path;
  return `${base.endsWith('/') ? base.slice(0, -1) : base}/${path}`;
}

function mergeQuery(base: ReadonlyMap<string, readonly string[]>, layer: Query | undefined): ReadonlyMap<string, readonly string[]> {
  if (layer === undefined) return base;
  const merged = new Map(base);
  for (const [name, value] of Object.entries(layer)) {
    if (value === null || value === undefined) merged.delete(name);
    else merged.set(name, Array.isArray(value) ? (value as unknown[]).map(String) : [String(value)]);
  }
  return merged;
}

function mergeEntries<V>(
  base: ReadonlyMap<string, V>,
  layer: Headers | Cookies | undefined,
  toValue: (name: string, value: string | number | boolean) => V,
  caseInsensitive = true,
): ReadonlyMap<string, V> {
  if (layer === undefined) return base;
  const entries = Object.entries(layer);
  if (entries.length === 0) return base;
  const merged = new Map(base);
  for (const [name, value] of entries) {
    const key = caseInsensitive ? name.toLowerCase() : name;
    if (value === null || value === undefined) merged.delete(key);
    else merged.set(key, toValue(name, value));
  }
  return merged;
}

function mergeMaps<V>(base: ReadonlyMap<string, V> | undefined, layer: ReadonlyMap<string, V> | undefined): ReadonlyMap<string, V> | undefined {
  if (!layer) return base;
  return base ? new Map([...base, ...layer]) : layer;
}

function mergeContext(base: ContextMap, layer: ContextMap): ContextMap {
  const merged = new Map(base);
  for (const [type, entries] of layer) merged.set(type, new Map([...(base.get(type) ?? []), ...entries]));
  return merged;
}
