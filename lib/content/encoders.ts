import { bufferedBody, bufferedText, type WireBody } from '../model/backend.js';
import { isThenable } from '../core/maybe-promise.js';
import { describeValue } from '../core/describe-value.js';
import { EncodeError, HttpBuilderError } from '../core/errors.js';
import type { RequestRecord } from '../model/request-record.js';
import { encodeText, encodesAsUtf8, namedCharset } from '../core/charset.js';
import { encodeForm } from './form.js';
import { parseMediaType, rememberedLookup } from '../core/media-type.js';
import { isRawUpload, rawUploadBody, type RawUpload } from './raw-upload.js';
import { isMultipart } from './multipart-brand.js';
import { encodeCsv, encodeMultipart, encodeXml } from './lazy-codecs.js';
import { isFormData } from './form-data.js';
import { utf8, utf8Length } from '../core/bytes.js';

/** An encoded request body and the content type it goes with. */
export interface EncodedRequestBody {
  readonly body: WireBody;
  readonly contentType: string;
}

/**
 * An encoder's result that frames itself: a wire body (its `length`, when known, becomes the
 * `Content-Length`; else it is sent chunked) and, optionally, the exact `Content-Type` to send
 * instead of the request's (e.g. one carrying a multipart boundary).
 *
 * @example
 * c.request.encoder('application/x-ndjson', (rows) => ({ wire: streamedBody(toLines(rows)) }));
 */
export interface EncodedWire {
  readonly wire: WireBody;
  readonly contentType?: string;
}

/** What an encoder may produce. */
export type EncodedBody = string | RawUpload | EncodedWire;

/**
 * Turns a request body into bytes for a content type.
 *
 * @example
 * c.request.encoder('text/yaml', (body) => YAML.stringify(body));
 */
export type Encoder = (body: unknown, request: RequestRecord) => EncodedBody | Promise<EncodedBody>;

function encodeJson(body: unknown): string {
  if (typeof body === 'string') return body;
  const json = JSON.stringify(body) as string | undefined; // a function or symbol has no JSON
  if (json === undefined) throw new EncodeError(`the body (${describeValue(body)}) has no JSON form`);
  // a FormData's JSON is `{}`: checked only then, so other bodies pay nothing
  if (json === '{}' && isFormData(body)) throw new EncodeError("a FormData body needs content type 'multipart/form-data'");
  return json;
}

function encodeTextBody(body: unknown): string {
  return String(body);
}

function rejectObjects(body: unknown, request: RequestRecord): string {
  if (typeof body === 'string') return body;
  throw new EncodeError(
    `no encoder for the body (${describeValue(body)}) with content type '${request.contentType}': ` +
      'send bytes, a stream or a string, or register one with request.encoder()',
  );
}

function isEncodedWire(value: unknown): value is EncodedWire {
  if (typeof value !== 'object' || value === null) return false;
  const { wire, contentType } = value as Partial<EncodedWire>;
  return (
    typeof wire === 'object' &&
    wire !== null &&
    typeof wire[Symbol.asyncIterator] === 'function' &&
    (contentType === undefined || typeof contentType === 'string')
  );
}

/** The built-in encoders, by media type (suffix and wildcard keys allowed). */
export const DEFAULT_ENCODERS: ReadonlyMap<string, Encoder> = new Map<string, Encoder>([
  ['application/json', encodeJson],
  ['*/*+json', encodeJson],
  ['application/xml', encodeXml],
  ['text/xml', encodeXml],
  ['*/*+xml', encodeXml],
  ['text/csv', encodeCsv],
  ['text/tab-separated-values', encodeCsv],
  ['text/*', encodeTextBody],
  ['application/x-www-form-urlencoded', (body) => (typeof body === 'string' ? body : encodeForm(body))],
  ['multipart/form-data', encodeMultipart],
  ['*/*', rejectObjects],
]);

const DEFAULT_ENCODER_LEVEL = [DEFAULT_ENCODERS];
const rememberedEncoder = rememberedLookup(DEFAULT_ENCODER_LEVEL);

/**
 * Encodes `record.body` with the encoder its content type selects (nearest layer first).
 * Returns the wire body and the content type to send, or `undefined` for no body; a promise of
 * them only when the encoder returned one (JSON, text and form do not: no await for those; XML,
 * CSV and multipart do, their code loaded at first use: lazy-codecs.ts).
 */
export function encodeBody(
  record: RequestRecord,
  encoders: ReadonlyArray<ReadonlyMap<string, Encoder>>,
): EncodedRequestBody | Promise<EncodedRequestBody> | undefined {
  const body = record.body;
  if (body === null || body === undefined) return undefined;
  if (isRawUpload(body)) return { body: rawUploadBody(body), contentType: record.contentType ?? 'application/octet-stream' };
  let contentType = record.contentType;
  if (contentType === undefined && (isMultipart(body) || isFormData(body))) contentType = 'multipart/form-data';
  if (contentType === undefined) {
    if (typeof body !== 'string') {
      throw new EncodeError(`the request body is ${describeValue(body)} but no content type is set: set request.contentType`);
    }
    contentType = 'text/plain';
  }
  const mediaType = parseMediaType(contentType).type; // remembered per value: no split per request
  const encoder = rememberedEncoder(encoders, mediaType)!;
  let encoded: unknown;
  try {
    encoded = encoder(body, record);
  } catch (error) {
    throw encoderFailure(error, contentType);
  }
  if (isThenable(encoded)) {
    return Promise.resolve(encoded).then(toWireBody.bind(undefined, record, contentType), encoderRejected.bind(undefined, contentType));
  }
  return toWireBody(record, contentType, encoded);
}

/** An encoder's promise rejected: the error typed (bound per call, not an arrow: docs/performance.md, "Arrows made per request"). */
function encoderRejected(contentType: string, error: unknown): Promise<never> {
  return Promise.reject(encoderFailure(error, contentType));
}

/** What an encoder returned, as the body to send. */
function toWireBody(record: RequestRecord, contentType: string, encoded: unknown): EncodedRequestBody {
  // the charset the content type names, when request.charset does not: the bytes must be what the label says
  if (typeof encoded === 'string') return { body: textBody(encoded, record.charset ?? namedCharset(contentType)), contentType };
  if (isRawUpload(encoded)) return { body: rawUploadBody(encoded), contentType };
  if (isEncodedWire(encoded)) return { body: encoded.wire, contentType: encoded.contentType ?? contentType };
  throw new EncodeError(`the encoder for '${contentType}' returned ${describeValue(encoded)}, not a string, bytes, a stream, a Blob or { wire }`);
}

/**
 * Text as a body in `charset`. A UTF-8 body keeps its text, for transports that take strings,
 * and is encoded only when something asks for its bytes (its length is counted without that).
 */
function textBody(text: string, charset: string | undefined): WireBody {
  // utf8/utf8Length take Node's Buffer fast paths where there is one (core/bytes.ts)
  return encodesAsUtf8(charset) ? bufferedText(text, utf8Length(text), utf8) : bufferedBody(encodeText(text, charset));
}

function encoderFailure(error: unknown, contentType: string): Error {
  if (error instanceof HttpBuilderError) return error;
  // circular objects, BigInt, a user encoder's bug: name the content type, keep the cause
  // (which may be no Error at all: `throw 'nope'`, a rejection with undefined)
  const why = error instanceof Error ? error.message : typeof error === 'string' ? error : `it threw ${describeValue(error)}`;
  return new EncodeError(`the encoder for '${contentType}' failed: ${why}`, { cause: error });
}
