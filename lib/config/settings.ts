import type { Telemetry } from './telemetry.js';
import { mergeFlow, type FlowSettings } from './flow-options.js';
import type { PublicOnlyPolicy } from '../model/backend.js';
import type { Backend, ConnectionOptions, TlsOptions } from '../model/backend.js';
import type { Encoder } from '../content/encoders.js';
import type { Parser } from '../content/parsers.js';
import { ConfigError } from '../core/errors.js';
import { VERSION } from '../core/version.js';
import { defaultAcceptEncoding } from '../model/decompress.js';
import type { BackendChoice, CookiesChoice, ProxyChoice } from './client-config.js';
import { DEFAULT_EXECUTION, mergeExecution, type ExecutionOptions } from './execution-options.js';
import { NO_HANDLERS, type HandlerTier } from './handlers.js';
import type { ContextMap, HttpConfig } from './http-config.js';
import type { Cookies, Headers } from './request-config.js';
import type { Query, UriConfig } from './uri-config.js';
import { isRecord, isScalar, stringList } from '../core/scalar.js';
import { describeValue } from '../core/describe-value.js';
import { checkFunction } from './callbacks.js';
import { escape } from '../core/text.js';
import { hideUserInfoIn } from '../core/redact.js';
import { type Credentials } from './auth-config.js';
import { type Interceptor, type ProgressListener } from './execution-config.js';
import { mergePagination, type PaginationOptions } from './pagination.js';
import type { ResolvedCacheOptions } from './cache-options.js';
import { checkCompress } from './compress-options.js';
import type { RequestCompression } from '../content/request-compression.js';

/** The URI as resolved from every level. */
export interface UriParts {
  readonly scheme: string | undefined;
  readonly host: string | undefined;
  readonly port: string | undefined;
  readonly path: string;
  readonly query: ReadonlyMap<string, readonly string[]>;
  /** The query of a URL string exactly as given, sent as is while no level changes the query. */
  readonly rawQuery: string | undefined;
  readonly fragment: string | undefined;
  readonly raw: string | undefined;
}

/**
 * Everything resolved for a client (or, merged once more, for one request): scalars and maps
 * merged with the nearest level winning; registries and handlers kept as levels, nearest first.
 */
export interface Settings {
  readonly uri: UriParts;
  /** lower-case name → [name as written, value]; never holds Content-Type (that is `contentType`) */
  readonly headers: ReadonlyMap<string, readonly [string, string]>;
  readonly cookies: ReadonlyMap<string, string>;
  readonly contentType: string | undefined;
  readonly charset: string | undefined;
  readonly body: unknown;
  /** `request.compress`, checked; `undefined`: off */
  readonly compress: RequestCompression | undefined;
  readonly credentials: Credentials | undefined;
  readonly encoders: ReadonlyArray<ReadonlyMap<string, Encoder>>;
  readonly parsers: ReadonlyArray<ReadonlyMap<string, Parser>>;
  readonly handlers: readonly HandlerTier[];
  /** `response.paginate()`, merged option by option */
  readonly pagination: PaginationOptions | undefined;
  readonly interceptors: ReadonlyArray<{ readonly methods: ReadonlySet<string>; readonly intercept: Interceptor }>;
  readonly context: ContextMap;
  readonly tls: TlsOptions | undefined;
  readonly backend: BackendChoice | Backend | undefined;
  /** `client.connection`, merged member by member over the parent's */
  readonly connection: ConnectionOptions | undefined;
  /** `client.http2` */
  readonly http2: boolean;
  /** `client.proxy`; `undefined` is `'env'` */
  readonly proxy: ProxyChoice | undefined;
  readonly onDownloadProgress: ProgressListener | undefined;
  readonly onUploadProgress: ProgressListener | undefined;
  /** timeouts, retries, redirects, abort signal and size limit */
  readonly execution: ExecutionOptions;
  /** keep a cookie jar (client level): the client's own (`true`) or the application's */
  readonly cookieJar: CookiesChoice;
  /** `client.cache`: the options the client's cache is made from (one object per setting, shared by derived clients) */
  readonly cache: ResolvedCacheOptions | undefined;
  /** `client.telemetry` */
  readonly telemetry: Telemetry | undefined;
  /** `client.publicOnly`, checked */
  readonly publicOnly: PublicOnlyPolicy | undefined;
  /** `client.concurrency`, `rateLimit` and `dedupe` (undefined: none of them) */
  readonly flow: FlowSettings | undefined;
}

let defaults: Settings | undefined;
/** A request's URI before any level set a part of it (and what an absolute `uri` replaces). */
const DEFAULT_URI: UriParts = {
  scheme: undefined,
  host: undefined,
  port: undefined,
  path: '',
  query: new Map(),
  rawQuery: undefined,
  fragment: undefined,
  raw: undefined,
};

/**
 * What a client starts from, made when the first client is, not on import: its `Accept-Encoding`
 * lists the codings this runtime can undo, and asking loads node:zlib.
 */
export function defaultSettings(): Settings {
  // made again if the decoders changed since (node's plugged in after a client of the browser entry was made)
  if (defaults !== undefined && defaults.headers.get('accept-encoding')![1] === defaultAcceptEncoding()) return defaults;
  // the keys in the order mergeSettings makes them: one shape for every Settings
  return (defaults = Object.freeze({
    uri: DEFAULT_URI,
    headers: new Map<string, readonly [string, string]>([
      ['user-agent', ['User-Agent', `httpbuilder-ts/${VERSION}`]],
      ['accept', ['Accept', '*/*']],
      ['accept-encoding', ['Accept-Encoding', defaultAcceptEncoding()]],
    ]),
    cookies: new Map(),
    contentType: undefined,
    charset: undefined,
    body: undefined,
    compress: undefined,
    credentials: undefined,
    encoders: [],
    parsers: [],
    handlers: [],
    pagination: undefined,
    interceptors: [],
    context: new Map(),
    tls: undefined,
    backend: undefined,
    connection: undefined,
    http2: false,
    proxy: undefined,
    onDownloadProgress: undefined,
    onUploadProgress: undefined,
    execution: DEFAULT_EXECUTION,
    cookieJar: false,
    cache: undefined,
    telemetry: undefined,
    publicOnly: undefined,
    flow: undefined,
  }));
}

/** `layer` (what one block set) over `base`: the same rules for a derived client and for a request. */
export function mergeSettings(base: Settings, layer: HttpConfig): Settings {
  layer.checkSettings(); // a misspelled setting fails here, not in silence
  const request = layer.request;
  const { response, execution, client } = layer.touched;
  const uri = request.uriSet;
  const tier = response ? response.tier() : NO_HANDLERS;
  const interceptors = execution?.interceptors;
  const { headers, contentType } = mergeHeaders(base, layer);
  const mergedUri = uri ? mergeUri(base.uri, uri) : base.uri;
  return {
    uri: mergedUri,
    headers,
    cookies: request.cookiesSet ? mergeEntries(base.cookies, request.cookiesSet, cookieValue, 'cookie') : base.cookies,
    contentType,
    charset: request.charset === undefined ? base.charset : checkText(request.charset, 'request.charset'),
    body: request.bodySet ? request.body : base.body,
    compress: request.compress === undefined ? base.compress : checkCompress(request.compress),
    credentials: request.credentialsSet ?? credentialsOf(base, uri, mergedUri),
    // copies: a block's maps could still be changed through a kept reference, and lookups are remembered per list
    encoders: request.encoders ? [new Map(request.encoders), ...base.encoders] : base.encoders,
    parsers: response?.parsers ? [new Map(response.parsers), ...base.parsers] : base.parsers,
    handlers: tier === NO_HANDLERS ? base.handlers : [tier, ...base.handlers],
    pagination: mergePagination(base.pagination, response?.pagination),
    interceptors: interceptors ? [...base.interceptors, ...interceptors] : base.interceptors,
    context: layer.contextSet ? mergeContext(base.context, layer.contextSet) : base.context,
    tls: execution?.tls ?? base.tls,
    backend: client?.backend ?? base.backend,
    connection:
      client?.connection === undefined ? base.connection : base.connection ? Object.freeze({ ...base.connection, ...client.connection }) : client.connection,
    http2: client?.http2 ?? base.http2,
    proxy: client?.proxy ?? base.proxy,
    onDownloadProgress:
      execution?.onDownloadProgress === undefined ? base.onDownloadProgress : checkFunction(execution.onDownloadProgress, 'execution.onDownloadProgress'),
    onUploadProgress:
      execution?.onUploadProgress === undefined ? base.onUploadProgress : checkFunction(execution.onUploadProgress, 'execution.onUploadProgress'),
    execution: execution ? mergeExecution(base.execution, execution) : base.execution,
    // `true` over a jar already on keeps that jar (perhaps the application's), as derived clients share it
    cookieJar: client?.cookies === true && base.cookieJar !== false ? base.cookieJar : (client?.cookies ?? base.cookieJar),
    // as for cookies: `true` over a cache already on keeps that cache
    cache: client?.cache === undefined || (client.cache === true && base.cache !== undefined) ? base.cache : client.resolvedCache,
    telemetry: client?.telemetry === undefined ? base.telemetry : client.telemetry || undefined,
    publicOnly: client?.publicOnly === undefined ? base.publicOnly : client.resolvedPublicOnly,
    flow: client?.flowSet === undefined ? base.flow : mergeFlow(base.flow, client.flowSet),
  };
}

/**
 * Headers per name, case-insensitively. `accept` is the `Accept` header of its level, and a
 * `Content-Type` header is the content type of its level, so the nearest level wins either way.
 */
function mergeHeaders(base: Settings, layer: HttpConfig): Pick<Settings, 'headers' | 'contentType'> {
  const { headersSet, accept } = layer.request;
  const contentType = layer.request.contentType === undefined ? undefined : checkText(layer.request.contentType, 'request.contentType');
  if (headersSet === undefined && accept === undefined) return { headers: base.headers, contentType: contentType ?? base.contentType };
  const headers = mergeEntries(base.headers, headersSet, headerEntry, 'header');
  if (accept !== undefined) headers.set('accept', ['Accept', acceptValue(accept)]);
  const typeHeader = Object.keys(headersSet ?? {}).find(isContentTypeName);
  headers.delete('content-type');
  if (contentType !== undefined || typeHeader === undefined) return { headers, contentType: contentType ?? base.contentType };
  const value = headersSet![typeHeader];
  return { headers, contentType: value === null || value === undefined ? undefined : String(value) };
}

/** `request.accept` as the header's value; an empty list would send an empty `Accept:`, which accepts nothing. */
function acceptValue(accept: unknown): string {
  const ranges = stringList(accept, 'request.accept');
  if (ranges.length === 0) throw new ConfigError('request.accept is an empty list: name at least one media range, or leave it unset');
  return ranges.join(', ');
}

/** Credentials belong to their origin: a level that moves to another one, without credentials of its own, drops them. */
function credentialsOf(base: Settings, uri: UriConfig | undefined, merged: UriParts): Credentials | undefined {
  if (uri?.user !== undefined) return { scheme: 'basic', user: uri.user, password: uri.password ?? '', preemptive: false };
  // nothing to compare in the common case; a client without a URI gives its credentials to every request's origin
  if (base.credentials === undefined || uri === undefined || base.uri.host === undefined) return base.credentials;
  return origin(merged) === origin(base.uri) ? base.credentials : undefined;
}

function origin(uri: UriParts): string {
  const scheme = uri.scheme?.toLowerCase();
  return `${scheme}://${uri.host?.toLowerCase()}:${uri.port ?? (scheme === 'https' ? '443' : '80')}`;
}

/** A setting that must be text when set (a number there would reach a backend's string handling). */
function checkText(value: unknown, setting: string): string {
  if (typeof value !== 'string') throw new ConfigError(`${setting} must be a string, not ${describeValue(value)}`);
  return value;
}

function mergeUri(base: UriParts, layer: UriConfig): UriParts {
  // the parts that must be text (the port may be a number too, and is checked with the origin),
  // one by one rather than a loop over their names: a load keyed by five names is megamorphic
  if (layer.scheme !== undefined) checkText(layer.scheme, 'uri.scheme');
  if (layer.host !== undefined) checkText(layer.host, 'uri.host');
  if (layer.path !== undefined) checkText(layer.path, 'uri.path');
  if (layer.fragment !== undefined) checkText(layer.fragment, 'uri.fragment');
  if (layer.raw !== undefined) checkText(layer.raw, 'uri.raw');
  const from = layer.replacesBase ? DEFAULT_URI : base;
  const query = layer.querySet;
  const touchesTarget = layer.path !== undefined || query !== undefined;
  return {
    scheme: layer.scheme ?? from.scheme,
    host: layer.host ?? from.host,
    port: layer.port === undefined ? from.port : String(layer.port),
    path: layer.path === undefined ? from.path : layer.pathFromUrl ? layer.path : joinPath(from.path, layer.path),
    query: mergeQuery(from.query, query),
    // a URL's own query goes out verbatim until a level changes the query
    rawQuery: layer.rawQuery ?? (query === undefined ? from.rawQuery : undefined),
    fragment: layer.fragment ?? from.fragment,
    raw: layer.raw ?? (touchesTarget ? undefined : from.raw),
  };
}

// what only a URL looks like: `scheme://...`, or an http(s) URL with the slashes left out
const LOOKS_LIKE_URL = /^(?:[a-z][a-z0-9+.-]*:\/\/|https?:)/i;

/** `/api` + `users` → `/api/users`; `/api` + `/health` → `/health`. A path never carries an origin. */
function joinPath(base: string, path: string): string {
  // an absolute path (the usual kind) can only be mistaken for a URL as `//host`: no regex for it
  const absolute = path.startsWith('/');
  if (absolute ? path.startsWith('//') : LOOKS_LIKE_URL.test(path)) {
    throw new ConfigError(`uri.path '${escape(hideUserInfoIn(path))}' would change the origin: set request.uri to change host or scheme`);
  }
  if (absolute || path === '') return path;
  return `${base.endsWith('/') ? base.slice(0, -1) : base}/${path}`;
}

function mergeQuery(base: ReadonlyMap<string, readonly string[]>, layer: Query | undefined): ReadonlyMap<string, readonly string[]> {
  if (layer === undefined) return base;
  if (!isRecord(layer)) throw new ConfigError(`uri.query must be a plain object of { name: value | value[] }, not ${describeValue(layer)}`);
  const merged = new Map(base);
  for (const [name, value] of Object.entries(layer)) {
    if (value === null || value === undefined) merged.delete(name);
    else merged.set(name, Array.isArray(value) ? (value as unknown[]).map((item) => queryText(name, item)) : [queryText(name, value)]);
  }
  return merged;
}

function queryText(name: string, value: unknown): string {
  if (!isScalar(value))
    throw new ConfigError(`uri.query parameter '${escape(name)}' must be a string, number or boolean (or a list of them), not ${describeValue(value)}`);
  return String(value);
}

// module functions, not arrows made per merge (which is per request): docs/performance.md, "Arrows made per request"
function cookieValue(_name: string, value: string | number | boolean): string {
  return String(value);
}

function headerEntry(name: string, value: string | number | boolean): readonly [string, string] {
  return [name, String(value)];
}

function isContentTypeName(name: string): boolean {
  return name.toLowerCase() === 'content-type';
}

/** Headers (names case-insensitive) or cookies of `layer` over `base`; `null` removes one. */
function mergeEntries<V>(
  base: ReadonlyMap<string, V>,
  layer: Headers | Cookies | undefined,
  toValue: (name: string, value: string | number | boolean) => V,
  kind: 'header' | 'cookie',
): Map<string, V> {
  const merged = new Map(base);
  if (layer === undefined) return merged;
  if (!isRecord(layer)) throw new ConfigError(`request.${kind}s must be a plain object of { name: value }, not ${describeValue(layer)}`);
  for (const [name, value] of Object.entries(layer)) {
    const key = kind === 'header' ? name.toLowerCase() : name;
    if (value === null || value === undefined) merged.delete(key);
    else if (isScalar(value)) merged.set(key, toValue(name, value));
    else throw new ConfigError(`${kind} '${escape(name)}' must be a string, number or boolean, not ${describeValue(value)}`);
  }
  return merged;
}

function mergeContext(base: ContextMap, layer: ContextMap): ContextMap {
  const merged = new Map(base);
  for (const [type, entries] of layer) merged.set(type, new Map([...(base.get(type) ?? []), ...entries]));
  return merged;
}
