import { EncodeError, ParseError } from '../errors.js';
import type { FromServer } from '../pipeline/from-server.js';

// csv-parse and csv-stringify are loaded on first use: most clients never touch CSV
const delimiterOf = (contentType: string | undefined) => (contentType?.toLowerCase().startsWith('text/tab-separated-values') ? '\t' : ',');

/** Rows of arrays, or of objects (their keys become the header row) → CSV or TSV; a string goes as is. */
export async function encodeCsv(body: unknown, request: { readonly contentType: string | undefined }): Promise<string> {
  if (typeof body === 'string') return body;
  if (!Array.isArray(body)) throw new EncodeError(`a ${request.contentType} body must be a string or an array of rows`);
  const { stringify } = await import('csv-stringify/sync');
  const objects = body.length > 0 && !Array.isArray(body[0]);
  return stringify(body as unknown[][], { delimiter: delimiterOf(request.contentType), header: objects });
}

/** CSV or TSV → `string[][]`. */
export async function parseCsv(fromServer: FromServer): Promise<string[][]> {
  const text = await fromServer.text();
  const { parse } = await import('csv-parse/sync');
  try {
    return parse(text, { delimiter: delimiterOf(fromServer.contentType), relax_column_count: true });
  } catch (error) {
    throw new ParseError(`the ${fromServer.statusCode} response is not valid CSV: ${(error as Error).message}`, { statusCode: fromServer.statusCode, contentType: fromServer.contentType, text }, { cause: error });
  }
}
