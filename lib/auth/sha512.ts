import { padMessage } from './md5.js';

/**
 * SHA-512 and SHA-512/256 (FIPS 180-4) in plain TypeScript, synchronous as {@link sha256} is.
 * WebCrypto has no SHA-512/256 at all: it is SHA-512 from its own initial values, cut to 256
 * bits. Each 64-bit word is kept as two signed 32-bit halves (high, low) in an `Int32Array`.
 * @internal
 */

// the first 64 bits of the fractional parts of the cube roots of the first 80 primes, as (high, low)
const K = new Int32Array([
  0x428a2f98, 0xd728ae22, 0x71374491, 0x23ef65cd, 0xb5c0fbcf, 0xec4d3b2f, 0xe9b5dba5, 0x8189dbbc, 0x3956c25b, 0xf348b538, 0x59f111f1, 0xb605d019, 0x923f82a4,
  0xaf194f9b, 0xab1c5ed5, 0xda6d8118, 0xd807aa98, 0xa3030242, 0x12835b01, 0x45706fbe, 0x243185be, 0x4ee4b28c, 0x550c7dc3, 0xd5ffb4e2, 0x72be5d74, 0xf27b896f,
  0x80deb1fe, 0x3b1696b1, 0x9bdc06a7, 0x25c71235, 0xc19bf174, 0xcf692694, 0xe49b69c1, 0x9ef14ad2, 0xefbe4786, 0x384f25e3, 0x0fc19dc6, 0x8b8cd5b5, 0x240ca1cc,
  0x77ac9c65, 0x2de92c6f, 0x592b0275, 0x4a7484aa, 0x6ea6e483, 0x5cb0a9dc, 0xbd41fbd4, 0x76f988da, 0x831153b5, 0x983e5152, 0xee66dfab, 0xa831c66d, 0x2db43210,
  0xb00327c8, 0x98fb213f, 0xbf597fc7, 0xbeef0ee4, 0xc6e00bf3, 0x3da88fc2, 0xd5a79147, 0x930aa725, 0x06ca6351, 0xe003826f, 0x14292967, 0x0a0e6e70, 0x27b70a85,
  0x46d22ffc, 0x2e1b2138, 0x5c26c926, 0x4d2c6dfc, 0x5ac42aed, 0x53380d13, 0x9d95b3df, 0x650a7354, 0x8baf63de, 0x766a0abb, 0x3c77b2a8, 0x81c2c92e, 0x47edaee6,
  0x92722c85, 0x1482353b, 0xa2bfe8a1, 0x4cf10364, 0xa81a664b, 0xbc423001, 0xc24b8b70, 0xd0f89791, 0xc76c51a3, 0x0654be30, 0xd192e819, 0xd6ef5218, 0xd6990624,
  0x5565a910, 0xf40e3585, 0x5771202a, 0x106aa070, 0x32bbd1b8, 0x19a4c116, 0xb8d2d0c8, 0x1e376c08, 0x5141ab53, 0x2748774c, 0xdf8eeb99, 0x34b0bcb5, 0xe19b48a8,
  0x391c0cb3, 0xc5c95a63, 0x4ed8aa4a, 0xe3418acb, 0x5b9cca4f, 0x7763e373, 0x682e6ff3, 0xd6b2b8a3, 0x748f82ee, 0x5defb2fc, 0x78a5636f, 0x43172f60, 0x84c87814,
  0xa1f0ab72, 0x8cc70208, 0x1a6439ec, 0x90befffa, 0x23631e28, 0xa4506ceb, 0xde82bde9, 0xbef9a3f7, 0xb2c67915, 0xc67178f2, 0xe372532b, 0xca273ece, 0xea26619c,
  0xd186b8c7, 0x21c0c207, 0xeada7dd6, 0xcde0eb1e, 0xf57d4f7f, 0xee6ed178, 0x06f067aa, 0x72176fba, 0x0a637dc5, 0xa2c898a6, 0x113f9804, 0xbef90dae, 0x1b710b35,
  0x131c471b, 0x28db77f5, 0x23047d84, 0x32caab7b, 0x40c72493, 0x3c9ebe0a, 0x15c9bebc, 0x431d67c4, 0x9c100d4c, 0x4cc5d4be, 0xcb3e42b6, 0x597f299c, 0xfc657e2a,
  0x5fcb6fab, 0x3ad6faec, 0x6c44198c, 0x4a475817,
]);

// SHA-512's: the first 64 bits of the fractional parts of the square roots of the first 8 primes
const SHA512_INITIAL = new Int32Array([
  0x6a09e667, 0xf3bcc908, 0xbb67ae85, 0x84caa73b, 0x3c6ef372, 0xfe94f82b, 0xa54ff53a, 0x5f1d36f1, 0x510e527f, 0xade682d1, 0x9b05688c, 0x2b3e6c1f, 0x1f83d9ab,
  0xfb41bd6b, 0x5be0cd19, 0x137e2179,
]);

// SHA-512/256's (FIPS 180-4 §5.3.6.2)
const SHA512_256_INITIAL = new Int32Array([
  0x22312194, 0xfc2bf72c, 0x9f555fa3, 0xc84c64c2, 0x2393b86b, 0x6f53b151, 0x96387719, 0x5940eabd, 0x96283ee2, 0xa88effe3, 0xbe5e1e25, 0x53863992, 0x2b0199fc,
  0x2c85b8aa, 0x0eb72ddc, 0x81c52ca2,
]);

/** The SHA-512 digest (64 bytes) of `data`. */
export function sha512(data: Uint8Array): Uint8Array {
  return hash(data, SHA512_INITIAL).subarray(0, 64);
}

/** The SHA-512/256 digest (32 bytes) of `data`: not SHA-512's first half, its initial values differ. */
export function sha512_256(data: Uint8Array): Uint8Array {
  return hash(data, SHA512_256_INITIAL).slice(0, 32);
}

const TWO_32 = 0x100000000;

/** The message schedule, shared: hashing is synchronous, so no two calls use it at once. */
const w = new Int32Array(160);

function hash(data: Uint8Array, initial: Int32Array): Uint8Array {
  const padded = padMessage(data, true, 128);
  const view = new DataView(padded.buffer);
  const state = initial.slice();
  for (let offset = 0; offset < padded.length; offset += 128) {
    for (let i = 0; i < 32; i++) w[i] = view.getInt32(offset + i * 4);
    for (let i = 32; i < 160; i += 2) {
      // σ1(w[t-2]) = rotr19 ^ rotr61 ^ shr6, σ0(w[t-15]) = rotr1 ^ rotr8 ^ shr7
      const xh = w[i - 4];
      const xl = w[i - 3];
      const s1h = ((xh >>> 19) | (xl << 13)) ^ ((xl >>> 29) | (xh << 3)) ^ (xh >>> 6);
      const s1l = ((xl >>> 19) | (xh << 13)) ^ ((xh >>> 29) | (xl << 3)) ^ ((xl >>> 6) | (xh << 26));
      const yh = w[i - 30];
      const yl = w[i - 29];
      const s0h = ((yh >>> 1) | (yl << 31)) ^ ((yh >>> 8) | (yl << 24)) ^ (yh >>> 7);
      const s0l = ((yl >>> 1) | (yh << 31)) ^ ((yl >>> 8) | (yh << 24)) ^ ((yl >>> 7) | (yh << 25));
      const low = (s1l >>> 0) + (w[i - 13] >>> 0) + (s0l >>> 0) + (w[i - 31] >>> 0);
      // an Int32Array keeps each sum modulo 2^32, as the hash wants
      w[i] = s1h + w[i - 14] + s0h + w[i - 32] + ((low / TWO_32) | 0);
      w[i + 1] = low;
    }
    compress(state);
  }
  const digest = new Uint8Array(64);
  const out = new DataView(digest.buffer);
  state.forEach((word, i) => out.setInt32(i * 4, word));
  return digest;
}

/** The 80 rounds over one block's message schedule `w`, added into `state`. */
function compress(state: Int32Array): void {
  let ah = state[0];
  let al = state[1];
  let bh = state[2];
  let bl = state[3];
  let ch = state[4];
  let cl = state[5];
  let dh = state[6];
  let dl = state[7];
  let eh = state[8];
  let el = state[9];
  let fh = state[10];
  let fl = state[11];
  let gh = state[12];
  let gl = state[13];
  let hh = state[14];
  let hl = state[15];
  for (let i = 0; i < 160; i += 2) {
    // Σ1(e) = rotr14 ^ rotr18 ^ rotr41, Ch(e, f, g)
    const s1h = ((eh >>> 14) | (el << 18)) ^ ((eh >>> 18) | (el << 14)) ^ ((el >>> 9) | (eh << 23));
    const s1l = ((el >>> 14) | (eh << 18)) ^ ((el >>> 18) | (eh << 14)) ^ ((eh >>> 9) | (el << 23));
    const chooseH = (eh & fh) ^ (~eh & gh);
    const chooseL = (el & fl) ^ (~el & gl);
    const t1Low = (hl >>> 0) + (s1l >>> 0) + (chooseL >>> 0) + (K[i + 1] >>> 0) + (w[i + 1] >>> 0);
    const t1h = (hh + s1h + chooseH + K[i] + w[i] + ((t1Low / TWO_32) | 0)) | 0;
    const t1l = t1Low | 0;
    // Σ0(a) = rotr28 ^ rotr34 ^ rotr39, Maj(a, b, c)
    const s0h = ((ah >>> 28) | (al << 4)) ^ ((al >>> 2) | (ah << 30)) ^ ((al >>> 7) | (ah << 25));
    const s0l = ((al >>> 28) | (ah << 4)) ^ ((ah >>> 2) | (al << 30)) ^ ((ah >>> 7) | (al << 25));
    const majorityH = (ah & bh) ^ (ah & ch) ^ (bh & ch);
    const majorityL = (al & bl) ^ (al & cl) ^ (bl & cl);
    const t2Low = (s0l >>> 0) + (majorityL >>> 0);
    const t2h = s0h + majorityH + ((t2Low / TWO_32) | 0);
    hh = gh;
    hl = gl;
    gh = fh;
    gl = fl;
    fh = eh;
    fl = el;
    const eLow = (dl >>> 0) + (t1l >>> 0);
    eh = (dh + t1h + ((eLow / TWO_32) | 0)) | 0;
    el = eLow | 0;
    dh = ch;
    dl = cl;
    ch = bh;
    cl = bl;
    bh = ah;
    bl = al;
    const aLow = (t1l >>> 0) + (t2Low % TWO_32);
    ah = (t1h + t2h + ((aLow / TWO_32) | 0)) | 0;
    al = aLow | 0;
  }
  addWord(state, 0, ah, al);
  addWord(state, 2, bh, bl);
  addWord(state, 4, ch, cl);
  addWord(state, 6, dh, dl);
  addWord(state, 8, eh, el);
  addWord(state, 10, fh, fl);
  addWord(state, 12, gh, gl);
  addWord(state, 14, hh, hl);
}

/** `state[at, at + 1] += (high, low)`, modulo 2^64. */
function addWord(state: Int32Array, at: number, high: number, low: number): void {
  const sum = (state[at + 1] >>> 0) + (low >>> 0);
  state[at] = state[at] + high + ((sum / TWO_32) | 0);
  state[at + 1] = sum;
}
