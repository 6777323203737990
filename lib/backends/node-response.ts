import type http from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { HttpBuilderError } from '../core/errors.js';
import { DRAIN_LIMIT, onReusedConnection, type WireResponse } from '../model/backend.js';
import { cutShort, earlierFailure } from '../model/stream-end.js';
import { stallOf } from './node-limits.js';

/** How a transport hands its response over, when it is not plain node. */
export interface NodeResponseOptions {
  /** What the pipeline reads: a stream wrapping `res` (got's); `res` itself by default. */
  readonly body?: Readable;
  /** The reason phrase as sent, when the transport may have filled an empty one in. */
  readonly reason?: string;
  /** Errors from the body carry the request's options (got's do): hand on clean copies only. */
  readonly cleanErrors?: boolean;
}

/** A node response as the contract wants it. */
export function nodeResponse(res: http.IncomingMessage, options: NodeResponseOptions = {}): WireResponse {
  const source = options.body ?? res;
  // an error on a body nobody reads (discarded, or after a handler failed) must not crash the
  // process; readers still see it through their own listeners or iteration
  source.on('error', ignore);
  const body = options.cleanErrors ? withCleanErrors(source, res) : source;
  return {
    statusCode: res.statusCode ?? 0,
    message: options.reason ?? res.statusMessage ?? '',
    headers: headerPairs(res.rawHeaders),
    body,
    decoded: false,
    httpVersion: res.httpVersion === '2.0' ? '2.0' : '1.1',
    // bound, not arrows made per response: docs/performance.md, "Arrows made per request"
    discard: discard.bind(undefined, body, res),
    readAll: readAll.bind(undefined, body, res),
  };
}

/** An 'error' listener that only keeps an error from crashing the process: one function, not an arrow per response. */
function ignore(): void {}

/**
 * `source` piped through a stream that fails with clean copies of its errors (see
 * {@link cleanError}); giving it up gives up the source too. A stream, not an async iterator,
 * so that piping a large body costs no promise per chunk.
 */
function withCleanErrors(source: Readable, res: http.IncomingMessage): Readable {
  const clean = new PassThrough();
  clean.on('error', () => {});
  source.once('error', (error) => clean.destroy(stallOf(res) ?? cleanError(error)));
  clean.once('close', () => {
    if (!source.readableEnded) source.destroy();
  });
  return source.pipe(clean);
}

/**
 * The socket goes back to the pool on 'end': drain a small untouched rest to get there; a
 * large or unknown one costs more than a new connection, and once a reader attached resume()
 * is ignored (a 'readable' listener wins): close instead.
 */
function discard(body: Readable, res: http.IncomingMessage): void {
  if (body.readableEnded) return;
  const untouched = !body.readableDidRead && body.listenerCount('readable') === 0;
  if (untouched && (res.complete || Number(res.headers['content-length']) <= DRAIN_LIMIT)) body.resume();
  else body.destroy();
}

/** The whole body with plain events: one promise instead of one per chunk through the stream iterator. */
function readAll(body: Readable, res: http.IncomingMessage): Promise<Uint8Array> {
  // a body that failed before anyone read it sends no more events: waiting for them would hang
  const failed = earlierFailure(body);
  if (failed) return Promise.reject(failed);
  return new Promise(collect.bind(undefined, body, res));
}

/** What {@link readAll} collects into, shared by its listeners: functions of the module, bound per read, no arrows. */
interface Whole {
  readonly chunks: Buffer[];
  readonly res: http.IncomingMessage;
  readonly resolve: (bytes: Uint8Array) => void;
  readonly reject: (error: Error) => void;
}

function collect(body: Readable, res: http.IncomingMessage, resolve: Whole['resolve'], reject: Whole['reject']): void {
  const whole: Whole = { chunks: [], res, resolve, reject };
  // `on`, not `once` (no wrapper per read): a stream emits 'end', 'error' and 'close' once
  body.on('data', pushChunk.bind(whole));
  body.on('end', resolveWhole.bind(whole));
  body.on('error', reject);
  // 'end' never comes for a body cut short without an error on some node versions
  body.on('close', rejectIfCut.bind(whole));
}

function pushChunk(this: Whole, chunk: Buffer): void {
  this.chunks.push(chunk);
}

function resolveWhole(this: Whole): void {
  this.resolve(this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks));
}

function rejectIfCut(this: Whole): void {
  if (!this.res.complete) this.reject(cutShort());
}

/** node's `rawHeaders` as name/value pairs. */
export function headerPairs(raw: readonly string[]): Array<readonly [string, string]> {
  const pairs: Array<readonly [string, string]> = [];
  for (let i = 0; i < raw.length; i += 2) pairs.push([raw[i], raw[i + 1]]);
  return pairs;
}

/**
 * 'error' listener of a ClientRequest: marks the error of a request that went out on a reused
 * keep-alive connection (`onReusedConnection`). A function of its own, not a closure per request.
 */
export function markIfReused(this: http.ClientRequest, error: Error): void {
  if (this.reusedSocket) Object.assign(error, { reusedConnection: true });
}

/**
 * A transport's error as a fresh Error with only what the pipeline maps by (`code`, `name`,
 * `message`, the reused-connection mark): axios's and got's errors carry the request's options,
 * Authorization included.
 */
export function cleanError(error: unknown): Error {
  // the library's own error from below the transport (a proxy's refusal) carries nothing of the request: as it is
  if (error instanceof HttpBuilderError) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  if (cause instanceof HttpBuilderError) return cause;
  const { name, message, code, stack } = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
  const clean = new Error(typeof message === 'string' ? message : 'transport error');
  // non-enumerable, as on any Error, so logs and JSON stay as short as node's own errors
  if (typeof name === 'string' && name !== clean.name) Object.defineProperty(clean, 'name', { value: name, writable: true, configurable: true });
  if (typeof code === 'string') Object.assign(clean, { code });
  if (onReusedConnection(error)) Object.assign(clean, { reusedConnection: true });
  if (typeof stack === 'string') clean.stack = stack;
  return clean;
}
