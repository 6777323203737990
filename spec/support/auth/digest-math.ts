// The Digest hash computations of RFC 7616 §3.4.1-§3.4.4 and §3.5 (and RFC 2617 §3.2.2),
// written from the RFC text for the test server. Strings are hashed as UTF-8.
import { createHash } from 'node:crypto';

/**
 * The algorithms of the RFC 7616 registry (§6.1), spelled as in the registry, and `SHA-512`,
 * which is not registered but offered in the wild (httpbin).
 */
export type DigestAlgorithm = 'MD5' | 'MD5-sess' | 'SHA-256' | 'SHA-256-sess' | 'SHA-512-256' | 'SHA-512-256-sess' | 'SHA-512' | 'SHA-512-sess';

/** Every {@link DigestAlgorithm}, weakest first. */
export const DIGEST_ALGORITHMS: readonly DigestAlgorithm[] = [
  'MD5',
  'MD5-sess',
  'SHA-256',
  'SHA-256-sess',
  'SHA-512-256',
  'SHA-512-256-sess',
  'SHA-512',
  'SHA-512-sess',
];

/** A `qop` value a request can carry. */
export type DigestQop = 'auth' | 'auth-int';

const nodeHashName: Record<string, string> = { MD5: 'md5', 'SHA-256': 'sha256', 'SHA-512-256': 'sha512-256', 'SHA-512': 'sha512' };

/**
 * The algorithm named by an `algorithm` parameter value, matched case-insensitively;
 * an absent parameter means MD5 (RFC 7616 §3.3). Undefined for an unknown name.
 */
export function toDigestAlgorithm(name: string | undefined): DigestAlgorithm | undefined {
  if (name === undefined) return 'MD5';
  return DIGEST_ALGORITHMS.find((a) => a.toLowerCase() === name.toLowerCase());
}

/** True for the `-sess` variants, whose A1 includes the nonce and cnonce. */
export function isSessionAlgorithm(algorithm: DigestAlgorithm): boolean {
  return algorithm.endsWith('-sess');
}

/** H(data) of RFC 7616 §3.4.1: the algorithm's hash as lower-case hex; strings are UTF-8. */
export function digestHash(algorithm: DigestAlgorithm, data: string | Buffer): string {
  const base = algorithm.replace(/-sess$/, '');
  return createHash(nodeHashName[base]).update(data).digest('hex');
}

/** KD(secret, data) = H(secret ":" data), RFC 7616 §3.4.1. */
export function kd(algorithm: DigestAlgorithm, secret: string, data: string): string {
  return digestHash(algorithm, `${secret}:${data}`);
}

/** What the request digest and the response digest are computed from. */
export interface DigestInput {
  algorithm: DigestAlgorithm;
  /** The real user name (never the userhash: hashing comes after, RFC 7616 §3.4.4). */
  username: string;
  realm: string;
  password: string;
  nonce: string;
  /** Required with a qop and for the `-sess` algorithms. */
  cnonce?: string;
  /** 8 hex digits; required with a qop. */
  nc?: string;
  /** Absent: the RFC 2069 compatible form without qop. */
  qop?: DigestQop;
  /** The `uri` parameter value, i.e. the request-target. */
  uri: string;
  /** The request method; only the request digest uses it. */
  method: string;
  /**
   * The entity body hashed for `auth-int`: the request body for {@link requestDigest},
   * the response body for {@link responseDigest}. Default empty.
   */
  body?: Buffer | string;
}

/** H(A1), RFC 7616 §3.4.2: `-sess` uses H(user:realm:password):nonce:cnonce. */
export function ha1(input: DigestInput): string {
  const { algorithm, username, realm, password } = input;
  const secret = digestHash(algorithm, `${username}:${realm}:${password}`);
  if (!isSessionAlgorithm(algorithm)) return secret;
  if (input.cnonce === undefined) throw new Error(`${algorithm} needs a cnonce`);
  return digestHash(algorithm, `${secret}:${input.nonce}:${input.cnonce}`);
}

/** The `response` parameter of the Authorization header, RFC 7616 §3.4.1 (A2 = method:uri[:H(body)]). */
export function requestDigest(input: DigestInput): string {
  return finalDigest(input, `${input.method}:${input.uri}`);
}

/** The `rspauth` of Authentication-Info, RFC 7616 §3.5: as the request digest, with A2 = :uri[:H(body)]. */
export function responseDigest(input: DigestInput): string {
  return finalDigest(input, `:${input.uri}`);
}

/** The `username` sent when `userhash=true`: H(username ":" realm), RFC 7616 §3.4.4. */
export function userhash(algorithm: DigestAlgorithm, username: string, realm: string): string {
  return digestHash(algorithm, `${username}:${realm}`);
}

function finalDigest(input: DigestInput, a2Start: string): string {
  const { algorithm, qop } = input;
  const a2 = qop === 'auth-int' ? `${a2Start}:${digestHash(algorithm, input.body ?? '')}` : a2Start;
  const secret = ha1(input);
  if (qop === undefined) return kd(algorithm, secret, `${input.nonce}:${digestHash(algorithm, a2)}`);
  if (input.nc === undefined || input.cnonce === undefined) throw new Error(`qop=${qop} needs nc and cnonce`);
  return kd(algorithm, secret, `${input.nonce}:${input.nc}:${input.cnonce}:${qop}:${digestHash(algorithm, a2)}`);
}
