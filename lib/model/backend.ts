/**
 * The backend contract: transport only. The pipeline hands a backend a fully prepared wire
 * request (every header decided, body encoded) and gets back status, headers and a body
 * stream. Redirects, auth, decompression, parsing and errors' meaning live above it, once.
 *
 * This file imports no `node:` module so that browser-capable backends (fetch) fit it too.
 */
import { concatBytes } from '../core/bytes.js';
import { ConfigError } from '../core/errors.js';
import type { ProxyRoute } from './proxy-route.js';
import type { TimingsRecorder } from '../core/timings.js';

/** A request body: bytes as an async stream, with its size when known. */
export interface WireBody extends AsyncIterable<Uint8Array> {
  /** Byte length when known up front (then `Content-Length` is sent, else chunked). */
  readonly length: number | undefined;
  /**
   * The whole body when it is already in memory, so a transport can write it in one go. The
   * library's own bodies make it on first read (a text body is encoded then): read it only to
   * send it, and in a copy of a body carry it and the iterator over explicitly
   * (`{ ...body, bytes: body.bytes, [Symbol.asyncIterator]: () => body[Symbol.asyncIterator]() }`).
   */
  readonly bytes: Uint8Array | undefined;
}

/** @internal Bytes worth draining from a response given up, to keep its connection instead of closing it. */
export const DRAIN_LIMIT = 64 * 1024;

/** @internal The methods that carry `Content-Length: 0` without a body: the pipeline frames them, fetch does it itself. */
export const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH']);

/** TLS settings of a client (`execution.tls`). */
export interface TlsOptions {
  /** Certificate authorities to trust (PEM), instead of the system's. */
  readonly ca?: string | Uint8Array | ReadonlyArray<string | Uint8Array>;
  /** Client certificate (PEM) for mutual TLS. */
  readonly cert?: string | Uint8Array;
  /** Private key (PEM) of the client certificate. */
  readonly key?: string | Uint8Array;
  /** Verify the server's certificate; `true` unless you really mean it. */
  readonly rejectUnauthorized?: boolean;
  /** Server name for SNI and certificate checks, when it differs from the URL's host. */
  readonly servername?: string;
  /** Client certificate and key as one PKCS#12 file's bytes (instead of `cert` and `key`). */
  readonly pfx?: Uint8Array;
  /** Passphrase of an encrypted `key` or `pfx`. */
  readonly passphrase?: string;
  /** Oldest TLS version to accept: `'TLSv1.2'` (node's default) or `'TLSv1.3'`, as node names them. */
  readonly minVersion?: TlsVersion;
  /** Newest TLS version to offer (node's default `'TLSv1.3'`). */
  readonly maxVersion?: TlsVersion;
  /** OpenSSL cipher list for TLS 1.2 and below, and TLS 1.3 suites (`'TLS_AES_256_GCM_SHA384:ECDHE-RSA-AES256-GCM-SHA384'`). */
  readonly ciphers?: string;
  /**
   * SHA-256 digests of SubjectPublicKeyInfo, base64 without a prefix (curl's `--pinnedpubkey
   * sha256//...` values): a new connection goes on only if a certificate of the chain the server
   * sends has one of them, else it fails with a `NetworkError` whose `reason` is `'tls'`.
   */
  readonly pins?: readonly string[];
}

/** TLS protocol versions, as node names them. */
export type TlsVersion = 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';

/** A `dns.lookup`-compatible function (typed loosely: this file imports no `node:` module). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- dns.lookup's overloads, as node:net takes them
export type LookupFunction = (hostname: string, options: any, callback: (...args: any[]) => void) => void;

/** How a client's connections are made and kept (`client.connection`). */
export interface ConnectionOptions {
  /** Most connections open at once per origin (default unlimited); further requests wait in order. */
  readonly maxSockets?: number;
  /** `true` by default; `false` closes each connection after its response. */
  readonly keepAlive?: boolean;
  /** Milliseconds an idle kept-alive connection stays open (default 4000). */
  readonly idleTimeout?: number;
  /** Connect to this Unix domain socket instead of host:port (the URL still gives `Host` and path). */
  readonly socketPath?: string;
  /** A `dns.lookup`-compatible function used for every new connection. */
  readonly lookup?: LookupFunction;
  /** `4` or `6` to restrict address families. */
  readonly family?: 4 | 6;
  /** The local interface address to bind to. */
  readonly localAddress?: string;
}

/** How long an idle kept-alive connection stays open unless `client.connection.idleTimeout` says (undici's default too). */
export const DEFAULT_IDLE_MS = 4000;

/** `client.publicOnly` checked: what the transports enforce. */
export interface PublicOnlyPolicy {
  /** IP literals and CIDR ranges, as written (checked) */
  readonly allowRanges: readonly string[];
  /** host names in ASCII lower case, matched exactly */
  readonly allowHosts: readonly string[];
}

/** What a built-in backend is made with: a client's TLS, connection and HTTP version settings. */
export interface TransportOptions {
  readonly tls: TlsOptions | undefined;
  readonly connection: ConnectionOptions | undefined;
  /** `client.http2`: offer HTTP/2 (ALPN `h2, http/1.1`) on https connections. */
  readonly http2?: boolean;
  /** `client.publicOnly`: the addresses the transport may dial (checked between name resolution and connect). */
  readonly publicOnly?: PublicOnlyPolicy;
}

/** What a backend sends: everything already decided by the pipeline. */
export interface WireRequest {
  /** Upper-case method. */
  readonly method: string;
  /** Full URL, for transports that want one. */
  readonly url: string;
  /** `true` for https. */
  readonly secure: boolean;
  /** Host name (IPv6 literals keep their brackets). */
  readonly hostname: string;
  /** Port number (the scheme's default when the URL names none). */
  readonly port: number;
  /** Path and query exactly as they go on the request line. */
  readonly target: string;
  /**
   * Headers to send, names as the caller wrote them. The transport adds only `Host`/`Connection`.
   * Read-only: often one frozen object shared by a client's requests. To add one, send a copy.
   */
  readonly headers: Readonly<Record<string, string>>;
  /** The body, or `undefined` for none. */
  readonly body: WireBody | undefined;
  /** When set: abort the request (and the response body) as soon as it fires. */
  readonly signal?: AbortSignal;
  /**
   * When set: milliseconds allowed for a new connection, TLS handshake included (a reused one
   * has none). On expiry reject with an error whose `code` is {@link CONNECT_TIMEOUT}.
   */
  readonly connectTimeout?: number;
  /**
   * Milliseconds the transport waits for the response headers once the request is sent (the
   * library's 5-minute default, or `execution.timeout.response`); `0` or unset: no limit. On
   * expiry reject with an error whose `code` is {@link HEADERS_TIMEOUT}.
   */
  readonly headersTimeout?: number;
  /**
   * Milliseconds the transport lets the response body stay silent (as `headersTimeout`, for
   * `execution.timeout.read`); on expiry fail the body with an error whose `code` is {@link BODY_TIMEOUT}.
   */
  readonly bodyTimeout?: number;
  /**
   * When set: the proxy to go through (absolute form for http targets, a `CONNECT` tunnel for
   * https ones; see {@link ProxyRoute}). Set only for a backend that declares {@link Backend.proxies}.
   */
  readonly proxy?: ProxyRoute;
  /**
   * Set by the pipeline for each attempt: stamp `performance.now()` on it as the connection and
   * the exchange go (`socket`, `lookup`, `connect`, `secureConnect` for a new connection; `upload`
   * when the request is written; `response` when its head arrives). What a transport cannot tell
   * it leaves unset; `fromServer.timings` shows what was stamped.
   */
  readonly timings?: TimingsRecorder;
}

/** The `code` of a backend's error when `connectTimeout` expired (undici's own code, so fetch needs no mapping). */
export const CONNECT_TIMEOUT = 'UND_ERR_CONNECT_TIMEOUT';

/** The `code` of a backend's error when `headersTimeout` expired (undici's own). */
export const HEADERS_TIMEOUT = 'UND_ERR_HEADERS_TIMEOUT';

/** The `code` of a body's error when `bodyTimeout` expired (undici's own). */
export const BODY_TIMEOUT = 'UND_ERR_BODY_TIMEOUT';

/** What a backend returns once the response head has arrived. */
export interface WireResponse {
  /** Status code (named as on {@link FromServer} and the errors). */
  readonly statusCode: number;
  /** Reason phrase as sent by the server (may be empty). */
  readonly message: string;
  /** Header name/value pairs in the order received, names as received. */
  readonly headers: ReadonlyArray<readonly [string, string]>;
  /** The body as received; iterate it once. */
  readonly body: AsyncIterable<Uint8Array>;
  /** `true` when the transport already undid `Content-Encoding` (fetch does, and cannot be told not to). */
  readonly decoded: boolean;
  /** The HTTP version it came in; `'1.1'` when not set. */
  readonly httpVersion?: '1.1' | '2.0';
  /**
   * Give up the body: drain it when nothing was read yet and little is left (the connection
   * stays reusable), otherwise close the connection. Called whenever the pipeline is done
   * with a response it did not read to the end.
   */
  discard(): void;
  /** Optional: the whole body in one piece, when the transport can do that faster than iterating `body`. */
  readAll?(): Promise<Uint8Array>;
  /** Set by the client's cache (`client.cache`), not by a transport: where the response came from; `'miss'` when not set. */
  readonly cache?: 'hit' | 'revalidated' | 'miss';
}

/**
 * A transport. Implement this to plug in your own (set it as `c.client.backend`).
 *
 * @example
 * const logging: Backend = {
 *   name: 'logging',
 *   send: (req) => { console.log(req.method, req.url); return inner.send(req); },
 *   close: () => inner.close(),
 * };
 */
export interface Backend {
  readonly name: string;
  /**
   * `true` when `send()` follows {@link WireRequest.proxy} (every built-in backend does). Without
   * it the environment's proxies are not applied (the backend's networking is its own), and an
   * explicit `client.proxy` is a ConfigError.
   */
  readonly proxies?: boolean;
  /**
   * Send one request; reject with the transport's own error when it fails (the pipeline maps
   * it). When the request went out on a kept-alive connection reused for it, mark the error
   * `reusedConnection: true`: a server may close such a
   * connection just as a request goes out, so an idempotent request is then sent once more at
   * once. Without the mark a failure is final, unless `execution.retry` says otherwise, or it is
   * node's error for an HTTP/2 stream the server did not process (`ERR_HTTP2_STREAM_ERROR` for
   * `NGHTTP2_REFUSED_STREAM`, `ERR_HTTP2_GOAWAY_SESSION`): that request is sent again once,
   * whatever its method, when its body is in memory.
   */
  send(request: WireRequest): Promise<WireResponse>;
  /** Release pooled connections. */
  close(): Promise<void>;
}

/**
 * Whether a transport's error (or one it wraps, as `cause`) came from a kept-alive connection
 * reused for the request: marked `reusedConnection: true` by the transport.
 */
export function onReusedConnection(error: unknown): boolean {
  for (let depth = 0; typeof error === 'object' && error !== null && depth < 4; depth++) {
    if ((error as { reusedConnection?: unknown }).reusedConnection === true) return true;
    error = (error as { cause?: unknown }).cause;
  }
  return false;
}

class ClientClosedError extends ConfigError {}

/** Whether `error` is {@link clientClosed}'s: a pool closed under a call, not a caller's bad input. */
export function isClientClosed(error: unknown): boolean {
  return error instanceof ClientClosedError;
}

/**
 * What a built-in backend's `send` rejects with once `close()` released its pool: a request in
 * flight then fails instead of being sent again (its connection was cut by the close), and a
 * later one is refused before anything is sent.
 */
export function clientClosed(): ConfigError {
  return new ClientClosedError(
    'the client was closed: close() released its connections, and it sends nothing more, not even again a request the close cut (make a new client with HttpBuilder.configure)',
  );
}

/** A body already in memory. */
export function bufferedBody(bytes: Uint8Array): WireBody {
  return new BufferedBody(bytes, undefined, bytes.byteLength, undefined);
}

/**
 * @internal A body in memory that is exactly the UTF-8 encoding of `text`, `length` bytes long.
 * `encode` makes its bytes when a transport or stage first asks for them: fetch sends the text
 * itself, and encoding it here too would be one more copy of the body per request.
 */
export function bufferedText(text: string, length: number, encode: (text: string) => Uint8Array): WireBody {
  return new BufferedBody(undefined, text, length, encode);
}

/**
 * @internal Whether `body` is in memory (so it can be sent again), without making the bytes of
 * one that makes them on first use.
 */
export function inMemory(body: WireBody): boolean {
  return body instanceof BufferedBody || body.bytes !== undefined;
}

/**
 * @internal A streamed body read whole, as a body in memory: for a transport that cannot stream it
 * (a browser's fetch over HTTP/1.1) or cannot send it empty (undici over HTTP/2). The pipeline's
 * reader holds it to its announced length.
 */
export async function readWhole(body: WireBody): Promise<WireBody> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of body) chunks.push(chunk);
  return bufferedBody(concatBytes(chunks));
}

/** @internal Whether there is a body and it is a stream (it cannot be sent again); see {@link inMemory}. */
export function isStreamed(body: WireBody | undefined): body is WireBody {
  return body !== undefined && !inMemory(body);
}

/**
 * @internal The text `body` was encoded from as UTF-8, if it was: a transport that takes
 * strings may send it instead of the bytes (fetch copies bytes into a buffer of its own, but
 * encodes a string as it sends). Only the pipeline's own body has it: a copy made with new
 * bytes (`{ ...body, bytes }`) is no BufferedBody, so its bytes are what goes out.
 */
export function utf8TextOf(body: WireBody): string | undefined {
  return body instanceof BufferedBody ? body.utf8Text : undefined;
}

// a class, not an object literal with a closure: made for every request with a body, iterated
// only by a backend that cannot take `bytes` as they are
class BufferedBody implements WireBody {
  readonly length: number;
  #bytes: Uint8Array | undefined;
  readonly #text: string | undefined;
  readonly #encode: ((text: string) => Uint8Array) | undefined;

  constructor(bytes: Uint8Array | undefined, text: string | undefined, length: number, encode: ((text: string) => Uint8Array) | undefined) {
    this.#bytes = bytes;
    this.#text = text;
    this.length = length;
    this.#encode = encode;
  }

  /** The bytes (a text body's made on first use, then kept). */
  get bytes(): Uint8Array {
    return (this.#bytes ??= this.#encode!(this.#text!));
  }

  get utf8Text(): string | undefined {
    return this.#text;
  }

  [Symbol.asyncIterator](): AsyncIterator<Uint8Array> {
    let sent = false;
    const bytes = this.bytes;
    return {
      next: () => Promise.resolve(sent ? { done: true, value: undefined } : ((sent = true), { done: false, value: bytes })),
    };
  }
}

/** A body that streams from `source`; `length` when known. */
export function streamedBody(source: AsyncIterable<Uint8Array>, length?: number): WireBody {
  return { length, bytes: undefined, [Symbol.asyncIterator]: () => source[Symbol.asyncIterator]() };
}
