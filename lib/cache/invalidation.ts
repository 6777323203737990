import type { LogLine } from '../config/logger.js';
import type { WireResponse } from '../model/backend.js';
import { markerOf } from './cache-entry.js';
import { storedUrl, type CacheView } from './cache-view.js';
import { placeOf, type ResponseCache } from './response-cache.js';

/** Methods whose success changes what a URL holds: its stored response goes (RFC 9111 §4.4). */
export const UNSAFE: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The stored responses an unsafe request changed: its URL's, and its `Location`/`Content-Location`'s
 * on the same origin. Of each, the one for the request's credentials goes, and the shared one is
 * replaced by a new mark ({@link markerOf}): other users' own entries stored before it do not
 * carry it, and no longer answer (the cache cannot list them to delete them).
 */
export async function invalidate(cache: ResponseCache, view: CacheView, response: WireResponse, log: LogLine | undefined): Promise<void> {
  const drop = async (target: CacheView) => {
    await cache.set(placeOf(target, true), markerOf(target.url), log);
    if (target.credentials !== undefined) await cache.delete(placeOf(target, false), log);
  };
  await drop(view);
  const origin = new URL(view.url).origin;
  for (const [name, value] of response.headers) {
    const lower = name.toLowerCase();
    if (lower !== 'location' && lower !== 'content-location') continue;
    const target = URL.canParse(value, view.url) ? new URL(value, view.url) : undefined;
    if (target?.origin === origin) await drop({ ...view, url: storedUrl(target.href, cache.digest) });
  }
}
