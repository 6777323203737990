import { once } from 'node:events';
import type { Writable } from 'node:stream';
import type { Backend } from '../model/backend.js';
import type { BackendName } from '../config/client-config.js';
import type { CliRequest } from './args.js';
import { curlCommand } from './curl-command.js';
import { capturing, requestText, type SentRequest } from './exchange-capture.js';
import { writeText } from './render.js';

/**
 * The `--print` letters in effect: `--print`/`--headers`/`-b`/`--quiet`/`-i`/`--offline` as read,
 * else hb's default `b` (the response body).
 *
 * @example
 * printParts(parseRequest(['get', 'localhost', '--headers'])); // 'h'
 */
export function printParts(request: CliRequest): string {
  return request.print.parts ?? 'b';
}

/** True when hb prints the request instead of sending it (`--offline`, `--curl`). */
export function sendsNothing(request: CliRequest): boolean {
  return request.print.offline || request.print.curl;
}

/**
 * What wraps the client's backend for the print modes: with `H` or `B` each request is printed
 * to `out` as it goes (the first one only: redirects and auth rounds are not repeated, as
 * httpie without `--all`); with `--offline` or `--curl` the first request is printed (as
 * `--print` says, or as a curl command) and nothing is sent. `undefined` when there is nothing
 * to wrap.
 *
 * @example
 * const wrap = exchangePrinter(request, process.stdout);
 * c.client.backend = wrap ? wrap(request.backend) : request.backend;
 */
export function exchangePrinter(
  request: CliRequest,
  out: Writable & { readonly isTTY?: boolean },
): ((inner: BackendName | Backend | undefined) => Backend) | undefined {
  const parts = printParts(request);
  if (!sendsNothing(request) && !/[HB]/.test(parts)) return undefined;
  let printed = false;
  const seen = async (sent: SentRequest) => {
    if (printed) return;
    printed = true;
    if (request.print.curl) await writeText(out, `${curlCommand(request, sent)}\n`);
    else if (!out.write(requestPrint(sent, parts, out.isTTY === true))) await once(out, 'drain');
  };
  return (inner) => capturing(inner, seen, sendsNothing(request));
}

/** The request head (`H`) and body (`B`) as httpie prints them, the body's bytes as sent (on a terminal, a binary one as a note). */
function requestPrint(sent: SentRequest, parts: string, terminal: boolean): Buffer {
  const head = Buffer.from(parts.includes('H') ? requestText(sent.wire) : '', 'utf8');
  const body = sent.body === undefined ? undefined : Buffer.from(sent.body);
  if (!parts.includes('B') || body === undefined || body.length === 0) return head;
  const binary = body.includes(0) || !Buffer.from(body.toString('utf8'), 'utf8').equals(body);
  const shown =
    terminal && binary
      ? Buffer.from('+-----------------------------------------+\n| NOTE: binary data not shown in terminal |\n+-----------------------------------------+')
      : body;
  return Buffer.concat([head, shown, Buffer.from('\n\n')]);
}
