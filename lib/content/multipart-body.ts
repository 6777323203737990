import { streamedBody, type WireBody } from '../model/backend.js';
import { randomBytes, toHex, utf8 } from '../core/bytes.js';
import { describeValue } from '../core/describe-value.js';
import { EncodeError } from '../core/errors.js';
import { multipart, type Multipart, type PartStream } from './multipart.js';
import type { MultipartPart, MultipartParts } from './multipart-brand.js';
import { isPathSource, isSizedStream, releaseContent } from './multipart-source.js';
import { checkUnread, isBlob, iterableOf } from './stream-source.js';
import { bytesOf } from './raw-upload.js';
import { openFile } from './file-source.js';
import { isFormData } from './form-data.js';

const CRLF = utf8('\r\n');

/** One part, ready to go: its header block, its size when known, and a way to read its content. */
interface PreparedPart {
  readonly head: Uint8Array;
  readonly size: number | undefined;
  content(): AsyncIterable<Uint8Array> | Iterable<Uint8Array>;
  release(): void;
}

/** A {@link Multipart} or a web `FormData` framed with a fresh boundary (lazy-codecs.ts's encoder has checked which it is). */
export function framed(body: MultipartParts | FormData): Promise<{ wire: WireBody; contentType: string }> {
  return multipartBody(isFormData(body) ? multipartOf(body) : body);
}

/**
 * A `FormData`'s entries as a multipart body, in order: a string is a field, a `File` a file part
 * with its name and type (`application/octet-stream` when it has none), streamed from the Blob.
 */
function multipartOf(form: FormData): Multipart {
  return multipart((mp) => {
    for (const [name, value] of form.entries()) {
      if (typeof value === 'string') mp.field(name, value);
      else mp.part(name, value.name, value.type, value);
    }
  });
}

/** Frames `mp`: `length` is known when every part's size is; sources are opened only when the body is read. */
export async function multipartBody(mp: MultipartParts): Promise<{ wire: WireBody; contentType: string }> {
  const boundary = `httpbuilder-${toHex(randomBytes(16))}`;
  const parts: PreparedPart[] = [];
  try {
    for (const part of mp.parts) parts.push(await prepare(part, boundary));
  } catch (error) {
    for (const part of mp.parts) releaseContent(part.content);
    throw error;
  }
  const closing = utf8(`--${boundary}--\r\n`);
  let length: number | undefined = closing.byteLength;
  for (const part of parts) length = part.size === undefined || length === undefined ? undefined : length + part.head.byteLength + part.size + CRLF.byteLength;
  const source = { [Symbol.asyncIterator]: () => frames(parts, closing) };
  return { wire: streamedBody(source, length), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function* frames(parts: readonly PreparedPart[], closing: Uint8Array): AsyncGenerator<Uint8Array> {
  let index = 0;
  let finished = false;
  try {
    for (; index < parts.length; index++) {
      yield parts[index].head;
      yield* parts[index].content();
      yield CRLF;
    }
    yield closing;
    finished = true;
  } finally {
    // the transport gave up (reset, abort): close the streams nobody will read now
    if (!finished) for (let i = index; i < parts.length; i++) parts[i].release();
  }
}

async function prepare(part: MultipartPart, boundary: string): Promise<PreparedPart> {
  const { name, content } = part;
  const head = (size: number | undefined): Uint8Array => {
    let text = `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"`;
    if (part.fileName !== undefined) text += `; filename="${quote(part.fileName)}"`;
    text += '\r\n';
    if (part.contentType !== undefined) text += `Content-Type: ${part.contentType}\r\n`;
    if (size !== undefined) text += `Content-Length: ${size}\r\n`;
    return utf8(`${text}\r\n`);
  };
  const nothing = (): void => {};
  if (typeof content === 'string' || ArrayBuffer.isView(content) || content instanceof ArrayBuffer) {
    const bytes = typeof content === 'string' ? utf8(content) : bytesOf(content, `multipart part '${name}'`);
    return { head: head(bytes.byteLength), size: bytes.byteLength, content: () => [bytes], release: nothing };
  }
  if (isBlob(content)) {
    return { head: head(content.size), size: content.size, content: () => chunksOf(content.stream(), name), release: nothing };
  }
  if (isPathSource(content)) {
    // the runtime's file system (node's, plugged in by the node platform); none in a browser
    const file = await openFile(content.path, name);
    return { head: head(file.size), size: file.size, content: () => exactly(file.read(), file.size, name), release: nothing };
  }
  const { stream, size } = isSizedStream(content) ? content : { stream: content, size: undefined };
  checkUnread(stream, `multipart part '${name}'`); // a stream read by an earlier request would go out empty
  let used = false;
  const once = (): AsyncIterable<Uint8Array> => {
    if (used) throw new EncodeError(`multipart part '${name}': its stream was already read and cannot be sent again`);
    used = true;
    return size === undefined ? chunksOf(stream, name) : exactly(stream, size, name);
  };
  return { head: head(size), size, content: once, release: () => releaseContent(stream) };
}

/** HTML's multipart/form-data encoding: `"` becomes `%22` (CR, LF and NUL never get here). */
function quote(text: string): string {
  return text.replace(/"/g, '%22');
}

async function* chunksOf(stream: PartStream | Iterable<Uint8Array>, name: string): AsyncGenerator<Uint8Array> {
  const source = typeof (stream as Partial<ReadableStream>).getReader === 'function' ? iterableOf(stream as ReadableStream<unknown>) : stream;
  for await (const chunk of source as AsyncIterable<unknown>) {
    if (typeof chunk === 'string') yield utf8(chunk);
    else if (chunk instanceof Uint8Array) yield chunk;
    else throw new EncodeError(`multipart part '${name}': its stream yielded ${describeValue(chunk)}, not bytes`);
  }
}

/** The stream must deliver exactly `size` bytes: the part's (and maybe the body's) Content-Length says so. */
async function* exactly(stream: PartStream | Iterable<Uint8Array>, size: number, name: string): AsyncGenerator<Uint8Array> {
  let sent = 0;
  for await (const chunk of chunksOf(stream, name)) {
    sent += chunk.byteLength;
    if (sent > size) throw new EncodeError(`multipart part '${name}' is longer than its size (${size} bytes)`);
    yield chunk;
  }
  if (sent !== size) throw new EncodeError(`multipart part '${name}' is ${sent} bytes, shorter than its size (${size})`);
}
