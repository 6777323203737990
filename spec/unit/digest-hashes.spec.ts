import { describe, expect, it } from '@jest/globals';
import { createHash } from 'node:crypto';
import { digestHash } from '../../lib/auth/digest-math.js';
import { md5 } from '../../lib/auth/md5.js';
import { sha256 } from '../../lib/auth/sha256.js';
import { sha512, sha512_256 } from '../../lib/auth/sha512.js';
import { toHex } from '../../lib/core/bytes.js';

// The Digest hashes in plain TypeScript (no node:crypto in the core): the published test vectors
// (RFC 1321 §A.5, FIPS 180-4's examples via NIST's CSRC pages), then node's OpenSSL as a second
// opinion on every length around the block boundaries.
const ascii = (text: string) => new TextEncoder().encode(text);
const MILLION_A = new Uint8Array(1_000_000).fill(0x61);
const TWO_BLOCKS_448 = 'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq';
const TWO_BLOCKS_896 = 'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu';

/** Each hash's published vectors: text → hex digest (`MILLION` stands for a million 'a'). */
const MILLION = 'a × 1,000,000';
const VECTORS: ReadonlyArray<readonly [string, (data: Uint8Array) => Uint8Array, Readonly<Record<string, string>>]> = [
  [
    'MD5 (RFC 1321)',
    md5,
    {
      '': 'd41d8cd98f00b204e9800998ecf8427e',
      abc: '900150983cd24fb0d6963f7d28e17f72',
      'message digest': 'f96b697d7cb7938d525a2f31aaf161d0',
      abcdefghijklmnopqrstuvwxyz: 'c3fcd3d76192e4007dfb496cca67e13b',
      ['1234567890'.repeat(8)]: '57edf4a22be3c955ac49da2e2107b67a',
      [MILLION]: '7707d6ae4e027c70eea2a935c2296f21',
    },
  ],
  [
    'SHA-256 (FIPS 180-4)',
    sha256,
    {
      '': 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
      abc: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
      [TWO_BLOCKS_448]: '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
      [MILLION]: 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0',
    },
  ],
  [
    'SHA-512 (FIPS 180-4)',
    sha512,
    {
      '': 'cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e',
      abc: 'ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f',
      [TWO_BLOCKS_896]: '8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909',
      [MILLION]: 'e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b',
    },
  ],
  [
    'SHA-512/256 (FIPS 180-4 §6.7)',
    sha512_256,
    {
      '': 'c672b8d1ef56ed28ab87c3622c5114069bdd3ad7b8f9737498d0c01ecef0967a',
      abc: '53048e2681941ef99b2e29b76b4c7dabe4c2d0c634fc6d46e0e2f13107e7af23',
      [TWO_BLOCKS_896]: '3928e184fb8690f840da3988121d31be65cb9d3ef83ee6146feac861e19b563a',
      [MILLION]: '9a59a052930187a97038cae692f30708aa6491923ef5194394dc68d56c74fb21',
    },
  ],
];

describe.each(VECTORS)('%s', (_, hash, vectors) => {
  it.each(Object.entries(vectors))(
    'of %j',
    (text, hex) => {
      expect(toHex(hash(text === MILLION ? MILLION_A : ascii(text)))).toBe(hex);
    },
    30_000, // a million bytes through plain arithmetic take seconds on a busy machine, under jest's VM
  );
});

it('SHA-512/256 has its own initial values: it is not the first half of SHA-512', () => {
  expect(toHex(sha512_256(ascii('abc')))).not.toBe(toHex(sha512(ascii('abc'))).slice(0, 64));
});

describe("every length from 0 to 300 bytes (each padding case), as node's OpenSSL hashes them", () => {
  const HASHES = [
    ['md5', md5],
    ['sha256', sha256],
    ['sha512', sha512],
    ['sha512-256', sha512_256],
  ] as const;

  it.each(HASHES)('%s', (name, hash) => {
    const wrong: number[] = [];
    for (let length = 0; length <= 300; length++) {
      const data = Uint8Array.from({ length }, (_, i) => (i * 131 + length) & 0xff);
      if (toHex(hash(data)) !== createHash(name).update(data).digest('hex')) wrong.push(length);
    }
    expect(wrong).toEqual([]);
  });

  it('a subarray is hashed as its own bytes, not its whole buffer', () => {
    const whole = ascii('xxabcxx');
    expect(toHex(sha256(whole.subarray(2, 5)))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('digestHash', () => {
  it('hashes text as UTF-8, for each algorithm and its -sess variant', () => {
    const text = 'Jäsøn Doe:api@example.org:€ 👍';
    for (const [algorithm, node] of [
      ['MD5', 'md5'],
      ['SHA-256-sess', 'sha256'],
      ['SHA-512-256', 'sha512-256'],
      ['SHA-512-sess', 'sha512'],
    ] as const) {
      expect(digestHash(algorithm, text)).toBe(createHash(node).update(text, 'utf8').digest('hex'));
    }
  });

  it('hashes bytes as they are', () => {
    const bytes = Uint8Array.of(0xff, 0x00, 0xe4);
    expect(digestHash('MD5', bytes)).toBe(createHash('md5').update(bytes).digest('hex'));
  });
});
