import { describeValue } from '../core/describe-value.js';
import { EncodeError, ParseError } from '../core/errors.js';
import { namedCharset } from '../core/charset.js';
import { isPlainObject } from '../core/scalar.js';
import type { FromServer } from '../model/from-server.js';
import type { RequestRecord } from '../model/request-record.js';
import { codecLoader, noCodec } from './codec-loaders.js';

// xml2js is loaded on first use (most clients never send or receive XML), through the seam the
// node platform fills: a browser bundle leaves it out

/** Object → XML with xml2js `Builder` conventions (`{ message: { $: { value: 'ok' } } }`); a string goes as is. */
export async function encodeXml(body: unknown, request: RequestRecord): Promise<string> {
  if (typeof body === 'string') return body;
  // xml2js builds an empty <root/> from an array, a number, a Map or a Date (it reads own
  // enumerable keys only): the data would be lost without a word
  if (!isPlainObject(body)) {
    throw new EncodeError(`an XML body must be a string or an object ({ root: { ... } }), not ${describeValue(body)}`);
  }
  const load = codecLoader('xml');
  if (load === undefined) throw new EncodeError(`the request body of ${noCodec('XML', request.contentType, 'c.request.encoder()')}`);
  const { Builder } = await load();
  return new Builder({ xmldec: { version: '1.0', encoding: (request.charset ?? namedCharset(request.contentType) ?? 'UTF-8').toUpperCase() } }).buildObject(
    body,
  );
}

/** XML → object (xml2js `Parser` defaults: attributes under `$`, repeated elements as arrays). */
export async function parseXml(fromServer: FromServer): Promise<unknown> {
  const text = await fromServer.text();
  const load = codecLoader('xml');
  if (load === undefined) {
    const why = `the ${fromServer.statusCode} response of ${noCodec('XML', fromServer.contentType, 'c.response.parser()')}`;
    throw new ParseError(why, { statusCode: fromServer.statusCode, contentType: fromServer.contentType, text });
  }
  const { Parser } = await load();
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
