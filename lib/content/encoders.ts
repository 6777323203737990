import { bufferedBody, type WireBody } from '../backends/backend.js';
import { EncodeError } from '../errors.js';
import type { RequestRecord } from '../pipeline/request-record.js';
import { encodeText } from './charset.js';
import { encodeForm } from './form.js';
import { lookup } from './media-type.js';
import { isRawUpload, rawUploadBody, type RawUpload } from './raw-upload.js';

/** An encoded request body and the content type it goes with. */
export interface EncodedRequestBody {
  readonly body: WireBody;
  readonly contentType: string;
}

/** What an encoder may produce. */
export type EncodedBody = string | RawUpload;

/**
 * Turns a request body into bytes for a content type.
 *
 * @example
 * c.request.encoder('text/yaml', (body) => YAML.stringify(body));
 */
export type Encoder = (body: unknown, request: RequestRecord) => EncodedBody | Promise<EncodedBody>;

function encodeJson(body: unknown): string {
  return typeof body === 'string' ? body : JSON.stringify(body);
}

function encodeTextBody(body: unknown): string {
  return String(body);
}

function rejectObjects(body: unknown, request: RequestRecord): string {
  if (typeof body === 'string') return body;
  throw new EncodeError(
    `no encoder for a ${describe(body)} body with content type '${request.contentType}': ` +
      'send bytes, a stream or a string, or register one with request.encoder()',
  );
}

function describe(body: unknown): string {
  return Array.isArray(body) ? 'array' : typeof body;
}

/** The built-in encoders, by media type (suffix and wildcard keys allowed). */
export const DEFAULT_ENCODERS: ReadonlyMap<string, Encoder> = new Map<string, Encoder>([
  ['application/json', encodeJson],
  ['*/*+json', encodeJson],
  ['text/*', encodeTextBody],
  ['application/x-www-form-urlencoded', (body) => (typeof body === 'string' ? body : encodeForm(body))],
  ['*/*', rejectObjects],
]);

/**
 * Encodes `record.body` with the encoder its content type selects (nearest layer first).
 * Returns the wire body and the content type to send, or `undefined` for no body.
 */
export async function encodeBody(
  record: RequestRecord,
  encoders: ReadonlyArray<ReadonlyMap<string, Encoder> | undefined>,
): Promise<EncodedRequestBody | undefined> {
  const body = record.body;
  if (body === null || body === undefined) return undefined;
  if (isRawUpload(body)) return { body: rawUploadBody(body), contentType: record.contentType ?? 'application/octet-stream' };
  let contentType = record.contentType;
  if (contentType === undefined) {
    if (typeof body !== 'string') {
      throw new EncodeError(
        `the request body is ${describe(body) === 'object' ? 'an object' : `a ${describe(body)}`} but no content type is set: set request.contentType`,
      );
    }
    contentType = 'text/plain';
  }
  const mediaType = contentType.split(';')[0].trim().toLowerCase();
  const encoder = lookup(encoders, mediaType) ?? rejectObjects;
  const encoded = await encoder(body, record);
  if (typeof encoded === 'string') return { body: bufferedBody(encodeText(encoded, record.charset)), contentType };
  return { body: rawUploadBody(encoded), contentType };
}
