/**
 * What a benchmark contender is: a client that can be opened against the server, then asked
 * for JSON documents or to post one. Every contender does the same work per request: send the
 * same request (serialising the same object for a POST), read the whole body, parse it as JSON.
 *
 * @module
 */

/** One open client (its own connection pool). */
export interface Session {
  /** GET `path` on the server, read the whole body and resolve to `JSON.parse` of it. */
  getJson(path: string): Promise<unknown>;
  /** POST `JSON.stringify(body)` as `application/json` to `path`, resolve to `JSON.parse` of the response body. */
  postJson(path: string, body: object): Promise<unknown>;
  /** Releases sockets so the process can exit. */
  close(): Promise<void>;
}

/** A client under test. */
export interface Contender {
  readonly name: string;
  /** What it does per request, for the report. */
  readonly description: string;
  /** The reference every contender is also compared against (exactly one contender: raw node:http). */
  readonly baseline?: boolean;
  /**
   * Name of the raw client this contender is measured against (the library on the axios backend
   * against `raw axios`, ...). Selecting a contender always selects its counterpart too.
   */
  readonly comparedWith?: string;
  /** Upper bound for `CPU µs/req ÷ counterpart's CPU µs/req` this contender aims for, if any. */
  readonly cpuRatioTarget?: number;
  /**
   * Opens a client on `origin` (`http://127.0.0.1:PORT`). May load the client's package, so it
   * is async, and it may reject (package missing): the run then reports the contender as failed.
   */
  open(origin: string): Promise<Session>;
}

/**
 * The request headers the library sends by default (besides its `User-Agent` value): raw clients
 * send the same so that the server does identical work for everyone.
 */
export function libraryLikeHeaders(client: string): Record<string, string> {
  return { 'User-Agent': `raw-${client}`, Accept: '*/*', 'Accept-Encoding': 'gzip, deflate, br' };
}

/** `error` as an `Error` (for rejecting with whatever a callback threw). */
export function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
