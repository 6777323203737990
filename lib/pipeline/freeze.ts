import type { ContextMap } from '../config/http-config.js';
import type { Settings } from '../config/settings.js';
import { buildTarget, type Target } from './build-url.js';
import { checkCookie, checkHeaders, FRAMING_HEADERS } from './check-headers.js';
import type { RequestRecord } from '../model/request-record.js';

/** Freezes resolved settings into the immutable record interceptors see. */
export function freezeRecord(method: string, settings: Settings, clientHeaders: boolean): { record: RequestRecord; target: Target } {
  const target = buildTarget(settings.uri);
  const record: RequestRecord = Object.freeze({
    method,
    url: target.url,
    headers: recordHeaders(settings, clientHeaders),
    body: settings.body,
    contentType: settings.contentType,
    charset: settings.charset,
    context: contextLookup(settings.context),
  });
  return { record, target };
}

type HeaderMap = Settings['headers'];

const frozenHeaders = new WeakMap<HeaderMap, Readonly<Record<string, string>>>();
/** The objects sharedHeaders made that pass checkHeaders and hold no framing header: toWireRequest sends them as they are. */
const sendable = new WeakSet<object>();

/** The record's headers: the client's shared object when the request adds none (no header, no cookie), else its own. */
function recordHeaders(settings: Settings, clientHeaders: boolean): Readonly<Record<string, string>> {
  if (settings.cookies.size > 0) return Object.freeze(withCookies(headersOf(settings.headers), settings.cookies));
  return clientHeaders ? sharedHeaders(settings.headers) : Object.freeze(headersOf(settings.headers));
}

/** Whether `headers` is a client's shared header object that was checked when it was made, and frames nothing: it goes on the wire as it is. */
export function isSendableShared(headers: object): boolean {
  return sendable.has(headers);
}

/**
 * The record's headers for `headers`, made and checked once per map: a request that sets no
 * header of its own has its client's map, so its requests share one frozen object. One that
 * fails the check, or carries a framing header, is left to toWireRequest, which checks and
 * copies it per request as any other (and names what is wrong).
 */
function sharedHeaders(headers: HeaderMap): Readonly<Record<string, string>> {
  let frozen = frozenHeaders.get(headers);
  if (!frozen) {
    frozenHeaders.set(headers, (frozen = Object.freeze(headersOf(headers))));
    if (isSendable(frozen)) sendable.add(frozen);
  }
  return frozen;
}

function isSendable(headers: Readonly<Record<string, string>>): boolean {
  for (const name in headers) if (FRAMING_HEADERS.has(name.toLowerCase())) return false;
  try {
    checkHeaders(headers);
    return true;
  } catch {
    return false;
  }
}

function headersOf(map: HeaderMap): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of map.values()) putOwn(headers, name, value);
  return headers;
}

/**
 * `headers` with the request's cookies in its `Cookie` header, after the pairs of one the
 * caller wrote there themselves (a name set in both goes once, as `cookies` has it).
 */
function withCookies(headers: Record<string, string>, cookies: Settings['cookies']): Record<string, string> {
  const pairs: string[] = [];
  for (const name in headers) {
    if (name.toLowerCase() !== 'cookie') continue;
    for (const pair of headers[name].split(';')) {
      const trimmed = pair.trim();
      if (trimmed !== '' && !cookies.has(trimmed.split('=', 1)[0].trim())) pairs.push(trimmed);
    }
  }
  for (const [name, value] of cookies) {
    checkCookie(name, value);
    pairs.push(`${name}=${value}`);
  }
  setHeader(headers, 'Cookie', pairs.join('; '));
  return headers;
}

const lookups = new WeakMap<ContextMap, RequestRecord['context']>();

/** One lookup function per context map (a client's is shared by all its requests). */
function contextLookup(context: ContextMap): RequestRecord['context'] {
  let lookup = lookups.get(context);
  if (!lookup) {
    lookup = (type, id) => context.get(type.toLowerCase())?.get(id);
    lookups.set(context, lookup);
  }
  return lookup;
}

/** Sets a header replacing any of the same name in another case. */
function setHeader(headers: Record<string, string>, name: string, value: string): void {
  const lower = name.toLowerCase();
  for (const existing in headers) if (existing.toLowerCase() === lower) delete headers[existing];
  putOwn(headers, name, value);
}

/** `target[name] = value`, except that a name like `__proto__` becomes a property too instead of changing the prototype. */
export function putOwn(target: Record<string, string>, name: string, value: string): void {
  if (name === '__proto__') Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
  else target[name] = value;
}
