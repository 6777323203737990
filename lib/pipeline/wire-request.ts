import { BODY_METHODS, streamedBody, type WireBody, type WireRequest } from '../model/backend.js';
import { ConfigError, EncodeError } from '../core/errors.js';
import type { CompressedRequestBody } from '../content/request-compression.js';
import { targetOfUrl, type Target } from './build-url.js';
import { checkHeaderValue, checkHeaders, FRAMING_HEADERS, TOKEN } from './check-headers.js';
import { isSendableShared, putOwn } from './freeze.js';
import type { Plan } from './plan.js';
import { DEFAULT_STALL_MS } from '../config/execution-options.js';
import type { RequestRecord } from '../model/request-record.js';
import { redactUserInfo } from '../core/redact.js';
import { CONTROL, escape } from '../core/text.js';

/**
 * Turns the record (possibly changed by an interceptor) into what goes on the wire, and checks
 * all of it once, here, for every backend: the target, every header (the derived ones too) and
 * the framing (`Content-Length` when the size is known, chunked otherwise). A client's shared
 * header object was checked when it was made: its requests check only what they add to it.
 */
export function toWireRequest(record: RequestRecord, plan: Plan, encoded: CompressedRequestBody | undefined): WireRequest {
  // the method goes on the request line as is: only an RFC 9110 token may
  if (!TOKEN.test(record.method)) throw new ConfigError(`the method '${escape(record.method)}' is not a valid HTTP method token`);
  // CONNECT asks for a tunnel, with an authority as its target: no backend sends it through this path
  if (record.method.length === 7 && record.method.toUpperCase() === 'CONNECT')
    throw new ConfigError('the method CONNECT is not supported (it opens a tunnel; use a proxy agent)');
  const target = record.url === plan.target.url ? plan.target : targetOf(record.url);
  const contentType = encoded?.contentType ?? record.contentType;
  const encodedBody = encoded?.body;
  // nothing to add or drop: no content type, no body, no `Content-Length: 0` for the method
  const addsNothing = contentType === undefined && encodedBody === undefined && !BODY_METHODS.has(record.method);
  const contentTypeValue = contentType === undefined || record.charset === undefined ? contentType : withCharset(contentType, record.charset);
  // a client's shared headers, checked when they were made: only what is added here needs a check
  const checked = isSendableShared(record.headers);
  if (checked && addsNothing) return wireRequest(record, plan, target, record.headers, undefined);
  let built: Record<string, string>;
  let callerLength: string | undefined;
  if (checked) built = { ...record.headers };
  else {
    built = {};
    for (const name in record.headers) {
      const lower = name.toLowerCase();
      if (!FRAMING_HEADERS.has(lower)) putOwn(built, name, record.headers[name]);
      else if (lower === 'content-length') callerLength = record.headers[name];
    }
  }
  if (contentTypeValue !== undefined) built['Content-Type'] = contentTypeValue;
  if (encoded?.contentEncoding !== undefined) {
    built['Content-Encoding'] = encoded.contentEncoding;
    callerLength = undefined; // it counted the bytes before compression (content/request-compression.ts)
  }
  const body = frame(built, record.method, encodedBody, callerLength);
  if (!checked) checkHeaders(built);
  else if (contentTypeValue !== undefined) checkHeaderValue('Content-Type', contentTypeValue); // the framing frame() set is digits or a constant
  return wireRequest(record, plan, target, built, body);
}

/** `type; charset=x`; a type that names a charset already keeps it when it is the same one, and is refused when it is another. */
function withCharset(contentType: string, charset: string): string {
  const named = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(contentType)?.[1];
  if (named === undefined) return `${contentType}; charset=${charset}`;
  if (named.toLowerCase() === charset.toLowerCase()) return contentType;
  throw new ConfigError(
    `request.contentType '${escape(contentType)}' names charset '${escape(named)}', and request.charset is '${escape(charset)}': set only one`,
  );
}

function wireRequest(record: RequestRecord, plan: Plan, target: Target, headers: Readonly<Record<string, string>>, body: WireBody | undefined): WireRequest {
  // the transport's stall limits: the 5-minute defaults cost a plain call no control of its own
  const { response = DEFAULT_STALL_MS, read = DEFAULT_STALL_MS } = plan.execution.timeout;
  return {
    method: record.method,
    url: target.url,
    secure: target.secure,
    hostname: target.hostname,
    port: target.port,
    target: target.target,
    headers,
    body,
    headersTimeout: response,
    bodyTimeout: read,
    proxy: undefined,
    // set for each attempt by sendAttempt (attempt.ts); here so every request has the same shape,
    // and a copy that sets them adds no key (docs/performance.md: no spread followed by new keys)
    timings: undefined,
    signal: undefined,
    connectTimeout: undefined,
  };
}

/** Sets the framing headers; a caller's `Content-Length` on a stream is held to its word. */
function frame(headers: Record<string, string>, method: string, body: WireBody | undefined, callerLength: string | undefined): WireBody | undefined {
  if (body === undefined) {
    if (BODY_METHODS.has(method)) headers['Content-Length'] = '0';
  } else if (body.length !== undefined) {
    // a wire body states its own length (an encoder's { wire }, a streamedBody): it goes on the wire, so it must be a byte count
    if (!Number.isSafeInteger(body.length) || body.length < 0) throw new EncodeError("the encoded body's length must be a whole number of bytes");
    headers['Content-Length'] = String(body.length);
  } else if (callerLength !== undefined) {
    if (!/^\d{1,15}$/.test(callerLength)) throw new ConfigError(`header 'Content-Length' must be a number of bytes`);
    headers['Content-Length'] = callerLength;
    return exactly(Number(callerLength), body);
  } else {
    headers['Transfer-Encoding'] = 'chunked';
  }
  return body;
}

/**
 * A stream that must be exactly `length` bytes: a longer one would smuggle its excess bytes in
 * as the next request on the connection, a shorter one would leave the server waiting.
 */
function exactly(length: number, body: WireBody): WireBody {
  return streamedBody(
    (async function* () {
      let sent = 0;
      for await (const chunk of body) {
        sent += chunk.byteLength;
        if (sent > length) throw new EncodeError(`the request body is longer than its Content-Length (${length} bytes)`);
        yield chunk;
      }
      if (sent !== length) throw new EncodeError(`the request body is ${sent} bytes, shorter than its Content-Length (${length})`);
    })(),
    length,
  );
}

/** An interceptor changed the URL: parse it the WHATWG way, then apply the same rules as a configured one. */
function targetOf(url: string): Target {
  // WHATWG parsing would drop CR/LF silently
  if (CONTROL.test(url)) throw new ConfigError(`an interceptor set a URL with a control character: '${escape(redactUserInfo(url))}'`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // no cause: node's TypeError keeps the raw input, credentials included
    throw new ConfigError(`an interceptor set an invalid URL: '${redactUserInfo(url)}'`);
  }
  if (parsed.username !== '' || parsed.password !== '') throw new ConfigError('an interceptor set a URL with credentials: use auth settings instead');
  return targetOfUrl(parsed);
}
