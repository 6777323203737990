import { describeValue } from '../core/describe-value.js';
import { EncodeError, ParseError } from '../core/errors.js';
import { namedCharset } from '../core/charset.js';
import { isPlainObject } from '../core/scalar.js';
import type { FromServer } from '../model/from-server.js';
import type { RequestRecord } from '../model/request-record.js';

// xml2js is loaded on first use: most clients never send or receive XML
const xml2js = () => import('xml2js');

/** Object → XML with xml2js `Builder` conventions (`{ message: { $: { value: 'ok' } } }`); a string goes as is. */
export async function encodeXml(body: unknown, request: RequestRecord): Promise<string> {
  if (typeof body === 'string') return body;
  // xml2js builds an empty <root/> from an array, a number, a Map or a Date (it reads own
  // enumerable keys only): the data would be lost without a word
  if (!isPlainObject(body)) {
    throw new EncodeError(`an XML body must be a string or an object ({ root: { ... } }), not ${describeValue(body)}`);
  }
  const { Builder } = await xml2js();
  return new Builder({ xmldec: { version: '1.0', encoding: (request.charset ?? namedCharset(request.contentType) ?? 'UTF-8').toUpperCase() } }).buildObject(
    body,
  );
}

/** XML → object (xml2js `Parser` defaults: attributes under `$`, repeated elements as arrays). */
export async function parseXml(fromServer: FromServer): Promise<unknown> {
  const text = await fromServer.text();
  const { Parser } = await xml2js();
  try {
    return (await new Parser().parseStringPromise(text)) as unknown;
  } catch (error) {
    throw new ParseError(
      `the ${fromServer.statusCode} response is not valid XML (${fromServer.contentType}): ${(error as Error).message.split('\n')[0]}`,
      { statusCode: fromServer.statusCode, contentType: fromServer.contentType, text },
      { cause: error },
    );
  }
}
