import { Readable } from 'node:stream';
import { HEADERS_TIMEOUT, type WireRequest, type WireResponse } from '../model/backend.js';
import { ConfigError, NetworkError, type NetworkErrorReason } from '../core/errors.js';
import { standardReason } from '../core/reason-phrase.js';
import { urlForMessage } from '../core/redact.js';
import type { MockReplyTuple } from './mock-expectation.js';

const WHY: Readonly<Record<NetworkErrorReason, string>> = {
  refused: 'connection refused',
  dns: 'host not found',
  reset: 'connection reset',
  tls: 'TLS handshake failed',
  other: 'network failure',
};

/** The failure `fail(reason)` stands for, as the transport's error would be typed. */
export function mockFailure(reason: NetworkErrorReason, request: WireRequest): NetworkError {
  return new NetworkError(`mock: ${WHY[reason]} (${urlForMessage(request.url)})`, reason);
}

/**
 * A reply as the wire response a server would give: a body that is no string or bytes goes as
 * JSON (`content-type: application/json` unless the headers say otherwise), a string as
 * `text/plain; charset=utf-8` unless they do; `content-length` is added unless the headers frame
 * the body themselves; the reason phrase is the standard one. HEAD gets the headers only.
 */
export function wireReply([status, body, headers]: MockReplyTuple, request: WireRequest): WireResponse {
  if (!Number.isInteger(status) || status < 100 || status > 999)
    throw new ConfigError(`MockBackend: a reply's status must be a whole number from 100 to 999, not ${String(status)}`);
  const pairs: Array<readonly [string, string]> = [];
  for (const [name, value] of Object.entries(headers ?? {})) for (const one of typeof value === 'string' ? [value] : value) pairs.push([name, one]);
  const has = (name: string) => pairs.some(([n]) => n.toLowerCase() === name);
  const [bytes, contentType] = encoded(body);
  if (contentType !== undefined && !has('content-type')) pairs.push(['content-type', contentType]);
  if (bytes.length > 0 && !has('content-length') && !has('transfer-encoding')) pairs.push(['content-length', String(bytes.length)]);
  const sent = request.method === 'HEAD' ? new Uint8Array(0) : bytes;
  return {
    statusCode: status,
    message: standardReason(status),
    headers: pairs,
    body: oneChunk(sent),
    decoded: false,
    discard: () => {},
    readAll: () => Promise.resolve(sent),
  };
}

function encoded(body: unknown): [Uint8Array, string | undefined] {
  if (body === undefined) return [new Uint8Array(0), undefined];
  if (typeof body === 'string') return [Buffer.from(body, 'utf8'), 'text/plain; charset=utf-8'];
  if (body instanceof Uint8Array) return [body, undefined];
  if (body instanceof ArrayBuffer) return [new Uint8Array(body), undefined];
  return [Buffer.from(JSON.stringify(body), 'utf8'), 'application/json'];
}

/** The body as a response stream: one chunk, or none. */
function oneChunk(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  return Readable.from(bytes.length > 0 ? [bytes] : []);
}

/**
 * Waits `ms` as a slow server would: the request's signal ends the wait (rejecting with its
 * reason), and so does the transport's response timeout (an error with its code).
 */
export function serverDelay(ms: number, request: WireRequest): Promise<void> {
  if (ms === 0 && !request.signal?.aborted) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const limit = request.headersTimeout;
    const stop = (error: unknown) => {
      clearTimeout(timer);
      clearTimeout(limiter);
      request.signal?.removeEventListener('abort', onAbort);
      if (error === undefined) resolve();
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the signal's reason, as any transport rejects with it
      else reject(error);
    };
    const onAbort = () => stop(request.signal!.reason);
    const timer = setTimeout(stop, ms);
    const limiter =
      limit && limit < ms
        ? setTimeout(() => stop(Object.assign(new Error(`no response headers arrived within ${limit} ms`), { code: HEADERS_TIMEOUT })), limit)
        : undefined;
    if (request.signal?.aborted) onAbort();
    else request.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
