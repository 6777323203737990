import CachePolicy from 'http-cache-semantics';
import type { LogLine } from '../config/logger.js';
import type { CacheEntry } from '../config/cache-options.js';
import type { WireRequest, WireResponse } from '../model/backend.js';
import { redactUrl } from '../core/redact.js';
import type { Send, WireCall } from '../pipeline/plan.js';
import { entryOf, exchangeFields, markerOf, policyHeaders, responseOf, sized, storedFields, type CacheOutcome, type HeaderPairs } from './cache-entry.js';
import { cacheView, type CacheView } from './cache-view.js';
import { invalidate, UNSAFE } from './invalidation.js';
import { isPublic, placeOf, type ResponseCache, type Stored } from './response-cache.js';
import { goesElsewhere, storedAsRead, storedEmpty, storedWhole } from './stored-body.js';
import { authorizationAllows, keptRequest, mayStore } from './storing-rules.js';
import { hooksAddCredentials } from './hook-credentials.js';

/** A caller's own conditional or range request: its answer (a 304, a 206) is the caller's to handle. */
const CALLERS_CONDITIONS = ['if-none-match', 'if-modified-since', 'if-match', 'if-unmodified-since', 'if-range', 'range'];
/** Fields a 304 does not update: they describe the stored body (RFC 9111 §3.2). */
const BODY_FIELDS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'content-range']);

/** What one GET or HEAD needs on its way through the stage. */
interface Lookup {
  readonly cache: ResponseCache;
  readonly next: Send;
  readonly wire: WireRequest;
  readonly call: WireCall;
  /** the request as the cache reads it: its credentials digested, and their digest */
  readonly view: CacheView;
  /** the stored response found for it (stale, when the request goes out), and where it is */
  readonly found: Stored | undefined;
  /** the mark the last unsafe request left on the URL (under its shared key): what is stored now carries it */
  readonly invalidated: string | undefined;
  readonly log: LogLine | undefined;
}

/**
 * The cache stage (`client.cache`): a private RFC 9111 cache for GET and HEAD, with
 * http-cache-semantics deciding freshness and revalidation. A fresh stored response answers
 * without a request (`'hit'`); a stale one is revalidated with `If-None-Match` /
 * `If-Modified-Since`, a `304` answering with the stored body and the new headers
 * (`'revalidated'`); anything else comes from the server (`'miss'`) and is stored when the rules
 * allow. A HEAD is answered from a fresh stored GET. Unsafe methods that succeed drop the stored
 * response of their URL (and of their `Location`/`Content-Location`).
 *
 * A stored response answers only a request with the same credentials, unless it is `public`
 * (see {@link ResponseCache}); no credential value goes to the store ({@link cacheView}).
 */
export function caching(next: Send): Send {
  return function cachedSend(wire: WireRequest, call: WireCall): Promise<WireResponse> {
    const cache = call.plan.cache;
    return cache ? cached(cache, next, wire, call) : next(wire, call);
  };
}

async function cached(cache: ResponseCache, next: Send, wire: WireRequest, call: WireCall): Promise<WireResponse> {
  const log = call.plan.execution.logger;
  if (wire.method !== 'GET' && wire.method !== 'HEAD') {
    const response = await next(wire, call);
    if (UNSAFE.has(wire.method) && response.statusCode < 400) await invalidate(cache, cacheView(wire, call.plan.credentials, cache), response, log);
    return response;
  }
  const view = cacheView(wire, call.plan.credentials, cache);
  if (CALLERS_CONDITIONS.some((name) => view.request.headers[name] !== undefined)) return next(wire, call);
  // hooks seen adding credentials the cache cannot see: only a public entry answers
  const { stored: found, invalidated } = await cache.find(view, log, hooksAddCredentials(call.plan.execution.hooks));
  const lookup: Lookup = { cache, next, wire, call, view, found, invalidated, log };
  if (found && isFresh(found, view.request)) return answered(lookup, found, found.policy.responseHeaders(), 'hit');
  if (found && wire.method === 'GET') return revalidated(lookup, found);
  return fetched(lookup, await next(wire, call), false);
}

/**
 * Whether the stored response answers `request` as it is. http-cache-semantics revalidates a
 * `must-revalidate` response even while it is fresh, and never answers a HEAD from a GET: RFC 9111
 * allows both (§5.2.2.2 is about stale responses; §4 lets a HEAD use a stored GET), so it is asked
 * about a GET, with `must-revalidate` counted only once the response is stale.
 */
function isFresh({ entry, policy }: Stored, request: CachePolicy.HttpRequest): boolean {
  const asGet = { ...request, method: 'GET' };
  const stored = entry.policy as CachePolicy.CachePolicyObject;
  if (!('must-revalidate' in stored.rescc)) return policy.satisfiesWithoutRevalidation(asGet);
  const { 'must-revalidate': _, ...rescc } = stored.rescc;
  return !policy.stale() && CachePolicy.fromObject({ ...stored, rescc }).satisfiesWithoutRevalidation(asGet);
}

/**
 * A stale entry, asked again with its validators. A 304 for it answers with the stored body and
 * the 304's fields; a 304 for something else (another ETag) drops it and asks again without
 * conditions; any other answer is a new response. A failure to ask fails the call (retries above
 * may try again): a stale response is never served instead, as got's and undici's caches do.
 */
async function revalidated(lookup: Lookup, { entry, policy, key }: Stored): Promise<WireResponse> {
  const { next, wire, call, view } = lookup;
  const conditions = policy.revalidationHeaders(view.request);
  const asking = { ...wire.headers };
  if (typeof conditions['if-none-match'] === 'string') asking['If-None-Match'] = conditions['if-none-match'];
  if (typeof conditions['if-modified-since'] === 'string') asking['If-Modified-Since'] = conditions['if-modified-since'];
  const response = await next({ ...wire, headers: asking }, call);
  if (response.statusCode !== 304) return fetched(lookup, response, true);
  response.discard(); // nothing to read
  if (otherValidator(entry.headers, response.headers)) {
    await dropped(lookup, key);
    return fetched({ ...lookup, found: undefined }, await next(wire, call), false);
  }
  // RFC 9111 §3.2: the 304's fields replace and add to the stored ones (http-cache-semantics only replaces)
  const fresh = storedFields(response.headers);
  const sent = new Set(fresh.map(([name]) => name.toLowerCase()).filter((name) => !BODY_FIELDS.has(name)));
  const headers = [...entry.headers.filter(([name]) => !sent.has(name.toLowerCase())), ...fresh.filter(([name]) => sent.has(name.toLowerCase()))];
  const updated = new CachePolicy(keptRequest(view.request, headers), { status: entry.statusCode, headers: policyHeaders(headers) }, { shared: false });
  const state = updated.toObject();
  const shared = isPublic(state.rescc);
  const refreshed = sized({ ...entry, credentials: shared ? undefined : view.credentials, headers, policy: state });
  // a 304 that says no-store still answers this request, and takes the entry away
  if (updated.storable() && mayStore(view, call.plan.execution.hooks, state.rescc, fresh)) await kept(lookup, refreshed, shared);
  else await dropped(lookup, key);
  // the 304's own cookies and Authentication-Info are this exchange's: passed on, not stored
  const answer = { ...updated.responseHeaders(), ...exchangeFields(response.headers) };
  return answered(lookup, { entry: refreshed, policy: updated, key }, answer, 'revalidated');
}

/**
 * Stores `entry` where a response for the lookup's credentials belongs ({@link placeOf}), and
 * drops what it replaces: the stale entry found under another key, or (for a public response)
 * the credentials' own entry, which a lookup would find first.
 */
async function kept(lookup: Lookup, entry: CacheEntry, shared: boolean): Promise<void> {
  const { cache, view, found, invalidated, log } = lookup;
  const key = placeOf(view, shared);
  // stored after the last unsafe request: it carries that request's mark (and under the shared key, keeps it there)
  await cache.set(key, invalidated === undefined ? entry : { ...entry, invalidated }, log);
  if (found !== undefined && found.key !== key) await dropped(lookup, found.key);
  else if (shared && view.credentials !== undefined) await cache.delete(placeOf(view, false), log);
}

/**
 * Takes away the entry found under `key`. Under the shared key, the mark of the last unsafe
 * request it carried stays there ({@link markerOf}): other users' older entries must not come back.
 */
async function dropped({ cache, view, invalidated, log }: Lookup, key: string): Promise<void> {
  if (invalidated !== undefined && key === placeOf(view, true)) await cache.set(key, markerOf(view.url, invalidated), log);
  else await cache.delete(key, log);
}

/**
 * Whether a 304 names a validator other than the stored response's (RFC 9111 §4.3.4): then it is
 * about another representation. One without validators answers the request that asked with this
 * entry's: the one response stored for the URL (http-cache-semantics would not select it).
 */
function otherValidator(stored: HeaderPairs, fresh: HeaderPairs): boolean {
  const [was, now] = [policyHeaders(stored), policyHeaders(fresh)];
  const weak = (etag: unknown) => String(etag).replace(/^\s*W\//, '');
  if (now.etag !== undefined && was.etag !== undefined) return weak(now.etag) !== weak(was.etag);
  return now['last-modified'] !== undefined && was['last-modified'] !== undefined && now['last-modified'] !== was['last-modified'];
}

function answered({ wire, log }: Lookup, { entry }: Stored, headers: CachePolicy.Headers, outcome: CacheOutcome): WireResponse {
  log?.(`cache ${outcome} ${wire.method} ${redactUrl(wire.url)}`);
  return responseOf(entry, headers, wire.method, outcome);
}

/**
 * A response from the server, stored when the rules allow (`replacing`: an entry was there, and
 * goes when this one may not be stored). A 3xx (which the redirect stage does not read) or an
 * empty body is stored at once; any other body as it is read, once read to its end.
 */
async function fetched(lookup: Lookup, response: WireResponse, replacing: boolean): Promise<WireResponse> {
  const { cache, wire, view, found, log } = lookup;
  log?.(`cache miss ${wire.method} ${redactUrl(wire.url)}`);
  const missed = { ...response, cache: 'miss' as const, discard: response.discard.bind(response) };
  if (wire.method !== 'GET') return missed;
  const fields = storedFields(response.headers);
  const headers = policyHeaders(fields);
  const policy = new CachePolicy(keptRequest(view.request, fields), { status: response.statusCode, headers }, { shared: false });
  const state = policy.storable() ? policy.toObject() : undefined;
  if (state === undefined || !authorizationAllows(view.request, state.rescc) || !mayStore(view, lookup.call.plan.execution.hooks, state.rescc, fields)) {
    if (replacing && found) await dropped(lookup, found.key);
    return missed;
  }
  const shared = isPublic(state.rescc);
  const store = (body: Buffer) => kept(lookup, entryOf(view, shared, response, fields, body, state), shared);
  if (headers['content-length'] === '0' || response.statusCode === 204) return storedEmpty(missed, store);
  if (response.statusCode >= 300 && response.statusCode < 400) return storedWhole(missed, store, cache.maxBytes);
  return goesElsewhere(lookup.call, headers) ? missed : storedAsRead(missed, store, cache.maxBytes);
}
