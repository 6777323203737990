import type { ServerResponse } from 'node:http';
import { headerValue, type RecordedRequest } from './recorded-request.js';
import type { ResponseSpec } from './response-writer.js';
import { describeBytes, show } from './describe.js';

/** A request the test server should answer, and how. Only the listed criteria are checked. */
export interface Expectation {
  /** Compared case-sensitively with the received method (pass upper case). */
  method: string;
  /** Compared exactly with {@link RecordedRequest.path}. */
  path: string;
  /**
   * The parsed query must equal this exactly: same names, same values in order (a string
   * equals a one-element list). `{}` means the target has no `?` at all.
   */
  query?: Record<string, string | string[]>;
  /**
   * Each listed header must be present with exactly this value (name case-insensitive;
   * a repeated header is compared as its values joined with `, `).
   */
  headers?: Record<string, string>;
  /** The parsed Cookie map must equal this exactly; `{}` means no Cookie header at all. */
  cookies?: Record<string, string>;
  /** The raw body must equal this exactly (`''` = empty); a string is compared as UTF-8. */
  body?: string | Buffer;
  /** Only requests on the HTTPS (`true`) or HTTP (`false`) listener. */
  secure?: boolean;
  /** A canned response, or a function that writes one (it may also never end it). */
  respond: ResponseSpec | ((req: RecordedRequest, res: ServerResponse) => void | Promise<void>);
}

/** True when `e` is about the method and path of `req` (the other criteria aside). */
export function sameRoute(e: Expectation, req: RecordedRequest): boolean {
  return e.method === req.method && e.path === req.path;
}

/**
 * Why `req` does not satisfy the criteria of `e` beyond method and path: one readable line
 * per difference, showing expected and actual. Empty when it matches.
 */
export function mismatches(e: Expectation, req: RecordedRequest): string[] {
  const why: string[] = [];
  if (e.secure !== undefined && e.secure !== req.secure) {
    why.push(`listener: expected ${e.secure ? 'HTTPS' : 'HTTP'}, actual ${req.secure ? 'HTTPS' : 'HTTP'}`);
  }
  if (e.query !== undefined) why.push(...queryMismatches(e.query, req));
  for (const [name, expected] of Object.entries(e.headers ?? {})) {
    const actual = headerValue(req.rawHeaders, name);
    if (actual !== expected) why.push(`header ${name}: expected ${show(expected)}, actual ${showOptional(actual)}`);
  }
  if (e.cookies !== undefined) why.push(...cookieMismatches(e.cookies, req));
  if (e.body !== undefined) {
    const expected = Buffer.from(e.body);
    if (!expected.equals(req.body)) {
      why.push(`body: expected ${describeBytes(expected)}, actual ${describeBytes(req.body)}` + firstDifference(expected, req.body));
    }
  }
  return why;
}

function queryMismatches(expected: Record<string, string | string[]>, req: RecordedRequest): string[] {
  if (Object.keys(expected).length === 0) {
    return req.hasQueryString ? [`query: expected no query string, actual ${show(req.target.slice(req.path.length))}`] : [];
  }
  const want = new Map(Object.entries(expected).map(([k, v]) => [k, typeof v === 'string' ? [v] : v]));
  return mapMismatches('query parameter', want, new Map(Object.entries(req.query)));
}

function cookieMismatches(expected: Record<string, string>, req: RecordedRequest): string[] {
  const header = headerValue(req.rawHeaders, 'cookie');
  if (Object.keys(expected).length === 0) {
    return header === undefined ? [] : [`cookies: expected no Cookie header, actual ${show(header)}`];
  }
  return mapMismatches('cookie', new Map(Object.entries(expected)), new Map(Object.entries(req.cookies)));
}

// Compares two name -> value maps exactly, reporting missing, different and unexpected names.
function mapMismatches<V>(what: string, expected: Map<string, V>, actual: Map<string, V>): string[] {
  const why: string[] = [];
  for (const [name, want] of expected) {
    const got = actual.get(name);
    if (got === undefined) why.push(`${what} ${show(name)}: expected ${show(want)}, actual (absent)`);
    else if (show(got) !== show(want)) why.push(`${what} ${show(name)}: expected ${show(want)}, actual ${show(got)}`);
  }
  for (const [name, got] of actual) {
    if (!expected.has(name)) why.push(`${what} ${show(name)}: not expected, actual ${show(got)}`);
  }
  return why;
}

function showOptional(value: string | undefined): string {
  return value === undefined ? '(absent)' : show(value);
}

function firstDifference(a: Buffer, b: Buffer): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return `; first difference at byte ${i}`;
}
