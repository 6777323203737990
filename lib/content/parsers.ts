import { ParseError } from '../core/errors.js';
import type { FromServer } from '../model/from-server.js';
import type { RequestRecord } from '../model/request-record.js';
import { rememberedLookup } from '../core/media-type.js';
import { parseForm } from './form.js';
import { parseCsv, parseXml } from './lazy-codecs.js';

/**
 * Turns a response body into a value. Read the body with `fromServer.text()`, `bytes()` or `stream()`.
 *
 * @example
 * c.response.parser('text/date', async (fromServer) => new Date(await fromServer.text()));
 */
export type Parser = (fromServer: FromServer, request: RequestRecord) => unknown;

/**
 * Marks a parser that also wants responses without a body (an empty 2xx, a 204): the
 * download module writes an empty file for them. Other parsers never see those (the body is `null`).
 */
export const READS_EMPTY_BODIES: unique symbol = Symbol('httpbuilder-ts.readsEmptyBodies');

/**
 * Marks a parser that takes the body to a target of its own (the download module's): the call's
 * result is then what it wrote, so a result type other than the default is refused before sending.
 */
export const DOWNLOADS: unique symbol = Symbol('httpbuilder-ts.downloads');

/**
 * Marks a parser whose value reads the body after the call resolved (the stream module's): see
 * {@link takesBodyUnread}. A result type is refused for it too.
 */
export const STREAMS: unique symbol = Symbol('httpbuilder-ts.streams');

/**
 * Whether `parse` takes this response's body unread (not even peeked at, which would wait for its
 * first byte), to read after the call resolved and free the connection when its reader stops: a
 * stream module's parser does for every status below 400 (a failure's body is parsed as usual,
 * for the failure handlers).
 */
export function takesBodyUnread(parse: Parser, status: number): boolean {
  return STREAMS in parse && status < 400;
}

function parseJson(fromServer: FromServer): Promise<unknown> {
  return fromServer.parsedText(parseJsonText);
}

function parseJsonText(text: string, fromServer: FromServer): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    if (text.trim() === '') return null; // checked only on failure: the common case pays nothing
    throw new ParseError(
      `the ${fromServer.statusCode} response is not valid JSON (${fromServer.contentType}): ${(error as Error).message}`,
      { statusCode: fromServer.statusCode, contentType: fromServer.contentType, text },
      { cause: error },
    );
  }
}

/** The built-in parsers, by media type (suffix and wildcard keys allowed). */
export const DEFAULT_PARSERS: ReadonlyMap<string, Parser> = new Map<string, Parser>([
  ['application/json', parseJson],
  ['*/*+json', parseJson],
  ['application/xml', parseXml],
  ['text/xml', parseXml],
  ['*/*+xml', parseXml],
  ['text/csv', parseCsv],
  ['text/tab-separated-values', parseCsv],
  ['text/*', (fromServer) => fromServer.text()],
  ['application/x-www-form-urlencoded', async (fromServer) => parseForm(await fromServer.text())],
  ['*/*', (fromServer) => fromServer.bytes()],
]);

const DEFAULT_LEVEL = [DEFAULT_PARSERS];

const rememberedParser = rememberedLookup(DEFAULT_LEVEL);
const NO_LEVELS: ReadonlyArray<ReadonlyMap<string, Parser>> = [];

/** The parser for a media type: the nearest level's, else the built-in one (so there always is one). */
export function parserFor(levels: ReadonlyArray<ReadonlyMap<string, Parser>>, type: string): Parser {
  return rememberedParser(levels, type)!;
}

/** The built-in parser for a media type (`*\/*` catches everything, so there always is one). */
export function defaultParser(type: string): Parser {
  return parserFor(NO_LEVELS, type);
}
