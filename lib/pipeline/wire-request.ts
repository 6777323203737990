import type { WireBody, WireRequest } from '../backends/backend.js';
import { ConfigError } from '../errors.js';
import type { EncodedRequestBody } from '../content/encoders.js';
import type { Target } from './build-url.js';
import { buildTarget } from './build-url.js';
import { checkHeaders } from './check-headers.js';
import type { Plan } from './freeze.js';
import type { RequestRecord } from './request-record.js';
import { redactUserInfo } from '../config/uri-config.js';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH']);
const FRAMING = new Set(['content-type', 'content-length', 'transfer-encoding']);

/**
 * Turns the record (possibly changed by an interceptor) into what goes on the wire: checked
 * headers, encoded body, and the framing headers every backend sends the same way.
 */
export function toWireRequest(record: RequestRecord, plan: Plan, encoded: EncodedRequestBody | undefined): WireRequest {
  if (typeof record !== 'object' || record === null || typeof record.method !== 'string' || typeof record.url !== 'string') {
    throw new ConfigError('an interceptor passed something other than a request record to next()');
  }
  const target = record.url === plan.target.url ? plan.target : targetOf(record.url);
  checkHeaders(record.headers);
  const headers: Record<string, string> = {};
  let callerLength: string | undefined;
  for (const name in record.headers) {
    const lower = name.toLowerCase();
    if (!FRAMING.has(lower)) headers[name] = record.headers[name]!;
    else if (lower === 'content-length') callerLength = record.headers[name];
  }
  const contentType = encoded?.contentType ?? record.contentType;
  if (contentType !== undefined) {
    headers['Content-Type'] = record.charset === undefined ? contentType : `${contentType}; charset=${record.charset}`;
  }
  frame(headers, record.method, encoded?.body, callerLength);
  return {
    method: record.method,
    url: target.url,
    secure: target.secure,
    hostname: target.hostname,
    port: target.port,
    target: target.target,
    headers,
    body: encoded?.body,
    signal: undefined,
  };
}

/** `Content-Length` when the size is known, chunked otherwise; POST/PUT/PATCH without body send `Content-Length: 0`. */
function frame(headers: Record<string, string>, method: string, body: WireBody | undefined, callerLength: string | undefined): void {
  if (body === undefined) {
    if (BODY_METHODS.has(method)) headers['Content-Length'] = '0';
  } else if (body.length !== undefined) {
    headers['Content-Length'] = String(body.length);
  } else if (callerLength !== undefined) {
    headers['Content-Length'] = callerLength; // the caller knows the stream's size
  } else {
    headers['Transfer-Encoding'] = 'chunked';
  }
}

/** An interceptor changed the URL: parse it again, with the same rules as a configured one. */
function targetOf(url: string): Target {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // no cause: node's TypeError keeps the raw input, credentials included
    throw new ConfigError(`an interceptor set an invalid URL: '${redactUserInfo(url)}'`);
  }
  const rest = url.slice(url.indexOf('//') + 2);
  const slash = rest.search(/[/?#]/);
  const pathAndQuery = slash < 0 ? '/' : rest.slice(slash).split('#')[0];
  return buildTarget({
    scheme: parsed.protocol.slice(0, -1),
    host: parsed.hostname,
    port: parsed.port === '' ? undefined : parsed.port,
    path: '',
    query: new Map(),
    fragment: undefined,
    raw: pathAndQuery.startsWith('?') ? `/${pathAndQuery}` : pathAndQuery,
  });
}
