import { urlForMessage } from './redact.js';
import type { Timings } from './timings.js';

/**
 * Every error httpbuilder-ts rejects with extends {@link HttpBuilderError}: one small class per
 * kind, each with a literal `name` and a stable `code` to branch on.
 *
 * @example
 * try {
 *   await http.get((c) => { c.request.uri.path = '/missing'; });
 * } catch (e) {
 *   if (e instanceof HttpException && e.statusCode === 404) return null;
 *   throw e;
 * }
 */
export class HttpBuilderError extends Error {
  override readonly name: string = 'HttpBuilderError';
  /** Stable, machine-readable code, e.g. `ERR_HTTP`; `ERR_PAGINATION_LOOP` for a walk that came back to a page. */
  readonly code: string;
  /**
   * The timings of the last attempt, on an error that had one (a `NetworkError`, a
   * `TimeoutError`, an `HttpException`, ...): how far it got before it failed. See {@link Timings}.
   */
  declare readonly timings?: Timings;

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.code = 'ERR_HTTPBUILDER';
  }
}

/** Headers as the error carries them: case-insensitive lookup over what the server sent. */
export interface ErrorHeaders {
  get(name: string): string | null;
}

/**
 * The server answered with a status >= 400 and no handler took it. `message` is the reason
 * phrase (`Not Found`, `Unauthorized`, ...); `method` and `url` (credentials hidden) say which
 * request got it, and `String(error)` and the stack's first line name them:
 * `HttpException: Not Found (GET https://api.example.com/v1/users/7)`.
 *
 * @example
 * await http.get().catch((e: unknown) => e instanceof HttpException ? e.statusCode : -1);
 */
export class HttpException extends HttpBuilderError {
  override readonly name = 'HttpException' as const;
  override readonly code = 'ERR_HTTP' as const;
  declare readonly statusCode: number;
  declare readonly headers: ErrorHeaders;
  declare readonly body: unknown;
  /** The method of the request that got this response (the last redirect hop's). */
  declare readonly method: string | undefined;
  /** That request's URL, user info and credential-like query values hidden. */
  declare readonly url: string | undefined;

  constructor(
    statusCode: number,
    message: string,
    headers: ErrorHeaders,
    body: unknown,
    request?: { readonly method: string; readonly url: string },
    options?: { cause?: unknown },
  ) {
    super(message, options);
    // headers and body can be large: keep them out of util.inspect and JSON.stringify
    Object.defineProperty(this, 'statusCode', { value: statusCode, enumerable: true });
    Object.defineProperty(this, 'method', { value: request?.method, enumerable: true });
    Object.defineProperty(this, 'url', { value: request && urlForMessage(request.url), enumerable: true });
    hide(this, { headers, body });
    // what console.error and util.inspect show first: which request, not only the reason phrase
    const header = `${this.name}: ${this.message}`;
    if (request && typeof this.stack === 'string' && this.stack.startsWith(header)) {
      Object.defineProperty(this, 'stack', {
        value: `${this.toString()}${this.stack.slice(header.length)}`,
        writable: true,
        configurable: true,
        enumerable: false,
      });
    }
  }

  /** `HttpException: <reason> (<METHOD> <url>)`. */
  override toString(): string {
    const base = `${this.name}: ${this.message}`;
    return this.method === undefined || this.url === undefined ? base : `${base} (${this.method} ${this.url})`;
  }
}

/** A phase of the exchange took longer than `execution.timeout` allows. */
export class TimeoutError extends HttpBuilderError {
  override readonly name = 'TimeoutError' as const;
  override readonly code = 'ERR_TIMEOUT' as const;
  constructor(
    message: string,
    readonly phase: 'connect' | 'response' | 'read' | 'total',
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** Why the transport failed. */
export type NetworkErrorReason = 'refused' | 'dns' | 'reset' | 'tls' | 'other';

/** The connection could not be made or broke; `cause` is the transport's own error. */
export class NetworkError extends HttpBuilderError {
  override readonly name = 'NetworkError' as const;
  override readonly code = 'ERR_NETWORK' as const;
  constructor(
    message: string,
    readonly reason: NetworkErrorReason,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * The proxy refused the tunnel or the request: any non-2xx answer to `CONNECT`, or a `407` the
 * proxy's credentials could not answer (none given, or they were tried already).
 *
 * @example
 * try { await http.get(); } catch (e) { if (e instanceof ProxyError && e.statusCode === 407) askForProxyPassword(); }
 */
export class ProxyError extends HttpBuilderError {
  override readonly name = 'ProxyError' as const;
  override readonly code = 'ERR_PROXY' as const;
  constructor(
    message: string,
    /** The status of the proxy's answer. */
    readonly statusCode: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * `client.publicOnly` refused the address a request would have connected to (loopback, a private
 * range, link-local such as the cloud metadata `169.254.169.254`, ...): nothing was sent to it.
 * Never retried.
 *
 * @example
 * try { await http.get(); } catch (e) { if (e instanceof AddressBlockedError) console.warn(`${e.host} is ${e.address}: refused`); }
 */
export class AddressBlockedError extends HttpBuilderError {
  override readonly name = 'AddressBlockedError' as const;
  override readonly code = 'ERR_ADDRESS_BLOCKED' as const;
  constructor(
    /** The address refused (the one the host name resolved to, or the IP literal of the URL). */
    readonly address: string,
    /** The host as the URL names it. */
    readonly host: string,
    why: string,
  ) {
    super(
      `client.publicOnly refused ${host === address ? address : `${host} (${address})`}: ${why}; nothing was sent (allow it with client.publicOnly = { allow: [...] })`,
    );
  }
}

/** `execution.signal` was aborted. */
export class AbortError extends HttpBuilderError {
  override readonly name = 'AbortError' as const;
  override readonly code = 'ERR_ABORTED' as const;
}

/** The response body could not be parsed as its content type says. */
export class ParseError extends HttpBuilderError {
  override readonly name = 'ParseError' as const;
  override readonly code = 'ERR_PARSE' as const;
  declare readonly statusCode: number;
  declare readonly contentType: string;
  declare readonly text: string;

  constructor(message: string, details: { statusCode: number; contentType: string; text: string }, options?: { cause?: unknown }) {
    super(message, options);
    Object.defineProperty(this, 'statusCode', { value: details.statusCode, enumerable: true });
    Object.defineProperty(this, 'contentType', { value: details.contentType, enumerable: true });
    hide(this, { text: details.text });
  }
}

/** A redirect could not or must not be followed. */
export class RedirectError extends HttpBuilderError {
  override readonly name = 'RedirectError' as const;
  override readonly code = 'ERR_REDIRECT' as const;
}

/** The request body could not be encoded for its content type. */
export class EncodeError extends HttpBuilderError {
  override readonly name = 'EncodeError' as const;
  override readonly code = 'ERR_ENCODE' as const;
}

/** The configuration is invalid: bad URL, CR/LF/NUL in a header, a client-only setting in a request, ... */
export class ConfigError extends HttpBuilderError {
  override readonly name = 'ConfigError' as const;
  override readonly code = 'ERR_CONFIG' as const;
}

/** The result type is not usable, or the result cannot be converted to it. */
export class ResultTypeError extends HttpBuilderError {
  override readonly name = 'ResultTypeError' as const;
  override readonly code = 'ERR_RESULT_TYPE' as const;
}

/** The response body exceeded `execution.maxResponseSize`. */
export class ResponseTooLargeError extends HttpBuilderError {
  override readonly name = 'ResponseTooLargeError' as const;
  override readonly code = 'ERR_RESPONSE_TOO_LARGE' as const;
}

function hide(target: object, values: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(values)) {
    Object.defineProperty(target, key, { value, enumerable: false, writable: false });
  }
}
