/**
 * Bytes on web-standard primitives (`Uint8Array`, `TextEncoder`/`TextDecoder`, `crypto`,
 * `btoa`), so the core runs in browsers and Workers as on Node. Where the contract promises a
 * Node `Buffer` (`fromServer.bytes()`, a `Buffer` result type), {@link asBuffer} gives one on a
 * runtime that has it (Node, Bun, Deno) and the plain `Uint8Array` elsewhere.
 * @internal
 */

/** The runtime's `Buffer` class, where it has one (looked up once; no `node:buffer` import, no shim). */
export const NodeBuffer: BufferConstructor | undefined = (globalThis as { Buffer?: BufferConstructor }).Buffer;

const encoder = new TextEncoder();
// ignoreBOM: a BOM is kept, as Buffer's toString() keeps it
const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** `text` as UTF-8 bytes. */
export function utf8(text: string): Uint8Array {
  return NodeBuffer ? NodeBuffer.from(text, 'utf8') : encoder.encode(text);
}

/** UTF-8 bytes as text (a BOM is kept: callers that read documents drop it themselves). */
export function fromUtf8(bytes: Uint8Array): string {
  // a Buffer (what node's sockets give) decodes itself without TextDecoder's call overhead
  return NodeBuffer?.isBuffer(bytes) ? bytes.toString() : utf8Decoder.decode(bytes);
}

/** `text` as ISO-8859-1 bytes: each character's low byte (callers check for characters beyond U+00FF first). */
export function latin1(text: string): Uint8Array {
  if (NodeBuffer) return NodeBuffer.from(text, 'latin1');
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i); // a Uint8Array keeps the low byte
  return bytes;
}

/** `text` as UTF-16LE bytes, code unit by code unit (a lone surrogate is kept, as Node's encoder keeps it). */
export function utf16le(text: string): Uint8Array {
  if (NodeBuffer) return NodeBuffer.from(text, 'utf16le');
  const bytes = new Uint8Array(text.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < text.length; i++) view.setUint16(i * 2, text.charCodeAt(i), true);
  return bytes;
}

/** The byte length of `text` in UTF-8, without encoding it on Node. */
export function utf8Length(text: string): number {
  return NodeBuffer ? NodeBuffer.byteLength(text, 'utf8') : encoder.encode(text).length;
}

/** Whether `value` is bytes: a `Uint8Array` (a Node `Buffer` is one). */
export function isBytes(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array;
}

/** Several byte arrays as one (the only one, when there is one). */
export function concatBytes(chunks: readonly Uint8Array[], length?: number): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  if (NodeBuffer) return NodeBuffer.concat(chunks, length);
  const total = length ?? chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const joined = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    joined.set(chunk, offset);
    offset += chunk.length;
  }
  return joined;
}

/** The same bytes as a Node `Buffer` where the runtime has one (no copy), else as they are. */
export function asBuffer(bytes: Uint8Array): Uint8Array {
  if (!NodeBuffer || NodeBuffer.isBuffer(bytes)) return bytes;
  return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

const HEX_PAIRS = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Lower-case hex digits of `bytes`. */
export function toHex(bytes: Uint8Array): string {
  let hex = '';
  for (let i = 0; i < bytes.length; i++) hex += HEX_PAIRS[bytes[i]]; // a table: Digest makes several per request
  return hex;
}

/** Standard base64 (with padding) of UTF-8 text or bytes. */
export function toBase64(value: string | Uint8Array): string {
  const bytes = typeof value === 'string' ? utf8(value) : value;
  if (NodeBuffer) return asBufferView(bytes).toString('base64');
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** `count` bytes from the runtime's CSPRNG (WebCrypto). */
export function randomBytes(count: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(count));
}

/** A random UUID (v4) from the runtime's CSPRNG. */
export function randomUUID(): string {
  return crypto.randomUUID();
}

function asBufferView(bytes: Uint8Array): Buffer {
  return asBuffer(bytes) as Buffer;
}
