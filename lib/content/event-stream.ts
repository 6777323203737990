import { ResponseTooLargeError } from '../core/errors.js';
import { ByteBuffer } from './byte-buffer.js';
import { LineSplitter, MAX_ITEM_BYTES, type StreamLimit } from './line-stream.js';
// WHATWG HTML §9.2.6 "Interpreting an event stream", on bytes: field names are ASCII, so the
// colon and the space after it are found in the line's bytes and only values are decoded.

const COLON = 0x3a;
const SPACE = 0x20;
const LF = 0x0a;

/** One event of a `text/event-stream` body. */
export interface ServerSentEvent {
  /** The `event` field, `'message'` when the event has none. */
  readonly event: string;
  /** The `data` lines, joined with `\n`. */
  readonly data: string;
  /** The last event ID in effect: set by an `id` field of this or an earlier event; `''` after an empty `id`. */
  readonly id: string | undefined;
  /** The reconnection time (ms) in effect: set by a `retry` field of this or an earlier event. */
  readonly retry: number | undefined;
}

/**
 * What one parse leaves for the next to go on from (a reconnection, `Stream.events(c, { reconnect: true })`):
 * read when the parse starts, kept up to date as it goes.
 */
export interface EventStreamState {
  /** The last event ID, as `EventSource.lastEventId`: an `id` field's, taken when its event ends (with or without data). */
  lastEventId: string | undefined;
  /** The reconnection time (ms) a `retry` field set last. */
  retry: number | undefined;
}

/**
 * The events of a `text/event-stream` body, parsed as the WHATWG HTML standard says: lines end
 * with `\r\n`, `\n` or `\r`; a leading BOM is dropped; lines starting with `:` are comments; a
 * line without a colon is a field with an empty value; one space after the colon is dropped;
 * fields are `event`, `data` (lines joined with `\n`), `id` (ignored when it contains NUL) and
 * `retry` (ignored unless all ASCII digits), others are ignored. An empty line dispatches the
 * event, unless it has no data. `id` and `retry` persist: each event carries those in effect
 * (as `EventSource.lastEventId` would), even when set by a line of an event that was not
 * dispatched. An event the body ends in the middle of is discarded.
 *
 * `maxEventBytes` (default 16 MiB) bounds what is buffered: the bytes of an event's lines,
 * comments left out and line ends not counted (`data: a\ndata: b\n\n` is 14 bytes), and of any
 * one line, comments included; more throws {@link ResponseTooLargeError}. Stopping early
 * (`break`) stops reading the body. `state`, when given, supplies the ID and reconnection time
 * in effect at the start and gets them as they change.
 *
 * @example
 * for await (const e of events(response.body, { maxEventBytes: 1 << 20 })) {
 *   if (e.event === 'update') apply(JSON.parse(e.data));
 * }
 */
export async function* events(
  body: AsyncIterable<Uint8Array>,
  options: StreamLimit & { maxEventBytes?: number; state?: EventStreamState } = {},
): AsyncIterable<ServerSentEvent> {
  const max = options.maxEventBytes ?? MAX_ITEM_BYTES;
  const tooLarge = options.tooLarge ?? (() => new ResponseTooLargeError(`an event of the response body is larger than maxEventBytes (${max} bytes)`));
  const splitter = new LineSplitter(true, max, tooLarge);
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let type = '';
  // the data lines' bytes, each followed by `\n`, in one buffer (decoded once, at dispatch): no
  // object per line, so the bytes counted below bound the memory whatever the lines' lengths
  const data = new ByteBuffer(max, tooLarge);
  let eventBytes = 0;
  const state = options.state;
  let id = state?.lastEventId;
  let retry = state?.retry;

  function field(line: Uint8Array): ServerSentEvent | undefined {
    if (line.length === 0) {
      // dispatch; an event without data only resets the buffers (its ID is the last one all the same)
      if (state) state.lastEventId = id;
      const bytes = data.take();
      const event = bytes.length === 0 ? undefined : { event: type === '' ? 'message' : type, data: decoder.decode(bytes.subarray(0, -1)), id, retry };
      type = '';
      eventBytes = 0;
      return event;
    }
    if (line[0] === COLON) return undefined; // a comment: not buffered, so not counted
    eventBytes += line.length;
    if (eventBytes > max) throw tooLarge();
    let colon = line.indexOf(COLON);
    if (colon === -1) colon = line.length;
    const name = decoder.decode(line.subarray(0, colon));
    const start = line[colon + 1] === SPACE ? colon + 2 : colon + 1;
    const value = line.subarray(Math.min(start, line.length));
    if (name === 'data') {
      data.append(value);
      data.appendByte(LF);
    } else if (name === 'event') type = decoder.decode(value);
    else if (name === 'id') {
      if (!value.includes(0)) id = decoder.decode(value);
    } else if (name === 'retry') {
      const text = decoder.decode(value);
      if (/^[0-9]+$/.test(text)) {
        retry = Number(text);
        if (state) state.retry = retry;
      }
    }
    return undefined;
  }

  // for await closes the body (return()) on break, on throw and on a limit error
  for await (const chunk of body) {
    for (const line of splitter.push(chunk)) {
      const event = field(line);
      if (event !== undefined) yield event;
    }
  }
  // a last line without line end cannot complete an event: nothing more to dispatch
}
