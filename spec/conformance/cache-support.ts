// What the cache scenarios share: a GET that says where its answer came from, canned JSON
// answers, and a store that keeps its entries as JSON text (as a file or Redis would).
import type { ServerResponse } from 'node:http';
import type { CacheEntry, CacheStore, FromServer, HttpBuilder, HttpConfig } from '../../lib/index.js';
import type { RecordedRequest } from '../support/recorded-request.js';
import { writeResponse, type ResponseSpec } from '../support/response-writer.js';

/** What a GET answered: where it came from, its body, and the headers a test looks at. */
export interface Seen {
  cache: FromServer['cache'];
  body: unknown;
  age: string | null;
}

export function get(http: HttpBuilder, path: string, more?: (c: HttpConfig) => void): Promise<Seen> {
  return http.get((c) => {
    c.request.uri.path = path;
    more?.(c);
    c.response.success((fromServer, body) => ({ cache: fromServer.cache, body, age: fromServer.headers.get('age') }));
  }) as Promise<Seen>;
}

export const json = (value: unknown, headers: Record<string, string | string[]> = {}): ResponseSpec => ({
  headers: { 'Content-Type': 'application/json', ...headers },
  body: JSON.stringify(value),
});

/** Answers 304 to a request whose If-None-Match names `etag`, else `spec` (with the ETag). */
export function withEtag(etag: string, spec: ResponseSpec, notModified: Record<string, string> = {}) {
  return (req: RecordedRequest, res: ServerResponse) => {
    if (req.headers['if-none-match'] === etag) writeResponse(res, { status: 304, headers: { ETag: etag, ...notModified } });
    else writeResponse(res, { ...spec, headers: { ...spec.headers, ETag: etag } });
  };
}

/** A store that keeps each entry as JSON text under its key, as a file or Redis would; `text()` is all it holds, keys included. */
export function jsonStore(): CacheStore & { readonly saved: Map<string, string>; text(): string } {
  const saved = new Map<string, string>();
  return {
    saved,
    text: () => [...saved].flat().join('\n'),
    get: (key) => (saved.has(key) ? (JSON.parse(saved.get(key)!) as CacheEntry) : undefined),
    set: (key, entry) => void saved.set(key, JSON.stringify(entry)),
    delete: (key) => void saved.delete(key),
  };
}
