import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type CachePolicy from 'http-cache-semantics';
import type { CacheEntry } from '../config/cache-options.js';
import type { WireResponse } from '../model/backend.js';
import { redactUrisInHeader } from '../core/header-redaction.js';
import { redactUrl } from '../core/redact.js';
import { isCredential, type CacheView } from './cache-view.js';

/** Where a response came from, as `fromServer.cache` says. */
export type CacheOutcome = 'hit' | 'revalidated' | 'miss';

/** Header name/value pairs, as a response and an entry keep them. */
export type HeaderPairs = ReadonlyArray<readonly [string, string]>;

/**
 * Response fields that belong to the exchange that brought them, never to a store: a cookie the
 * jar may have replaced since (and a session a store must not hold), and Digest's per-request
 * proof and next nonce (an answer from the cache would fail the next request's check). So does
 * every field whose name is credential-like by the rule of log redaction (`X-Subject-Token`,
 * `X-CSRF-Token`: {@link isCredential}), but for CORS's `Access-Control-*`, which hold none.
 */
const EXCHANGE_FIELDS = new Set(['set-cookie', 'set-cookie2', 'authentication-info', 'proxy-authentication-info']);

function isExchangeField(name: string): boolean {
  const lower = name.toLowerCase();
  return EXCHANGE_FIELDS.has(lower) || (!lower.startsWith('access-control-') && isCredential(name, lower));
}

/** The fields of `pairs` an entry keeps: all but those of the exchange only ({@link isExchangeField}). */
export function storedFields(pairs: HeaderPairs): HeaderPairs {
  return pairs.filter(([name]) => !isExchangeField(name));
}

/** The fields of `pairs` that belong to their exchange only ({@link isExchangeField}): a 304 passes them on, unstored. */
export function exchangeFields(pairs: HeaderPairs): CachePolicy.Headers {
  return policyHeaders(pairs.filter(([name]) => isExchangeField(name)));
}

/**
 * Whether a URI reference in `pairs` — a `Location`, `Content-Location`, a `Link` target, any
 * value that starts as a URL (the ones `hb -v` redacts), resolved against `base` — has user info
 * or a credential-like parameter (`X-Amz-Signature=`, `access_token=`): a response that says
 * where a secret opens is not stored. One that does not resolve is counted in: the cache
 * cannot tell.
 */
export function pointsToSecrets(pairs: HeaderPairs, base: string): boolean {
  let found = false;
  const check = (reference: string) => ((found ||= hasSecrets(reference, base)), reference);
  for (const [name, value] of pairs) redactUrisInHeader(name, value, check);
  return found;
}

function hasSecrets(reference: string, base: string): boolean {
  if (!URL.canParse(reference, base)) return true;
  const url = new URL(reference, base);
  if (url.username !== '' || url.password !== '') return true;
  let found = false;
  redactUrl(url.href, (value) => ((found = true), value));
  return found;
}

/** A response's headers as http-cache-semantics reads them: lower-case names, repeated values joined (`set-cookie` kept apart). */
export function policyHeaders(pairs: HeaderPairs): CachePolicy.Headers {
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of pairs) {
    const lower = name.toLowerCase();
    const seen = headers[lower];
    if (lower === 'set-cookie') headers[lower] = [...((seen as string[] | undefined) ?? []), value];
    else headers[lower] = seen === undefined ? value : `${seen as string}, ${value}`;
  }
  return headers;
}

/** http-cache-semantics' headers as name/value pairs. */
function headerPairs(headers: CachePolicy.Headers): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(headers)) {
    if (Array.isArray(value)) for (const item of value) pairs.push([name, item]);
    else if (value !== undefined) pairs.push([name, value]);
  }
  return pairs;
}

/**
 * The entry for a response whose body is `body` (as it came off the wire), with its stored fields
 * `headers`, for the request `view` (its URL as the cache keeps it, its connection identity, and
 * its credentials unless the response is `shared`: one every request may get).
 */
export function entryOf(
  view: CacheView,
  shared: boolean,
  response: WireResponse,
  headers: HeaderPairs,
  body: Buffer,
  policy: CachePolicy.CachePolicyObject,
): CacheEntry {
  return sized({
    v: 3,
    url: view.url,
    ...(shared || view.credentials === undefined ? {} : { credentials: view.credentials }),
    ...(view.connection === undefined ? {} : { connection: view.connection }),
    statusCode: response.statusCode,
    message: response.message,
    headers: headers.map(([name, value]) => [name, value] as const),
    body: body.toString('base64'),
    decoded: response.decoded,
    httpVersion: response.httpVersion ?? '1.1',
    policy,
  });
}

/**
 * What an unsafe request that changed `url` (its stored URL) leaves under the URL's shared key:
 * no response (status 0), only a mark, new and random (or the one a dropped shared entry
 * carried). Entries stored from then on carry it; those other users stored before do not, and
 * no longer answer.
 */
export function markerOf(url: string, invalidated: string = randomUUID()): CacheEntry {
  return sized({ v: 3, url, invalidated, statusCode: 0, message: '', headers: [], body: '', decoded: false, httpVersion: '1.1', policy: {} });
}

/** Whether `entry` is a marker ({@link markerOf}), no response. */
export function isMarker(entry: CacheEntry): boolean {
  return entry.statusCode === 0;
}

/** `entry` with its `size`: the body as stored, and the headers twice (as received, and in the policy). */
export function sized(entry: Omit<CacheEntry, 'size'>): CacheEntry {
  let headerBytes = 0;
  for (const [name, value] of entry.headers) headerBytes += name.length + value.length + 4;
  return { ...entry, size: entry.body.length + 2 * headerBytes };
}

/**
 * The response an entry answers with: its status and body, and `headers` (the policy's: `Age`
 * set, a 304's headers merged in). Nothing to discard: no connection is behind it.
 */
export function responseOf(entry: CacheEntry, headers: CachePolicy.Headers, method: string, cache: CacheOutcome): WireResponse {
  const body = method === 'HEAD' ? Buffer.alloc(0) : Buffer.from(entry.body, 'base64');
  return {
    statusCode: entry.statusCode,
    message: entry.message,
    headers: headerPairs(headers),
    body: oneChunk(body),
    decoded: entry.decoded,
    httpVersion: entry.httpVersion,
    cache,
    discard() {},
    readAll: () => Promise.resolve(body),
  };
}

function oneChunk(body: Buffer): AsyncIterable<Uint8Array> {
  return Readable.from(body.length > 0 ? [body] : []);
}
