/** The cache's own rules for storing a response, on top of RFC 9111's: the request kept, `Authorization`, secrets, hooks. */
import type CachePolicy from 'http-cache-semantics';
import type { HookLists } from '../config/hooks.js';
import { pointsToSecrets, type HeaderPairs } from './cache-entry.js';
import type { CacheView } from './cache-view.js';
import { hooksAddCredentials } from './hook-credentials.js';
import { isPublic } from './response-cache.js';

/** A response's `Cache-Control` directives, as http-cache-semantics parses them. */
type Directives = Readonly<Record<string, unknown>>;

/**
 * Whether a response the rules let a private cache store (with `rescc`, and `fields` to keep)
 * may be stored for the request `view`: not when it points to a secret ({@link pointsToSecrets}),
 * nor, unless public, when the call's `hooks` add credentials the cache cannot see (it could not
 * keep their owners apart).
 */
export function mayStore(view: CacheView, hooks: HookLists | undefined, rescc: Directives, fields: HeaderPairs): boolean {
  if (pointsToSecrets(fields, view.url)) return false;
  return isPublic(rescc) || !hooksAddCredentials(hooks);
}

/**
 * The request as an entry keeps it: only the headers its response's `Vary` names (credentials as
 * digests: `cacheView`), and the request's own cache directives. http-cache-semantics keeps
 * every request header for `Vary`; credentials and API keys have no place in a store (a file, a
 * shared Redis).
 */
export function keptRequest(request: CachePolicy.HttpRequest, responseHeaders: HeaderPairs): CachePolicy.HttpRequest {
  const named = new Set(['cache-control', 'pragma']);
  for (const [name, value] of responseHeaders) {
    if (name.toLowerCase() === 'vary') for (const field of value.split(',')) named.add(field.trim().toLowerCase());
  }
  const headers: CachePolicy.Headers = {};
  for (const name of named) if (request.headers[name] !== undefined) headers[name] = request.headers[name];
  return { ...request, headers };
}

/**
 * A response to a request with `Authorization` is not stored unless it says it may be shared
 * (`public`, `s-maxage`, `must-revalidate`: RFC 9111 §3.5, applied to this private cache too, as
 * the contract asks); and then, unless `public`, only for the same credentials.
 */
export function authorizationAllows(request: CachePolicy.HttpRequest, rescc: Directives): boolean {
  if (request.headers.authorization === undefined) return true;
  return 'public' in rescc || 's-maxage' in rescc || 'must-revalidate' in rescc;
}
