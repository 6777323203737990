import { EncodeError } from '../core/errors.js';
import { isScalar } from '../core/scalar.js';
import { describeValue } from '../core/describe-value.js';
import { isPartContent, releaseContent, type PartContent } from './multipart-source.js';
import { MULTIPART_BRAND, type MultipartPart } from './multipart-brand.js';

export type { PartContent, PartStream, PathSource, SizedStream } from './multipart-source.js';
export { isMultipart, type MultipartPart } from './multipart-brand.js';

/** What the block given to {@link multipart} receives. */
export interface MultipartBuilder {
  /** Adds a plain field (`Content-Disposition: form-data; name="..."`), its value sent as UTF-8. */
  field(name: string, value: string | number | boolean): MultipartBuilder;
  /** Adds a file part (`name` and `filename` in `Content-Disposition`, and a `Content-Type`). */
  part(name: string, fileName: string, contentType: string, content: PartContent): MultipartBuilder;
}

/** A multipart/form-data body: built by {@link multipart}, encoded (and streamed) by the `multipart/form-data` encoder. */
export class Multipart {
  readonly [MULTIPART_BRAND] = true;
  /** The parts in the order they were added (they go out in this order). */
  readonly parts: readonly MultipartPart[];

  /** Build one with {@link multipart}. */
  constructor(parts: readonly MultipartPart[]) {
    this.parts = Object.freeze([...parts]);
  }

  /** A multipart body has no JSON form: this makes a wrong content type an error, not `{"parts":...}`. */
  toJSON(): never {
    throw new EncodeError("a multipart body needs content type 'multipart/form-data'");
  }
}

/**
 * Builds a `multipart/form-data` body. Parts go out in the order added, each with
 * `Content-Disposition: form-data; name="..."` (plus `filename="..."` for a file part), a
 * `Content-Type` for file parts, and a `Content-Length` whenever its size is known. The
 * boundary is 128 random bits from a CSPRNG, fresh for every request; the request's
 * `Content-Type` becomes `multipart/form-data; boundary=...`. When every part's size is known
 * the request has a `Content-Length`, otherwise it is sent chunked.
 *
 * File content may be a string (UTF-8), bytes (`Buffer`, `Uint8Array`, `ArrayBuffer`), a `Blob`,
 * `{ path }` (a file, streamed with `fs.createReadStream`, its size from `fs.stat`; on Node, Bun
 * and Deno only: elsewhere a `ConfigError` names the part), a stream
 * (node `Readable`, web `ReadableStream` or any async iterable of bytes; size unknown) or
 * `{ stream, size }` (a stream that will deliver exactly `size` bytes). Files and streams are
 * streamed, never read whole into memory. A stream can be sent only once.
 *
 * A name, file name or content type containing CR, LF or NUL is rejected with `EncodeError`
 * (naming it) before anything is sent. A double quote in a name or file name is sent as `%22`,
 * as browsers do (HTML's multipart/form-data encoding algorithm); other characters are sent as
 * UTF-8. When no `request.contentType` is set, a multipart body selects `multipart/form-data`.
 * A web `FormData` can be the body too (in any runtime, the browser included): its strings are
 * sent as fields and its `File`s as file parts, in order, framed the same way.
 *
 * @example
 * import { multipart } from 'httpbuilder-ts';
 * await http.post((c) => {
 *   c.request.uri.path = '/upload';
 *   c.request.contentType = 'multipart/form-data';
 *   c.request.body = multipart((mp) => {
 *     mp.field('alpha', 'one');
 *     mp.part('notes', 'notes.txt', 'text/plain', 'some text');
 *     mp.part('photo', 'photo.jpg', 'image/jpeg', { path: './photo.jpg' });
 *     mp.part('log', 'log.txt', 'text/plain', { stream: fs.createReadStream('./log.txt'), size: 1234 });
 *   });
 * });
 */
export function multipart(block: (mp: MultipartBuilder) => void): Multipart {
  const parts: MultipartPart[] = [];
  const builder: MultipartBuilder = {
    field(name, value) {
      checkText('field name', name);
      if (!isScalar(value)) {
        throw new EncodeError(`the value of multipart field '${name}' must be a string, number or boolean, not ${describeValue(value)}`);
      }
      parts.push({ name, fileName: undefined, contentType: undefined, content: String(value) });
      return builder;
    },
    part(name, fileName, contentType, content) {
      checkText('part name', name);
      checkText(`file name of part '${name}'`, fileName);
      checkText(`content type of part '${name}'`, contentType);
      if (!isPartContent(content)) {
        throw new EncodeError(
          `the content of multipart part '${name}' must be a string, bytes, a Blob, { path }, a stream or { stream, size }, not ${describeValue(content)}`,
        );
      }
      parts.push({ name, fileName, contentType: contentType === '' ? 'application/octet-stream' : contentType, content });
      return builder;
    },
  };
  try {
    block(builder);
  } catch (error) {
    for (const part of parts) releaseContent(part.content); // nothing will ever read them
    throw error;
  }
  return new Multipart(parts);
}

function checkText(what: string, value: unknown): void {
  if (typeof value !== 'string') throw new EncodeError(`the multipart ${what} must be a string, not ${describeValue(value)}`);
  const bad = /[\r\n\0]/.exec(value);
  if (bad) {
    const shown = value.replace(/[\r\n\0]/g, (c) => ({ '\r': '\\r', '\n': '\\n', '\0': '\\0' })[c]!);
    throw new EncodeError(`the multipart ${what} '${shown}' contains ${bad[0] === '\0' ? 'NUL' : bad[0] === '\r' ? 'CR' : 'LF'}`);
  }
}
