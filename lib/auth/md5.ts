/**
 * MD5 (RFC 1321) in plain TypeScript: WebCrypto has no MD5, and Digest authentication still
 * needs it (RFC 7616 keeps it as the default algorithm). Not for anything else: MD5 is broken as
 * a general-purpose hash.
 * @internal
 */

// floor(abs(sin(i + 1)) * 2^32), written out: no engine's Math.sin is trusted to the last bit
const K = new Int32Array([
  0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501, 0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122,
  0xfd987193, 0xa679438e, 0x49b40821, 0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8, 0x21e1cde6, 0xc33707d6,
  0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a, 0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60,
  0xbebfbc70, 0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665, 0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039,
  0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1, 0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
]);

/** The left rotation of each step: four per round, repeated. */
const SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];

/** The MD5 digest (16 bytes) of `data`. */
export function md5(data: Uint8Array): Uint8Array {
  const padded = padMessage(data, false);
  const view = new DataView(padded.buffer);
  const words = new Int32Array(16);
  let a0 = 0x67452301;
  let b0 = 0xefcdab89 | 0;
  let c0 = 0x98badcfe | 0;
  let d0 = 0x10325476;
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) words[i] = view.getInt32(offset + i * 4, true);
    let a = a0;
    let b = b0;
    let c = c0;
    let d = d0;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) & 15;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) & 15;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) & 15;
      }
      const sum = (a + f + K[i] + words[g]) | 0;
      const shift = SHIFTS[((i >> 4) << 2) | (i & 3)];
      a = d;
      d = c;
      c = b;
      b = (b + ((sum << shift) | (sum >>> (32 - shift)))) | 0;
    }
    a0 = (a0 + a) | 0;
    b0 = (b0 + b) | 0;
    c0 = (c0 + c) | 0;
    d0 = (d0 + d) | 0;
  }
  const digest = new Uint8Array(16);
  const out = new DataView(digest.buffer);
  [a0, b0, c0, d0].forEach((word, i) => out.setInt32(i * 4, word, true));
  return digest;
}

/**
 * `data`, a 1 bit, zeros, and the bit length in the last 8 bytes of a 64-byte block (MD5 and
 * SHA-256; little-endian for MD5). SHA-512 pads to 128-byte blocks with a 16-byte length.
 */
export function padMessage(data: Uint8Array, bigEndian: boolean, blockSize = 64): Uint8Array {
  const lengthSize = blockSize === 128 ? 16 : 8;
  const padded = new Uint8Array(Math.ceil((data.length + 1 + lengthSize) / blockSize) * blockSize);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  const high = Math.floor(data.length / 0x20000000); // the bit count's bits above 32
  const low = (data.length * 8) >>> 0;
  if (bigEndian) {
    view.setUint32(padded.length - 8, high);
    view.setUint32(padded.length - 4, low);
  } else {
    view.setUint32(padded.length - 8, low, true);
    view.setUint32(padded.length - 4, high, true);
  }
  return padded;
}
