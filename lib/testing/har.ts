// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/): the types, an entry built from one
// exchange with its credentials written as `***`, and a file read back as replies for a mock.
import { readFileSync } from 'node:fs';
import { ConfigError } from '../core/errors.js';
import { parseMediaType } from '../core/media-type.js';
import { VERSION } from '../core/version.js';
import { hideReferenceUserInfo } from '../core/redact.js';
import { isCredentialHeader, redactUrisInHeader } from '../core/header-redaction.js';
import type { WireRequest, WireResponse } from '../model/backend.js';

/** A HAR file: one `log`. */
export interface Har {
  readonly log: HarLog;
}

/** The `log` of a HAR file: what made it, and the exchanges in the order they ended. */
export interface HarLog {
  /** `'1.2'`. */
  readonly version: string;
  readonly creator: { readonly name: string; readonly version: string };
  readonly entries: HarEntry[];
}

/** A header or query parameter. */
export interface HarNameValue {
  readonly name: string;
  readonly value: string;
}

/** One request and its response. */
export interface HarEntry {
  /** When the request was handed to the backend (ISO 8601). */
  readonly startedDateTime: string;
  /** Milliseconds in all: `wait + receive`. */
  readonly time: number;
  readonly request: HarRequest;
  readonly response: HarResponse;
  readonly cache: Record<string, never>;
  /** `send` is 0: the recorder sees when the response head arrives, not when the request was out. */
  readonly timings: { readonly send: number; readonly wait: number; readonly receive: number };
}

/** The request of an entry: headers as the pipeline handed them to the backend. */
export interface HarRequest {
  readonly method: string;
  readonly url: string;
  /** `'HTTP/1.1'` or `'HTTP/2'`: the version the exchange went in. */
  readonly httpVersion: string;
  readonly cookies: HarNameValue[];
  readonly headers: HarNameValue[];
  readonly queryString: HarNameValue[];
  /** Only when there is a body. */
  readonly postData?: HarPostData;
  readonly headersSize: number;
  readonly bodySize: number;
}

/** A request body: UTF-8 text, or base64 with `_encoding: 'base64'` (a custom field). */
export interface HarPostData {
  readonly mimeType: string;
  readonly text: string;
  readonly _encoding?: 'base64';
}

/** The response of an entry: headers as received. */
export interface HarResponse {
  readonly status: number;
  readonly statusText: string;
  readonly httpVersion: string;
  readonly cookies: HarNameValue[];
  readonly headers: HarNameValue[];
  readonly content: HarContent;
  /** The `Location` header, or `''`. */
  readonly redirectURL: string;
  readonly headersSize: number;
  /** Bytes on the wire; -1 when the backend decoded the body itself (fetch). */
  readonly bodySize: number;
}

/**
 * A response body, decoded (Content-Encoding undone): UTF-8 text for a text content type, else
 * base64 with `encoding: 'base64'`. `_notDecoded` (a custom field): the coding could not be
 * undone, so `text` holds the bytes as they came and a replay sends their Content-Encoding too.
 */
export interface HarContent {
  /** Decoded size in bytes. */
  readonly size: number;
  /** `size` minus the bytes on the wire, when the body came compressed. */
  readonly compression?: number;
  readonly mimeType: string;
  readonly text: string;
  readonly encoding?: 'base64';
  readonly _notDecoded?: true;
}

/** One exchange as the recorder saw it. */
export interface Exchange {
  readonly started: Date;
  readonly request: WireRequest;
  /** The request body, `undefined` for none. */
  readonly requestBody: Uint8Array | undefined;
  readonly response: WireResponse;
  /** The body bytes as the backend gave them. */
  readonly wireBody: Uint8Array;
  /** The body with its Content-Encoding undone; `undefined` when that failed. */
  readonly content: Uint8Array | undefined;
  /** Milliseconds until the response head, and reading the body. */
  readonly wait: number;
  readonly receive: number;
}

/** What a HAR file's credentials are written as. */
export const REDACTED = '***';

/** A new, empty HAR document. */
export function emptyHar(): Har {
  return { log: { version: '1.2', creator: { name: 'httpbuilder-ts', version: VERSION }, entries: [] } };
}

/**
 * The HAR entry of an exchange: credential header values (request and response) and URL user
 * info written as `***`, by the rule of logs and `hb -v` ({@link isCredentialHeader}).
 */
export function harEntry(exchange: Exchange): HarEntry {
  const { request, response, requestBody, wireBody, content } = exchange;
  const httpVersion = response.httpVersion === '2.0' ? 'HTTP/2' : 'HTTP/1.1';
  const requestHeaders = Object.entries(request.headers).map(([name, value]) => redacted(name, value));
  const responseHeaders = response.headers.map(([name, value]) => redacted(name, value));
  const wait = rounded(exchange.wait);
  const receive = rounded(exchange.receive);
  return {
    startedDateTime: exchange.started.toISOString(),
    time: rounded(wait + receive),
    request: {
      method: request.method,
      url: hideReferenceUserInfo(request.url),
      httpVersion,
      cookies: [],
      headers: requestHeaders,
      queryString: queryOf(request.url),
      ...(requestBody && requestBody.length > 0 ? { postData: postData(requestBody, headerIn(requestHeaders, 'content-type') ?? '') } : {}),
      headersSize: -1,
      bodySize: requestBody?.length ?? 0,
    },
    response: {
      status: response.statusCode,
      statusText: response.message,
      httpVersion,
      cookies: [],
      headers: responseHeaders,
      content: contentOf(content ?? wireBody, headerIn(responseHeaders, 'content-type') ?? '', content === undefined, response.decoded ? -1 : wireBody.length),
      redirectURL: headerIn(responseHeaders, 'location') ?? '',
      headersSize: -1,
      // fetch hands over the decoded body: how many bytes came is unknown
      bodySize: response.decoded ? -1 : wireBody.length,
    },
    cache: {},
    timings: { send: 0, wait, receive },
  };
}

function rounded(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/**
 * A header for the file: a credential's value as `***`, user info in its URLs (`Location`,
 * `Referer`, `Link` targets) too. Query strings stay: a replay matches on them.
 */
function redacted(name: string, value: string): HarNameValue {
  return { name, value: isCredentialHeader(name) ? REDACTED : redactUrisInHeader(name, value, hideReferenceUserInfo) };
}

function headerIn(headers: readonly HarNameValue[], name: string): string | undefined {
  return headers.find((header) => header.name.toLowerCase() === name)?.value;
}

function queryOf(url: string): HarNameValue[] {
  if (!URL.canParse(url)) return [];
  return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
}

function postData(body: Uint8Array, mimeType: string): HarPostData {
  const text = textOf(body, mimeType);
  return text === undefined ? { mimeType, text: base64(body), _encoding: 'base64' } : { mimeType, text };
}

function contentOf(body: Uint8Array, mimeType: string, notDecoded: boolean, wireSize: number): HarContent {
  const text = notDecoded ? undefined : textOf(body, mimeType);
  const compression = wireSize >= 0 && !notDecoded && body.length !== wireSize ? { compression: body.length - wireSize } : {};
  const encoded: Pick<HarContent, 'text' | 'encoding'> = text === undefined ? { text: base64(body), encoding: 'base64' } : { text };
  return { size: body.length, ...compression, mimeType, ...encoded, ...(notDecoded ? { _notDecoded: true } : {}) };
}

// fatal: bytes that are no UTF-8 go as base64; ignoreBOM: a BOM is kept, so a replay sends the same bytes
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as text when its content type is a text one and its bytes are UTF-8, else `undefined`. */
function textOf(body: Uint8Array, mimeType: string): string | undefined {
  if (!isTextType(mimeType)) return undefined;
  try {
    return utf8.decode(body);
  } catch {
    return undefined;
  }
}

/** text/*, JSON, XML, `+json`, `+xml`, form-urlencoded, JavaScript. */
function isTextType(contentType: string): boolean {
  const { type } = parseMediaType(contentType);
  return (
    type.startsWith('text/') ||
    /^application\/(?:json|xml|x-www-form-urlencoded|(?:x-)?javascript|ecmascript)$/.test(type) ||
    /\/[^/]+\+(?:json|xml)$/.test(type)
  );
}

function base64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/**
 * Reads a HAR file, checked enough to replay or append to: a `log` with an `entries` array whose
 * entries have a request method and URL and a response status. Errors name `caller` and the file.
 */
export function readHar(file: string, caller: string): Har {
  const fail = (why: string) => new ConfigError(`${caller}: ${file} is not a HAR file: ${why}`);
  let har: unknown;
  try {
    har = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    if (error instanceof SyntaxError) throw fail(error.message);
    throw error; // a missing or unreadable file says so itself
  }
  const log = (har as { log?: Partial<HarLog> } | null)?.log;
  if (typeof log !== 'object' || log === null || !Array.isArray(log.entries)) throw fail('it has no log.entries array');
  log.entries.forEach((entry: Partial<HarEntry> | null, index) => {
    const request = entry?.request;
    if (typeof request?.method !== 'string' || typeof request.url !== 'string' || typeof entry?.response?.status !== 'number')
      throw fail(`entry ${index} has no request.method, request.url or response.status`);
  });
  return har as Har;
}

/** What a mock answers for one entry, and the request it expects. */
export interface HarReplay {
  readonly method: string;
  /** The recorded URL, without user info (requests on the wire carry none). */
  readonly url: string;
  /** The exact request body to match, `undefined` when the request had none. */
  readonly requestBody: string | Buffer | undefined;
  readonly status: number;
  readonly body: Buffer;
  readonly headers: Readonly<Record<string, string[]>>;
}

// the body is replayed decoded, and the mock frames it itself
const NOT_REPLAYED = new Set(['content-encoding', 'content-length', 'transfer-encoding']);

/** The reply of an entry: recorded status and headers (repeated ones kept apart), decoded body. */
export function replayOf(entry: HarEntry): HarReplay {
  const { request, response } = entry;
  const content = response.content as Partial<HarContent> | undefined;
  const headers: Record<string, string[]> = {};
  const names = new Map<string, string>(); // lower case → the first spelling, so `Set-Cookie` and `set-cookie` group
  for (const { name, value } of response.headers ?? []) {
    const key = name.toLowerCase();
    if (NOT_REPLAYED.has(key) && !(key === 'content-encoding' && content?._notDecoded)) continue;
    if (!names.has(key)) names.set(key, name);
    (headers[names.get(key)!] ??= []).push(value);
  }
  const body = Buffer.from(content?.text ?? '', content?.encoding === 'base64' ? 'base64' : 'utf8');
  const posted = request.postData;
  const requestBody = posted === undefined ? undefined : posted._encoding === 'base64' ? Buffer.from(posted.text ?? '', 'base64') : (posted.text ?? '');
  return { method: request.method, url: userInfoDropped(request.url), requestBody, status: response.status, body, headers };
}

function userInfoDropped(url: string): string {
  if (!URL.canParse(url)) return url;
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}
