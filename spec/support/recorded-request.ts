import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';

/** One request as the test server received it. */
export interface RecordedRequest {
  /** The method exactly as received (case preserved). */
  method: string;
  /** The raw request-target exactly as received (`req.url`). */
  target: string;
  /** `target` without the query (everything before the first `?`). */
  path: string;
  /**
   * The query parsed from `target`: names and values percent-decoded (`+` stays `+`),
   * repeated names collect their values in order; a name without `=` has value `''`.
   */
  query: Record<string, string[]>;
  /** True when `target` contains `?`, even a bare one with nothing after it. */
  hasQueryString: boolean;
  /** `'1.1'`, `'1.0'` or `'2.0'`. */
  httpVersion: string;
  /**
   * Node's lower-cased `req.headers` (duplicates joined, see `TestServer`). Over HTTP/2 the
   * pseudo-headers are left out and `:authority` is recorded as `host`, which it replaces.
   */
  headers: Record<string, string | string[] | undefined>;
  /** Header name/value pairs in received order, original case. */
  rawHeaders: Array<[string, string]>;
  /**
   * Cookies from every `Cookie` header: split on `;`, trimmed, split at the first `=`.
   * When a name repeats, the first value wins.
   */
  cookies: Record<string, string>;
  /** The body bytes as sent (after de-chunking, never decompressed). */
  body: Buffer;
  /**
   * True when the body went without a declared length: `Transfer-Encoding: chunked` over
   * HTTP/1.1; over HTTP/2, which has no chunked coding, a body with no `Content-Length`.
   */
  chunked: boolean;
  /** True when the request came in on the HTTPS listener. */
  secure: boolean;
  /** True when an expectation answered it. */
  matched: boolean;
  /** The client's port: equal for two requests means one kept-alive connection. */
  remotePort: number | undefined;
  /** The client's address: a proxy's outgoing address (127.0.0.x) tells which proxy carried the request. */
  remoteAddress: string | undefined;
}

/** Builds the record of a request whose body has been read completely. */
export function recordRequest(req: IncomingMessage | Http2ServerRequest, body: Buffer, secure: boolean): RecordedRequest {
  const target = req.url ?? '';
  const q = target.indexOf('?');
  const { headers, rawHeaders } =
    req.httpVersionMajor === 2 ? withoutPseudoHeaders(req.headers, req.rawHeaders) : { headers: req.headers, rawHeaders: headerPairs(req.rawHeaders) };
  return {
    method: req.method ?? '',
    target,
    path: q < 0 ? target : target.slice(0, q),
    query: parseQuery(target),
    hasQueryString: q >= 0,
    httpVersion: req.httpVersion,
    headers,
    rawHeaders,
    cookies: parseCookies(rawHeaders),
    body,
    chunked:
      req.httpVersionMajor === 2
        ? body.length > 0 && headers['content-length'] === undefined
        : /\bchunked\b/i.test(headerValue(rawHeaders, 'transfer-encoding') ?? ''),
    secure,
    matched: false,
    remotePort: req.socket.remotePort,
    remoteAddress: req.socket.remoteAddress,
  };
}

/**
 * Every value of header `name` (case-insensitive) joined with `, `, or undefined when absent.
 * Read from the raw pairs because node's `req.headers` would hide some duplicates.
 */
export function headerValue(rawHeaders: Array<[string, string]>, name: string): string | undefined {
  const wanted = name.toLowerCase();
  const values = rawHeaders.filter(([n]) => n.toLowerCase() === wanted).map(([, v]) => v);
  return values.length === 0 ? undefined : values.join(', ');
}

/** Parses the query of a request-target; see {@link RecordedRequest.query}. */
export function parseQuery(target: string): Record<string, string[]> {
  // A Map plus Object.fromEntries keeps a name like `__proto__` an ordinary own property.
  const query = new Map<string, string[]>();
  const q = target.indexOf('?');
  if (q < 0) return {};
  for (const piece of target.slice(q + 1).split('&')) {
    if (piece === '') continue; // `?&a=1` and `?a=1&` carry no empty parameter
    const eq = piece.indexOf('=');
    const name = decode(eq < 0 ? piece : piece.slice(0, eq));
    const value = eq < 0 ? '' : decode(piece.slice(eq + 1));
    const values = query.get(name);
    if (values) values.push(value);
    else query.set(name, [value]);
  }
  return Object.fromEntries(query);
}

/** Parses all `Cookie` headers; see {@link RecordedRequest.cookies}. */
export function parseCookies(rawHeaders: Array<[string, string]>): Record<string, string> {
  const cookies = new Map<string, string>();
  for (const [name, value] of rawHeaders) {
    if (name.toLowerCase() !== 'cookie') continue;
    for (const raw of value.split(';')) {
      const piece = raw.trim();
      if (piece === '') continue;
      const eq = piece.indexOf('=');
      const cookieName = eq < 0 ? piece : piece.slice(0, eq);
      if (!cookies.has(cookieName)) cookies.set(cookieName, eq < 0 ? '' : piece.slice(eq + 1));
    }
  }
  return Object.fromEntries(cookies);
}

// Percent-decoding only: '+' means a plus sign in a URI query (only forms treat it as space),
// and the client library must be tested on what it really puts on the wire. A malformed
// escape ('%zz') is kept raw so the request is still recorded and shown.
function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** An HTTP/2 request's headers as an HTTP/1.1 server would record them: `:authority` as `host`, no other pseudo-headers. */
function withoutPseudoHeaders(all: Record<string, string | string[] | undefined>, flat: string[]): Pick<RecordedRequest, 'headers' | 'rawHeaders'> {
  const pairs = headerPairs(flat);
  const authority = all[':authority'];
  const headers = Object.fromEntries(Object.entries(all).filter(([name]) => !name.startsWith(':')));
  const rawHeaders = pairs.filter(([name]) => !name.startsWith(':'));
  if (typeof authority === 'string' && headers.host === undefined) {
    headers.host = authority;
    rawHeaders.unshift(['host', authority]);
  }
  return { headers, rawHeaders };
}

function headerPairs(flat: string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([flat[i], flat[i + 1]]);
  return pairs;
}
