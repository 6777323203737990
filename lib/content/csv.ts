import { describeValue } from '../core/describe-value.js';
import { EncodeError, ParseError } from '../core/errors.js';
import type { FromServer } from '../model/from-server.js';
import { isPlainObject } from '../core/scalar.js';
import { codecLoader, noCodec } from './codec-loaders.js';

// csv-parse and csv-stringify are loaded on first use (most clients never touch CSV), through the
// seam the node platform fills: a browser bundle leaves them out
const delimiterOf = (contentType: string | undefined) => (contentType?.toLowerCase().startsWith('text/tab-separated-values') ? '\t' : ',');

/**
 * Rows of arrays, or of objects → CSV or TSV; a string goes as is. Object rows get a header row
 * of every key of every row, in first-seen order, and an empty cell where a row lacks one.
 */
export async function encodeCsv(body: unknown, request: { readonly contentType: string | undefined }): Promise<string> {
  if (typeof body === 'string') return body;
  if (!Array.isArray(body)) throw new EncodeError(`a ${request.contentType} body must be a string or an array of rows, not ${describeValue(body)}`);
  const rows = checkRows(body as unknown[], request.contentType);
  const load = codecLoader('csvStringify');
  if (load === undefined) throw new EncodeError(`the request body of ${noCodec('CSV', request.contentType, 'c.request.encoder()')}`);
  const { stringify } = await load();
  return stringify(rows, { delimiter: delimiterOf(request.contentType) });
}

/**
 * The rows as arrays of cells (with the header row first for object rows). All arrays or all
 * plain objects: a row of the other kind would lose cells (an array's past the header) or have
 * no header to go under, and a Map or a null has no cells at all.
 */
function checkRows(body: readonly unknown[], contentType: string | undefined): unknown[][] {
  const objects = body.length > 0 && !Array.isArray(body[0]);
  body.forEach((row, index) => {
    if (objects ? isPlainObject(row) : Array.isArray(row)) return;
    const first = index === 0 ? '' : `, but row 0 is ${describeValue(body[0])}`;
    throw new EncodeError(`row ${index} of the ${contentType} body is ${describeValue(row)}${first}: the rows must be all arrays or all plain objects`);
  });
  return objects ? tableOf(body as ReadonlyArray<Record<string, unknown>>) : (body as unknown[][]);
}

/** Object rows → the header row (the union of their keys, first-seen order) and one array per row. */
function tableOf(rows: ReadonlyArray<Record<string, unknown>>): unknown[][] {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  // own keys only: a row lacking `constructor` or `toString` gets an empty cell, not a method
  return [columns, ...rows.map((row) => columns.map((column) => (Object.hasOwn(row, column) ? row[column] : undefined)))];
}

/** CSV or TSV → `string[][]`. */
export async function parseCsv(fromServer: FromServer): Promise<string[][]> {
  const text = await fromServer.text();
  const load = codecLoader('csvParse');
  if (load === undefined) {
    const why = `the ${fromServer.statusCode} response of ${noCodec('CSV', fromServer.contentType, 'c.response.parser()')}`;
    throw new ParseError(why, { statusCode: fromServer.statusCode, contentType: fromServer.contentType, text });
  }
  const { parse } = await load();
  try {
    return parse(text, { delimiter: delimiterOf(fromServer.contentType), relax_column_count: true });
  } catch (error) {
    throw new ParseError(
      `the ${fromServer.statusCode} response is not valid CSV: ${(error as Error).message}`,
      { statusCode: fromServer.statusCode, contentType: fromServer.contentType, text },
      { cause: error },
    );
  }
}
