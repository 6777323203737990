import { concatBytes, latin1, toHex, utf8 } from '../core/bytes.js';
import { md5 } from './md5.js';
import { sha256 } from './sha256.js';
import { sha512, sha512_256 } from './sha512.js';

/**
 * The Digest algorithms of RFC 7616, and `SHA-512`: not registered by the RFC, but offered by
 * servers in the wild (httpbin) and answered by Python's requests. {@link strength} ranks them.
 */
export const DIGEST_ALGORITHMS = ['MD5', 'MD5-sess', 'SHA-256', 'SHA-256-sess', 'SHA-512-256', 'SHA-512-256-sess', 'SHA-512', 'SHA-512-sess'] as const;
export type DigestAlgorithm = (typeof DIGEST_ALGORITHMS)[number];

// in plain TypeScript, synchronous (WebCrypto has neither MD5 nor SHA-512/256, and its digest is a promise)
const HASHES: Readonly<Record<string, (data: Uint8Array) => Uint8Array>> = { MD5: md5, 'SHA-256': sha256, 'SHA-512-256': sha512_256, 'SHA-512': sha512 };

/** H(data) as lower-case hex, for the algorithm (without `-sess`); text is hashed as UTF-8. */
export function digestHash(algorithm: DigestAlgorithm, data: string | Uint8Array): string {
  return toHex(HASHES[algorithm.replace(/-sess$/i, '')](typeof data === 'string' ? utf8(data) : data));
}

/** How strong an algorithm is, to pick among several challenges (RFC 7616 §3.7: prefer the strongest). */
export function strength(algorithm: DigestAlgorithm): number {
  return algorithm.startsWith('SHA-512') ? 3 : algorithm.startsWith('SHA-256') ? 2 : 1;
}

/** Everything the response hash depends on (RFC 7616 §3.4.1, RFC 2617 §3.2.2). */
export interface DigestInput {
  readonly algorithm: DigestAlgorithm;
  readonly username: string;
  readonly realm: string;
  readonly password: string;
  readonly method: string;
  readonly uri: string;
  readonly nonce: string;
  readonly nc: string;
  readonly cnonce: string;
  /** `auth`, `auth-int`, or undefined for an RFC 2069 server that names no qop. */
  readonly qop: 'auth' | 'auth-int' | undefined;
  /** H(entity-body), for `auth-int`. */
  readonly bodyHash?: string;
}

/**
 * `user:realm` as bytes: the user name (and password) are UTF-8, while the realm is hashed as
 * the bytes the server sent (node reads header bytes as latin1), so a non-ASCII realm is not
 * encoded twice.
 */
export function userRealmBytes(username: string, realm: string, password?: string): Uint8Array {
  const parts = [utf8(username), latin1(`:${realm}`)];
  if (password !== undefined) parts.push(utf8(`:${password}`));
  return concatBytes(parts);
}

/** H(A1): the secret part, `-sess` variants mixing in the nonces. */
function ha1(input: DigestInput): string {
  const base = digestHash(input.algorithm, userRealmBytes(input.username, input.realm, input.password));
  return /-sess$/i.test(input.algorithm) ? digestHash(input.algorithm, `${base}:${input.nonce}:${input.cnonce}`) : base;
}

function ha2(input: DigestInput, method: string): string {
  const a2 = input.qop === 'auth-int' ? `${method}:${input.uri}:${input.bodyHash ?? ''}` : `${method}:${input.uri}`;
  return digestHash(input.algorithm, a2);
}

function combine(input: DigestInput, secret: string, hashedA2: string): string {
  if (input.qop === undefined) return digestHash(input.algorithm, `${secret}:${input.nonce}:${hashedA2}`);
  return digestHash(input.algorithm, `${secret}:${input.nonce}:${input.nc}:${input.cnonce}:${input.qop}:${hashedA2}`);
}

/** The `response` parameter of `Authorization: Digest`. */
export function digestResponse(input: DigestInput): string {
  return combine(input, ha1(input), ha2(input, input.method));
}

/** The `rspauth` the server must send back: the same with an empty method (RFC 7616 §3.5). */
export function expectedRspauth(input: DigestInput): string {
  return combine(input, ha1(input), ha2(input, ''));
}
