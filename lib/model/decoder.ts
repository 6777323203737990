/**
 * What undoes one content coding: `body` (its first chunk included) decoded, as the chunks
 * come; `first` is that first chunk again, to tell variants apart (zlib-wrapped or raw deflate).
 * A failure (corrupt or truncated data, or the body's own error) surfaces through iterating.
 * A function of its module, not an arrow made per response: see docs/performance.md,
 * "Arrows made per request".
 * @internal
 */
export type Decoder = (body: AsyncIterable<Uint8Array>, first: Uint8Array) => AsyncIterable<Uint8Array>;

/**
 * Whether a deflate body starts with a zlib header (RFC 1950: method 8, a check that divides
 * by 31), as RFC 9110 says it should; some servers send raw deflate instead.
 * @internal
 */
export function isZlibHeader(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && (bytes[0] & 0x0f) === 8 && ((bytes[0] << 8) | bytes[1]) % 31 === 0;
}
