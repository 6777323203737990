import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FromServer } from '../model/from-server.js';
import { events } from '../content/event-stream.js';
import { lines, MAX_ITEM_TEXT } from '../content/line-stream.js';
import { ResponseTooLargeError } from '../core/errors.js';
import { urlForMessage } from '../core/redact.js';
import { prettyJson } from './json-pretty.js';

/** How stdout is written: `pretty` when it is a terminal, `colour` when it is one and colours are allowed. */
export interface OutputStyle {
  readonly pretty: boolean;
  readonly colour: boolean;
}

/**
 * The style for a stdout: pretty when `isTTY`, coloured unless `NO_COLOR` is set (non-empty,
 * see no-color.org) or `TERM=dumb`.
 */
export function outputStyle(isTTY: boolean | undefined, env: Readonly<Record<string, string | undefined>>): OutputStyle {
  const pretty = isTTY === true;
  return { pretty, colour: pretty && (env.NO_COLOR ?? '') === '' && env.TERM !== 'dumb' };
}

/** True for `application/json` and any `*\/*+json` media type. */
export function isJsonType(contentType: string): boolean {
  return contentType === 'application/json' || contentType.endsWith('+json');
}

/** What a head line looks like on screen: anything below U+0020 (an escape sequence) shown as `\xNN`. */
export function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/**
 * A status line as curl prints it: `HTTP/1.1 200 OK`, or `HTTP/2 200` (HTTP/2 sends no reason
 * phrase; the library's stand-in for one is not shown).
 */
export function statusLine(httpVersion: '1.1' | '2.0' | undefined, statusCode: number, message: string): string {
  if (httpVersion === '2.0') return `HTTP/2 ${statusCode}`;
  return `HTTP/1.1 ${statusCode}${message === '' ? '' : ` ${printable(message)}`}`;
}

/**
 * The status line and headers as `-i` prints them: `HTTP/1.1 200 OK` (`HTTP/2 200` over
 * HTTP/2), one `Name: value` line per header as received, then an empty line.
 */
export function formatHead(fromServer: FromServer, colour: boolean): string {
  const bold = (t: string) => (colour ? `\x1b[1m${t}\x1b[0m` : t);
  const cyan = (t: string) => (colour ? `\x1b[36m${t}\x1b[0m` : t);
  let head = bold(statusLine(fromServer.httpVersion, fromServer.statusCode, fromServer.message)) + '\n';
  for (const [name, value] of fromServer.headers) head += `${cyan(printable(name))}: ${printable(value)}\n`;
  return head + '\n';
}

/** Writes `text` and waits for the stream to take it. */
export async function writeText(out: Writable, text: string): Promise<void> {
  if (text !== '' && !out.write(text)) await once(out, 'drain');
}

/**
 * Writes the response body to `out`: a JSON body pretty-printed (and coloured) when the style
 * is pretty, otherwise the bytes exactly as received (after decompression), streamed.
 */
export async function writeBody(fromServer: FromServer, out: Writable, style: OutputStyle): Promise<void> {
  if (style.pretty && isJsonType(fromServer.contentType)) {
    const text = await fromServer.text();
    await writeText(out, prettyJson(text, style.colour) ?? text);
    return;
  }
  await pipeline(fromServer.stream(), out, { end: false });
}

/**
 * `--stream`: writes the body to `out` line by line as each line completes (without a `\r`
 * before its `\n`), or, for `text/event-stream`, each server-sent event as one JSON line
 * `{"event":...,"data":...,"id":...,"retry":...}`. A line or event over 16 MiB fails with
 * `ResponseTooLargeError`, as a library `Stream` does: memory stays bounded.
 */
export async function writeStreamed(fromServer: FromServer, out: Writable): Promise<void> {
  const tooLarge = (item: string) => () =>
    new ResponseTooLargeError(
      `${item} of the response of ${urlForMessage(fromServer.uri)} is larger than ${MAX_ITEM_TEXT}; without --stream the body is printed as it comes`,
    );
  if (fromServer.contentType === 'text/event-stream') {
    for await (const event of events(fromServer.stream(), { tooLarge: tooLarge('an event') })) await writeText(out, `${JSON.stringify(event)}\n`);
  } else {
    for await (const line of lines(fromServer.stream(), { tooLarge: tooLarge('a line') })) await writeText(out, `${line}\n`);
  }
}
