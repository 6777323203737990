import type { HttpConfig } from './config/http-config.js';
import { events, type EventStreamState, type ServerSentEvent } from './content/event-stream.js';
import { lines, MAX_ITEM_BYTES, MAX_ITEM_TEXT } from './content/line-stream.js';
import { defaultParser, READS_EMPTY_BODIES, STREAMS, takesBodyUnread, type Parser } from './content/parsers.js';
import { describeValue } from './core/describe-value.js';
import { ConfigError, ParseError, ResponseTooLargeError } from './core/errors.js';
import { urlForMessage } from './core/redact.js';
import { escape } from './core/text.js';
import type { FromServer } from './model/from-server.js';
import type { RequestRecord } from './model/request-record.js';
import { convertResult } from './result/convert.js';
import { MAPPER_ID, type Mapper, type ResultOf, type ResultType } from './result/result-type.js';
import { StreamOf } from './result/stream-of.js';
import { ReconnectingEvents } from './stream-reconnect.js';
import { resultType } from './verb-arguments.js';

export { StreamOf } from './result/stream-of.js';
export type { ServerSentEvent } from './content/event-stream.js';

/** Turns a body, read as it comes, into the stream's items; `limit` bounds each line or event. */
type Reader<T> = (body: AsyncIterable<Uint8Array>, fromServer: FromServer, request: RequestRecord, limit: Limit) => AsyncIterable<T>;

type Item = 'a line' | 'an event';

interface Limit {
  readonly max: number;
  readonly tooLarge: () => Error;
}

/**
 * Registers, for every content type, a parser that makes a response's value `read`'s items: the
 * call resolves once the response head is in, and the body is read as the loop asks. A failure
 * (>= 400) is parsed as usual, so the failure handlers see the error body.
 */
function streamWith<T>(config: HttpConfig, item: Item, read: Reader<T>): StreamOf<T> {
  const parser: Parser = (fromServer, request) => {
    if (!takesBodyUnread(parser, fromServer.statusCode)) return defaultParser(fromServer.contentType)(fromServer, request);
    return read(fromServer.detach(), fromServer, request, limitOf(item, fromServer));
  };
  // a response without a body (a 204, a HEAD) is an empty stream, not `null`
  config.response.parser('*/*', Object.assign(parser, { [READS_EMPTY_BODIES]: true, [STREAMS]: true }));
  return new StreamOf<T>();
}

/** The bound of each line or event of `fromServer`'s body, and the error for one past it. */
function limitOf(item: Item, fromServer: FromServer): Limit {
  const limit = itemLimit(fromServer.maxSize);
  return {
    max: limit.max,
    tooLarge: () => new ResponseTooLargeError(`${item} of the response of ${urlForMessage(fromServer.uri)} is larger than ${limit.name}`),
  };
}

/** The bound of each line or event: `execution.maxResponseSize` when set and smaller than 16 MiB, else 16 MiB, named for the message. */
function itemLimit(maxResponseSize: number | undefined): { max: number; name: string } {
  if (maxResponseSize !== undefined && maxResponseSize <= MAX_ITEM_BYTES)
    return { max: maxResponseSize, name: `execution.maxResponseSize (${maxResponseSize} bytes)` };
  return { max: MAX_ITEM_BYTES, name: `${MAX_ITEM_TEXT}, the most a Stream holds of one line or event` };
}

function readLines(body: AsyncIterable<Uint8Array>, _fromServer: FromServer, _request: RequestRecord, limit: Limit): AsyncIterable<string> {
  return lines(body, { maxLineBytes: limit.max, tooLarge: limit.tooLarge });
}

function readEvents(body: AsyncIterable<Uint8Array>, _fromServer: FromServer, _request: RequestRecord, limit: Limit): AsyncIterable<ServerSentEvent> {
  return events(body, { maxEventBytes: limit.max, tooLarge: limit.tooLarge });
}

/** The events of every connection, one series (`reconnect: true`). */
function readReconnecting(body: AsyncIterable<Uint8Array>, fromServer: FromServer, request: RequestRecord): AsyncIterable<ServerSentEvent> {
  return new ReconnectingEvents(body, fromServer, request, readConnection);
}

/** One connection's events, bounded as any Stream's, going on from `state`. */
function readConnection(body: AsyncIterable<Uint8Array>, fromServer: FromServer, state: EventStreamState): AsyncIterable<ServerSentEvent> {
  const { max, tooLarge } = limitOf('an event', fromServer);
  return events(body, { maxEventBytes: max, tooLarge, state });
}

/** Whether `options` asks for reconnection: `undefined` or `{ reconnect?: boolean }`, else a ConfigError naming what is wrong. */
function reconnects(options: unknown): boolean {
  if (options === undefined) return false;
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new ConfigError(`Stream.events(c, options): options must be an object such as { reconnect: true }, not ${describeValue(options)}`);
  }
  const unknown = Object.keys(options).filter((key) => key !== 'reconnect');
  if (unknown.length > 0)
    throw new ConfigError(`Stream.events(c, options): unknown option ${unknown.map((key) => `'${escape(key)}'`).join(', ')} (known: reconnect)`);
  const reconnect = (options as { reconnect?: unknown }).reconnect;
  if (reconnect !== undefined && typeof reconnect !== 'boolean') {
    throw new ConfigError(`Stream.events(c, { reconnect }): reconnect must be true or false, not ${describeValue(reconnect, true)}`);
  }
  return reconnect === true;
}

/** Each non-blank line parsed as JSON, then converted to `type` (with the mapper of the response's content type, when one is set). */
function ndjsonReader(type: ResultType | undefined): Reader<unknown> {
  return async function* (body, fromServer, request, limit) {
    const mapper = type && (request.context(fromServer.contentType, MAPPER_ID) as Mapper | undefined);
    let number = 0;
    for await (const line of lines(body, { maxLineBytes: limit.max, tooLarge: limit.tooLarge })) {
      number++;
      if (line.trim() === '') continue; // a blank line (a keep-alive, a trailing one) holds no value
      const value = parseLine(line, number, fromServer);
      yield type === undefined ? value : await convertResult(value, type, mapper);
    }
  };
}

function parseLine(line: string, number: number, fromServer: FromServer): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch (error) {
    throw new ParseError(
      `line ${number} of the response of ${urlForMessage(fromServer.uri)} is not valid JSON (${fromServer.contentType}): ${(error as Error).message}`,
      { statusCode: fromServer.statusCode, contentType: fromServer.contentType, text: line },
      { cause: error },
    );
  }
}

/**
 * The stream module (`httpbuilder-ts/stream`): a response read as it arrives, as lines, NDJSON
 * values or server-sent events. Call it inside a request block; the call resolves as soon as a
 * 2xx response head arrives (before any body byte is read) to an `AsyncIterable` of the items
 * (a block that returns the `Stream.*` call types the result). Failures (>= 400) go to the
 * handlers as usual (an `HttpException` by default); a response without a body is an empty stream.
 * Memory stays bounded whatever the stream's length: a line, NDJSON value or event longer than
 * 16 MiB (or `execution.maxResponseSize` when smaller; it bounds each item, not the whole body)
 * fails the loop with `ResponseTooLargeError`; `execution.timeout.read` bounds the silence
 * between chunks and `execution.signal` stops the reading (the total timeout bounds the call,
 * which ends when the head is in). Breaking out of the loop closes the response; iterate the
 * stream, or the connection stays taken. Text is UTF-8.
 *
 * @example
 * import { Stream } from 'httpbuilder-ts/stream';
 * const feed = await http.get((c) => { c.request.uri.path = '/events'; return Stream.events(c); });
 * for await (const event of feed) console.log(event.event, event.data);
 */
export const Stream = Object.freeze({
  /**
   * The body's lines, without their `\n` or `\r\n` (a leading BOM dropped).
   *
   * @example
   * for await (const line of await http.get((c) => { c.request.uri.path = '/logs'; return Stream.lines(c); })) console.log(line);
   */
  lines(config: HttpConfig): StreamOf<string> {
    return streamWith(config, 'a line', readLines);
  },

  /**
   * One value per non-blank line of an NDJSON (JSON Lines) body, each converted to `type` (a
   * class, a built-in like `Date`, or a Standard Schema) when given. A line that is not JSON
   * fails the loop with a `ParseError` naming the line.
   *
   * @throws {ResultTypeError} at once when `type` cannot be a result type.
   * @example
   * for await (const change of await http.get((c) => { c.request.uri.path = '/changes'; return Stream.ndjson(c, Change); })) apply(change);
   */
  ndjson<T extends ResultType | undefined = undefined>(config: HttpConfig, type?: T): StreamOf<T extends ResultType ? ResultOf<T> : unknown> {
    const checked = type === undefined ? undefined : resultType('Stream.ndjson()', type, 'the type');
    return streamWith(config, 'a line', ndjsonReader(checked)) as StreamOf<T extends ResultType ? ResultOf<T> : unknown>;
  },

  /**
   * The server-sent events of a `text/event-stream` body (WHATWG rules: multi-line `data`,
   * comments, `event` defaulting to `'message'`, `id` and `retry` carried on). Asks for
   * `Accept: text/event-stream` unless the block sets an `Accept` of its own.
   *
   * With `{ reconnect: true }` the loop goes on over new connections, as EventSource does: when
   * a 2xx stream ends or breaks (a reset, a read timeout), the request is sent again, with the
   * same settings and `Last-Event-ID: <last id>`, after the last `retry:` value (3000 ms by
   * default, at least 100 ms, doubled for each failed attempt in a row, at most 60 s); a 503, a
   * network failure or a timeout is tried again, a 204 ends the loop, any other failure
   * (`HttpException`, ...) is thrown from it. `break` and `execution.signal` stop it, during a
   * wait too. The first call fails as without it.
   *
   * @param options `{ reconnect?: boolean }`: anything else is a `ConfigError`.
   * @throws {ConfigError} at once when `options` is not such an object.
   * @example
   * for await (const { event, data } of await http.get((c) => { c.request.uri.path = '/feed'; return Stream.events(c); })) console.log(event, data);
   * const feed = await http.get((c) => { c.request.uri.path = '/feed'; return Stream.events(c, { reconnect: true }); });
   */
  events(config: HttpConfig, options?: { readonly reconnect?: boolean }): StreamOf<ServerSentEvent> {
    const reconnect = reconnects(options);
    const request = config.request;
    const ownAccept = request.accept !== undefined || Object.keys(request.headersSet ?? {}).some((name) => name.toLowerCase() === 'accept');
    if (!ownAccept) request.headers.Accept = 'text/event-stream';
    return streamWith(config, 'an event', reconnect ? readReconnecting : readEvents);
  },
});
