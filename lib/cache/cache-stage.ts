import CachePolicy from 'http-cache-semantics';
import type { CacheEntry } from '../config/cache-options.js';
import type { LogLine } from '../config/logger.js';
import type { WireRequest, WireResponse } from '../model/backend.js';
import { redactUrl } from '../core/redact.js';
import type { Send, WireCall } from '../pipeline/plan.js';
import { entryOf, policyHeaders, responseOf, type CacheOutcome, type ResponseCache } from './response-cache.js';

/** Methods whose success changes what a URL holds: its stored response goes (RFC 9111 §4.4). */
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A caller's own conditional or range request: its answer (a 304, a 206) is the caller's to handle. */
const CALLERS_CONDITIONS = ['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range', 'range'];

/**
 * The cache stage (`client.cache`): a private RFC 9111 cache for GET and HEAD, with
 * http-cache-semantics deciding freshness and revalidation. A fresh stored response answers
 * without a request (`'hit'`); a stale one is revalidated with `If-None-Match` /
 * `If-Modified-Since`, a `304` answering with the stored body and the new headers
 * (`'revalidated'`); anything else comes from the server (`'miss'`) and is stored as its body is
 * read, when the rules allow. A HEAD is answered from a fresh stored GET. Unsafe methods that
 * succeed drop the stored response of their URL (and of their `Location`/`Content-Location`).
 */
export function caching(next: Send): Send {
  return function cachedSend(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    const cache = call.plan.cache;
    return cache ? cached(cache, next, wire, call) : next(wire, call);
  };
}

async function cached(cache: ResponseCache, next: Send, wire: WireRequest, call: WireCall): Promise<WireResponse> {
  const log = call.plan.execution.logger;
  const { method, url } = wire;
  if (method !== 'GET' && method !== 'HEAD') {
    const response = await next(wire, call);
    if (UNSAFE.has(method) && response.statusCode < 400) await invalidate(cache, url, response, log);
    return response;
  }
  const request = policyRequest(wire);
  if (CALLERS_CONDITIONS.some((name) => request.headers[name] !== undefined)) return next(wire, call);
  const entry = await cache.get(url, log);
  if (entry) {
    const policy = CachePolicy.fromObject(entry.policy as CachePolicy.CachePolicyObject);
    if (isFresh(entry, request)) return answered(entry, policy.responseHeaders(), method, 'hit', log, url);
    if (method === 'GET') return revalidated(cache, next, wire, call, entry, policy, request);
  }
  return fetched(cache, await next(wire, call), wire, request, log);
}

/**
 * Whether the stored response answers `request` as it is. http-cache-semantics revalidates a
 * `must-revalidate` response even while it is fresh, and never answers a HEAD from a GET: RFC 9111
 * allows both (§5.2.2.2 is about stale responses; §4 lets a HEAD use a stored GET), so it is asked
 * about a GET, with `must-revalidate` counted only once the response is stale.
 */
function isFresh(entry: CacheEntry, request: CachePolicy.HttpRequest): boolean {
  const stored = entry.policy as CachePolicy.CachePolicyObject;
  if (!('must-revalidate' in stored.rescc)) return CachePolicy.fromObject(stored).satisfiesWithoutRevalidation({ ...request, method: 'GET' });
  const { 'must-revalidate': _, ...rescc } = stored.rescc;
  const policy = CachePolicy.fromObject({ ...stored, rescc });
  return !policy.stale() && policy.satisfiesWithoutRevalidation({ ...request, method: 'GET' });
}

/** A stale entry: asked again with its validators; a 304 answers with the stored body, anything else is a new response. */
async function revalidated(
  cache: ResponseCache,
  next: Send,
  wire: WireRequest,
  call: WireCall,
  entry: CacheEntry,
  policy: CachePolicy,
  request: CachePolicy.HttpRequest,
): Promise<WireResponse> {
  const log = call.plan.execution.logger;
  const conditions = policy.revalidationHeaders(request);
  const asking = { ...wire.headers };
  for (const name of ['if-none-match', 'if-modified-since'] as const) {
    const value = conditions[name];
    if (typeof value === 'string') asking[name === 'if-none-match' ? 'If-None-Match' : 'If-Modified-Since'] = value;
  }
  let response: WireResponse;
  try {
    response = await next({ ...wire, headers: asking }, call);
  } catch (error) {
    // unable to ask: a stale response may still answer, unless it (or the request) demands validation (RFC 9111 §4.2.4)
    if (mustValidate(entry, request)) throw error;
    log?.(`cache stale ${wire.method} ${redactUrl(wire.url)} (revalidation failed)`);
    return answered(entry, policy.responseHeaders(), wire.method, 'hit', undefined, wire.url);
  }
  if (policy.revalidatedPolicy(request, { status: response.statusCode, headers: policyHeaders(response.headers) }).modified)
    return fetched(cache, response, wire, request, log);
  response.discard(); // a 304: nothing to read
  // RFC 9111 §3.2: the 304's fields replace and add to the stored ones (http-cache-semantics only replaces)
  const headers = updatedHeaders(entry.headers, response.headers);
  const updated = new CachePolicy(request, { status: entry.statusCode, headers: policyHeaders(headers) }, { shared: false });
  const refreshed: CacheEntry = { ...entry, headers, policy: updated.toObject() };
  await cache.set(wire.url, refreshed, log);
  return answered(refreshed, updated.responseHeaders(), wire.method, 'revalidated', log, wire.url);
}

/** Fields a 304 does not update: they describe the stored body (RFC 9111 §3.2). */
const BODY_FIELDS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'content-range']);

/** The stored header fields, each one the 304 sends replaced by its values, and the ones it adds after them. */
function updatedHeaders(stored: CacheEntry['headers'], fresh: WireResponse['headers']): Array<readonly [string, string]> {
  const sent = new Set(fresh.map(([name]) => name.toLowerCase()).filter((name) => !BODY_FIELDS.has(name)));
  return [...stored.filter(([name]) => !sent.has(name.toLowerCase())), ...fresh.filter(([name]) => sent.has(name.toLowerCase()))];
}

/** Whether a stale entry may not answer when revalidation fails: `must-revalidate`/`no-cache` on it, `no-cache` on the request. */
function mustValidate(entry: CacheEntry, request: CachePolicy.HttpRequest): boolean {
  const stored = (entry.policy as CachePolicy.CachePolicyObject).rescc;
  const asked = request.headers['cache-control'];
  return (
    'must-revalidate' in stored || 'no-cache' in stored || 'proxy-revalidate' in stored || (typeof asked === 'string' && /(^|,)\s*no-cache\b/i.test(asked))
  );
}

function answered(entry: CacheEntry, headers: CachePolicy.Headers, method: string, outcome: CacheOutcome, log: LogLine | undefined, url: string): WireResponse {
  log?.(`cache ${outcome} ${method} ${redactUrl(url)}`);
  return responseOf(entry, headers, method, outcome);
}

/** A response from the server: stored, as its body is read, when the rules allow it. */
function fetched(cache: ResponseCache, response: WireResponse, wire: WireRequest, request: CachePolicy.HttpRequest, log: LogLine | undefined): WireResponse {
  log?.(`cache miss ${wire.method} ${redactUrl(wire.url)}`);
  const missed = { ...response, cache: 'miss' as const, discard: response.discard.bind(response) };
  if (wire.method !== 'GET') return missed;
  const policy = new CachePolicy(request, { status: response.statusCode, headers: policyHeaders(response.headers) }, { shared: false });
  if (!policy.storable() || !authorizationAllows(request, policy)) return missed;
  return storedAsRead(missed, (body) => cache.set(wire.url, entryOf(wire.url, response, body, policy), log), cache.maxBytes);
}

/**
 * A response to a request with credentials is not stored unless it says it may be shared
 * (`public`, `s-maxage`, `must-revalidate`: RFC 9111 §3.5, applied to this private cache too, as
 * the contract asks).
 */
function authorizationAllows(request: CachePolicy.HttpRequest, policy: CachePolicy): boolean {
  if (request.headers.authorization === undefined) return true;
  const rescc = policy.toObject().rescc;
  return 'public' in rescc || 's-maxage' in rescc || 'must-revalidate' in rescc;
}

/**
 * `response` whose body, once read to its end (and no larger than `max`), is handed to `store`
 * before the read completes (so the next request finds it). A body read in part is not stored.
 */
function storedAsRead(response: WireResponse, store: (body: Buffer) => Promise<void>, max: number): WireResponse {
  const source = response.body;
  async function* body(): AsyncGenerator<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of source) {
      size += chunk.byteLength;
      if (size <= max) chunks.push(chunk);
      yield chunk;
    }
    if (size <= max) await store(Buffer.concat(chunks));
  }
  const readAll = response.readAll?.bind(response);
  return {
    ...response,
    body: { [Symbol.asyncIterator]: body },
    readAll: readAll && (() => readAll().then((bytes) => storeWhole(bytes, store, max))),
  };
}

async function storeWhole(bytes: Uint8Array, store: (body: Buffer) => Promise<void>, max: number): Promise<Uint8Array> {
  if (bytes.byteLength <= max) await store(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return bytes;
}

/** The stored responses an unsafe request changed: its URL's, and its `Location`/`Content-Location`'s on the same origin. */
async function invalidate(cache: ResponseCache, url: string, response: WireResponse, log: LogLine | undefined): Promise<void> {
  await cache.delete(url, log);
  const origin = new URL(url).origin;
  for (const [name, value] of response.headers) {
    const lower = name.toLowerCase();
    if (lower !== 'location' && lower !== 'content-location') continue;
    const target = URL.canParse(value, url) ? new URL(value, url) : undefined;
    if (target?.origin === origin) await cache.delete(target.href, log);
  }
}

/** The request as http-cache-semantics reads it. */
function policyRequest(wire: WireRequest): CachePolicy.HttpRequest {
  return { url: wire.target, method: wire.method, headers: policyHeaders(wire.headers) };
}
